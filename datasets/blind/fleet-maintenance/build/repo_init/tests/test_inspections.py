from datetime import date

from fleet.inspections import next_inspection
from fleet.planner import next_inspections


def test_next_inspection_light():
    assert next_inspection("light", date(2023, 6, 1)) == date(2024, 5, 31)


def test_planner_light_slots():
    assert next_inspections("light", date(2023, 6, 1), 2) == [date(2024, 5, 31), date(2025, 5, 31)]
