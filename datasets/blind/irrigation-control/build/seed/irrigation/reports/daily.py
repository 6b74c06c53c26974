def render_daily(zones, ledger, day, alerts=()):
    lines = [f"Irrigation report {day.isoformat()}", ""]
    lines.append(f"{'zone':<14}{'used L':>10}{'budget L':>10}")
    total = 0.0
    for zone in zones:
        used = ledger.used_liters(zone.id, day)
        total += used
        lines.append(f"{zone.name:<14}{used:>10.1f}{zone.daily_liters:>10.0f}")
    lines.append(f"{'total':<14}{total:>10.1f}")
    if alerts:
        lines.append("")
        lines.append("Alerts:")
        for alert in alerts:
            lines.append(f"  [{alert.severity}] {alert.kind} zone {alert.zone_id}: {alert.message}")
    return "\n".join(lines) + "\n"
