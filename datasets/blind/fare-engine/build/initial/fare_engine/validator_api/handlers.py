from datetime import timezone, tzinfo

from ..concessions import UnknownConcession
from ..engine import FareEngine
from ..money import format_cents
from ..zones import UnknownStop
from .clock import device_time

REQUIRED_TAP_FIELDS = ("device_id", "seq", "card_id", "stop", "ts")


def error(code: str, message: str, seq=None) -> dict:
    return {"ok": False, "error": code, "message": message, "seq": seq}


def handle_tap(engine: FareEngine, request: dict, tz: tzinfo = timezone.utc) -> dict:
    missing = [f for f in REQUIRED_TAP_FIELDS if f not in request]
    if missing:
        return error("bad_request", "missing fields: " + ", ".join(missing), request.get("seq"))
    at = device_time(request["ts"], tz)
    try:
        entry = engine.tap(request["card_id"], request["stop"], at,
                           concession=request.get("concession", "adult"),
                           device_id=request["device_id"], seq=request["seq"])
    except UnknownStop:
        return error("unknown_stop", f"unknown stop {request['stop']!r}", request["seq"])
    except UnknownConcession:
        return error("unknown_concession", f"unknown concession {request.get('concession')!r}",
                     request["seq"])
    return {
        "ok": True,
        "seq": request["seq"],
        "kind": entry.kind,
        "charged_cents": entry.charged_cents,
        "display": format_cents(entry.charged_cents),
    }
