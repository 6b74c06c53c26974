from datetime import datetime

import pytest

from fleet.workorders import WorkOrder


def test_downtime_hours():
    wo = WorkOrder("WO-1", "N-12", datetime(2024, 3, 1, 8, 0))
    wo.close(datetime(2024, 3, 1, 14, 30))
    assert wo.downtime_hours() == 6.5


def test_add_part_normalises():
    wo = WorkOrder("WO-2", "N-12", datetime(2024, 3, 1, 8, 0))
    wo.add_part(" flt-105", 2)
    assert wo.lines == [("FLT-105", 2)]
    with pytest.raises(ValueError):
        wo.add_part("FLT-105", 0)
