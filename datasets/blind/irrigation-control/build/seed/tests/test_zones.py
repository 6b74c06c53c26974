import pytest

from irrigation.zones import Zone, ZoneRegistry


def test_load_sample_zones(zones):
    assert len(zones) == 6
    assert zones.get(4).name == "pepper"
    assert [z.id for z in zones] == [1, 2, 3, 4, 5, 6]


def test_by_probe(zones):
    assert zones.by_probe("P-05").id == 3
    assert zones.by_probe("P-99") is None


def test_duplicate_zone_rejected():
    zone = Zone(1, "a", 1, 10, 5, 0.3, 100)
    with pytest.raises(ValueError):
        ZoneRegistry([zone, zone])


def test_unknown_zone():
    with pytest.raises(KeyError):
        ZoneRegistry().get(7)
