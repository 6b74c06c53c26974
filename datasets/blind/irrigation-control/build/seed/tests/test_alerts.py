from datetime import date

from irrigation.alerts.notify import build_payload, build_request
from irrigation.alerts.rules import budget_alerts, dry_soil_alerts, leak_alerts
from irrigation.budget.ledger import Ledger
from irrigation.config import Settings
from irrigation.sensors.readings import parse_dump


def test_dry_soil_alert(zones):
    readings = parse_dump('{"probe": "P-03", "ts": "2026-01-10T05:00:00Z", "vwc": 0.20}')
    alerts = dry_soil_alerts(zones, readings)
    assert [(a.kind, a.zone_id) for a in alerts] == [("DRY_SOIL", 2)]


def test_no_alert_near_target(zones):
    readings = parse_dump('{"probe": "P-03", "ts": "2026-01-10T05:00:00Z", "vwc": 0.29}')
    assert dry_soil_alerts(zones, readings) == []


def test_budget_alert(zones):
    ledger = Ledger()
    ledger.record(5, date(2026, 1, 12), 300)
    alerts = budget_alerts(zones, ledger, date(2026, 1, 12))
    assert [(a.kind, a.zone_id) for a in alerts] == [("BUDGET", 5)]


def test_leak_alert():
    alerts = leak_alerts({1: 0.1, 2: 3.0, 3: 5.0}, open_valves={3})
    assert [a.zone_id for a in alerts] == [2]


def test_payload():
    settings = Settings("GH1", "", "https://hooks.example/irr", "tok")
    url, headers, body = build_request(settings, [])
    assert headers["Authorization"] == "Bearer tok"
    assert build_payload(settings, [])["site"] == "GH1"
