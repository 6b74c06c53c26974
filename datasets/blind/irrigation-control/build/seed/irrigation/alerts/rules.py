from dataclasses import dataclass

DRY_MARGIN = 0.08


@dataclass(frozen=True)
class Alert:
    kind: str
    zone_id: int
    severity: str
    message: str


def dry_soil_alerts(zones, readings, margin=DRY_MARGIN):
    alerts = []
    for zone in zones:
        for reading in readings:
            if reading.probe_id not in zone.probes:
                continue
            if reading.vwc < zone.target_vwc - margin:
                alerts.append(
                    Alert(
                        "DRY_SOIL",
                        zone.id,
                        "warning",
                        f"{zone.name}: probe {reading.probe_id} at {reading.vwc:.2f} (target {zone.target_vwc:.2f})",
                    )
                )
    return alerts


def budget_alerts(zones, ledger, day):
    alerts = []
    for zone in zones:
        used = ledger.used_liters(zone.id, day)
        if used > zone.daily_liters:
            alerts.append(
                Alert("BUDGET", zone.id, "critical", f"{zone.name}: used {used:.0f} L of {zone.daily_liters:.0f} L")
            )
    return alerts


def leak_alerts(flow_by_valve, open_valves, tolerance_lpm=0.5):
    alerts = []
    for valve, flow in sorted(flow_by_valve.items()):
        if valve not in open_valves and flow > tolerance_lpm:
            alerts.append(Alert("LEAK", valve, "critical", f"valve {valve}: {flow:.1f} L/min while closed"))
    return alerts
