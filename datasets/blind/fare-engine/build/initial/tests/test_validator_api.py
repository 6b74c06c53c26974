from fare_engine.engine import FareEngine
from fare_engine.validator_api.handlers import handle_tap

TS_0800 = 1709539200000  # 2024-03-04 08:00 UTC


def tap_request(**overrides):
    request = {"device_id": "val-17", "seq": 1, "card_id": "card-1", "stop": "UNI", "ts": TS_0800}
    request.update(overrides)
    return request


def test_tap_ok():
    response = handle_tap(FareEngine(), tap_request())
    assert response == {"ok": True, "seq": 1, "kind": "ride", "charged_cents": 300, "display": "$3.00"}


def test_tap_records_device_time():
    engine = FareEngine()
    handle_tap(engine, tap_request())
    entry = list(engine.ledger)[0]
    assert entry.at.isoformat() == "2024-03-04T08:00:00+00:00"
    assert entry.device_id == "val-17"


def test_tap_missing_fields():
    response = handle_tap(FareEngine(), {"device_id": "val-17", "seq": 4})
    assert response["ok"] is False
    assert response["error"] == "bad_request"
    assert response["seq"] == 4


def test_tap_unknown_stop():
    response = handle_tap(FareEngine(), tap_request(stop="MOON"))
    assert response["error"] == "unknown_stop"
