import pytest

from fare_engine.engine import FareEngine
from fare_engine.refunds import RefundDesk, RefundError

from .helpers import at


def _setup():
    engine = FareEngine()
    return engine, RefundDesk(engine.ledger, engine.caps)


def test_refund_ride():
    engine, desk = _setup()
    ride = engine.tap("card-1", "UNI", at(4, 8))
    refund = desk.refund(ride.entry_id, at(4, 12))
    assert refund.kind == "refund"
    assert refund.charged_cents == -300
    assert refund.refund_of == ride.entry_id


def test_cannot_refund_twice():
    engine, desk = _setup()
    ride = engine.tap("card-1", "UNI", at(4, 8))
    desk.refund(ride.entry_id, at(4, 12))
    with pytest.raises(RefundError):
        desk.refund(ride.entry_id, at(4, 13))


def test_cannot_refund_transfer():
    engine, desk = _setup()
    engine.tap("card-1", "CEN", at(4, 8))
    transfer = engine.tap("card-1", "UNI", at(4, 8, 30))
    with pytest.raises(RefundError):
        desk.refund(transfer.entry_id, at(4, 12))


def test_refund_window():
    engine, desk = _setup()
    ride = engine.tap("card-1", "UNI", at(4, 8))
    with pytest.raises(RefundError):
        desk.refund(ride.entry_id, at(6, 9))
