from datetime import timedelta

from conftest import reading

from telemetry_ingest.alerts import AlertEngine, ThresholdRule


def test_threshold_rule_fires(t0):
    rule = ThresholdRule("freezer-warm", "temperature", ">", -10.0)
    assert rule.evaluate(reading(value=-20.0)) is None
    alert = rule.evaluate(reading(value=-5.0))
    assert alert is not None and alert.rule == "freezer-warm"


def test_threshold_rule_other_metric(t0):
    rule = ThresholdRule("freezer-warm", "temperature", ">", -10.0)
    assert rule.evaluate(reading(metric="humidity", value=90.0, unit="%RH")) is None


def test_engine_cooldown(t0):
    engine = AlertEngine([ThresholdRule("hot", "temperature", ">", 30.0)], cooldown=timedelta(minutes=10))
    readings = [reading(value=35.0, ts=t0 + timedelta(minutes=m)) for m in (0, 5, 11)]
    alerts = engine.process(readings)
    assert [a.ts for a in alerts] == [t0, t0 + timedelta(minutes=11)]


def test_device_filter(t0):
    rule = ThresholdRule("hot", "temperature", ">", 30.0, devices=frozenset({"HB-1"}))
    assert rule.evaluate(reading(device="FZ-3", value=40.0)) is None
    assert rule.evaluate(reading(device="HB-1", value=40.0)) is not None
