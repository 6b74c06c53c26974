import math

from irrigation.valves.commands import ValveCommand

LITERS_PER_M2_PER_POINT = 0.5


def liters_needed(zone, vwc):
    deficit = zone.target_vwc - vwc
    if deficit <= 0:
        return 0.0
    points = deficit * 100
    return round(points * zone.area_m2 * LITERS_PER_M2_PER_POINT, 1)


def run_seconds(zone, liters):
    if liters <= 0:
        return 0
    return int(math.ceil(liters / zone.flow_lpm * 60))


def plan_zone(zone, vwc):
    seconds = run_seconds(zone, liters_needed(zone, vwc))
    if seconds == 0:
        return []
    return [ValveCommand(zone.valve, seconds)]


def plan(zones, moisture):
    """moisture maps zone id -> current volumetric water content."""
    commands = []
    for zone in zones:
        if zone.id not in moisture:
            continue
        commands.extend(plan_zone(zone, moisture[zone.id]))
    return commands
