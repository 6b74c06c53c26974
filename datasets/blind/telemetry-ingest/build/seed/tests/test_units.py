import pytest

from telemetry_ingest.units import UnknownUnit, convert, normalize_unit, to_canonical


def test_fahrenheit_to_celsius():
    assert to_canonical(212, "F") == (100.0, "C")
    assert to_canonical(32, "°F") == (0.0, "C")


def test_canonical_units_pass_through():
    assert to_canonical(21.5, "C") == (21.5, "C")
    assert to_canonical(101.3, "kPa") == (101.3, "kPa")


@pytest.mark.parametrize(
    "value,unit,expected",
    [(1013.0, "hPa", 101.3), (1013.0, "mbar", 101.3), (14.7, "psi", 101.352928), (0.45, "ratio", 45.0), (3300, "mV", 3.3)],
)
def test_conversions(value, unit, expected):
    assert to_canonical(value, unit)[0] == pytest.approx(expected)


def test_aliases():
    assert normalize_unit("degC") == "C"
    assert normalize_unit("%") == "%RH"


def test_unknown_unit():
    with pytest.raises(UnknownUnit):
        to_canonical(1.0, "furlong")


def test_convert_round_trip():
    assert convert(100.0, "C", "F") == pytest.approx(212.0)
    assert convert(101.3, "kPa", "hPa") == pytest.approx(1013.0)
