"""Device registry: which devices exist, where they are, when we last heard from them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

OFFLINE_AFTER = timedelta(minutes=15)


class UnknownDevice(KeyError):
    pass


def canonical_id(raw: str) -> str:
    """Device ids are case-insensitive; we keep them upper-case without padding."""
    return raw.strip().upper()


@dataclass
class Device:
    device_id: str
    site: str
    name: str = ""
    last_seen: datetime | None = None


class DeviceRegistry:
    def __init__(self) -> None:
        self._devices: dict[str, Device] = {}

    def register(self, device_id: str, site: str, name: str = "") -> Device:
        key = canonical_id(device_id)
        device = Device(device_id=key, site=site, name=name)
        self._devices[key] = device
        return device

    def get(self, device_id: str) -> Device:
        try:
            return self._devices[canonical_id(device_id)]
        except KeyError:
            raise UnknownDevice(device_id) from None

    def __contains__(self, device_id: object) -> bool:
        return isinstance(device_id, str) and canonical_id(device_id) in self._devices

    def __iter__(self) -> Iterator[Device]:
        return iter(sorted(self._devices.values(), key=lambda d: d.device_id))

    def __len__(self) -> int:
        return len(self._devices)

    def __repr__(self) -> str:
        return f"DeviceRegistry({len(self)} devices)"

    def touch(self, device_id: str, seen_at: datetime) -> None:
        device = self.get(device_id)
        if device.last_seen is None or seen_at > device.last_seen:
            device.last_seen = seen_at

    def status(self, device_id: str, now: datetime) -> str:
        """``online``, ``offline`` or ``never_seen``: what the dashboard shows."""
        device = self.get(device_id)
        if device.last_seen is None:
            return "never_seen"
        if now - device.last_seen > OFFLINE_AFTER:
            return "offline"
        return "online"

    def by_site(self, site: str) -> list[Device]:
        return [d for d in self if d.site == site]
