from datetime import date

import pytest

from fleet.intervals import next_service_km, service_due
from fleet.vehicles import Vehicle


def van(km=10000):
    return Vehicle("N-12", "light", km, date(2021, 5, 1), home_depot="NORTH")


def test_next_service_km_light():
    assert next_service_km(van(), 5000) == 20000


def test_service_due_by_distance():
    assert service_due(van(21000), 5000, date(2024, 1, 1), date(2024, 2, 1))


def test_service_due_by_time():
    assert service_due(van(6000), 5000, date(2023, 1, 1), date(2024, 1, 2))


def test_not_due():
    assert not service_due(van(6000), 5000, date(2024, 1, 1), date(2024, 2, 1))


def test_bad_class():
    with pytest.raises(ValueError):
        Vehicle("N-1", "bus", 0, date(2020, 1, 1))
