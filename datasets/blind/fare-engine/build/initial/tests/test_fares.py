import pytest

from fare_engine.concessions import UnknownConcession, concession_fare
from fare_engine.products import single_fare
from fare_engine.zones import UnknownStop


def test_zone_fares():
    assert single_fare("CEN") == 250
    assert single_fare("UNI") == 300
    assert single_fare("HARB") == 375


def test_unknown_stop():
    with pytest.raises(UnknownStop):
        single_fare("NOPE")


def test_concessions():
    assert concession_fare(300, "adult") == 300
    assert concession_fare(300, "child") == 150
    assert concession_fare(300, "student") == 225
    with pytest.raises(UnknownConcession):
        concession_fare(300, "pirate")
