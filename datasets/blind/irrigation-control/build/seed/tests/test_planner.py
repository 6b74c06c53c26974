from irrigation.schedule.planner import liters_needed, plan, plan_zone, run_seconds
from irrigation.valves.commands import ValveCommand


def test_no_water_when_wet(zones):
    assert plan_zone(zones.get(1), 0.40) == []


def test_liters_needed(zones):
    assert liters_needed(zones.get(1), 0.30) == 120.0


def test_run_seconds(zones):
    assert run_seconds(zones.get(1), 120.0) == 180


def test_plan_zone_single_command(zones):
    assert plan_zone(zones.get(1), 0.30) == [ValveCommand(1, 180)]


def test_plan_skips_zones_without_reading(zones):
    commands = plan(zones, {2: 0.30})
    assert [c.valve for c in commands] == [2]
