from fare_engine.engine import FareEngine

from .helpers import at


def test_single_ride_charges_zone_fare():
    engine = FareEngine()
    entry = engine.tap("card-1", "UNI", at(4, 8))
    assert entry.kind == "ride"
    assert entry.charged_cents == 300


def test_transfer_within_window_is_free():
    engine = FareEngine()
    engine.tap("card-1", "CEN", at(4, 8))
    entry = engine.tap("card-1", "UNI", at(4, 9, 20))
    assert entry.kind == "transfer"
    assert entry.charged_cents == 0


def test_transfer_window_counts_from_journey_start():
    engine = FareEngine()
    engine.tap("card-1", "CEN", at(4, 8))
    engine.tap("card-1", "UNI", at(4, 9))
    entry = engine.tap("card-1", "PARK", at(4, 9, 45))
    assert entry.kind == "ride"


def test_concession_ride():
    engine = FareEngine()
    entry = engine.tap("card-1", "HARB", at(4, 8), concession="child")
    assert entry.charged_cents == 188


def test_daily_cap():
    engine = FareEngine()
    charged = [engine.tap("card-1", "HARB", at(4, h)).charged_cents for h in (7, 10, 13, 16)]
    assert charged == [375, 375, 150, 0]
    assert engine.caps.spent("card-1", at(4, 0).date()) == 900
