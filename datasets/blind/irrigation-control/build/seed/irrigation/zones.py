import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Zone:
    id: int
    name: str
    valve: int
    area_m2: float
    flow_lpm: float
    target_vwc: float
    daily_liters: float
    probes: tuple = field(default_factory=tuple)


class ZoneRegistry:
    def __init__(self, zones=()):
        self._zones = {}
        for zone in zones:
            self.add(zone)

    def add(self, zone):
        if zone.id in self._zones:
            raise ValueError(f"duplicate zone id {zone.id}")
        self._zones[zone.id] = zone

    def get(self, zone_id):
        try:
            return self._zones[zone_id]
        except KeyError:
            raise KeyError(f"unknown zone {zone_id}") from None

    def by_probe(self, probe_id):
        for zone in self._zones.values():
            if probe_id in zone.probes:
                return zone
        return None

    def __iter__(self):
        return iter(sorted(self._zones.values(), key=lambda z: z.id))

    def __len__(self):
        return len(self._zones)


def zone_from_dict(raw):
    return Zone(
        id=int(raw["id"]),
        name=raw["name"],
        valve=int(raw["valve"]),
        area_m2=float(raw["area_m2"]),
        flow_lpm=float(raw["flow_lpm"]),
        target_vwc=float(raw["target_vwc"]),
        daily_liters=float(raw["daily_liters"]),
        probes=tuple(raw.get("probes", ())),
    )


def load_zones(path):
    data = json.loads(Path(path).read_text())
    return ZoneRegistry(zone_from_dict(item) for item in data)
