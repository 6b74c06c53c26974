"""Family offline-status: every ingestion path must call DeviceRegistry.touch(device, received_at)."""

from taskkit import Cand, TaskDef, edit, write

MQTT = '''"""MQTT bridge: devices publish the usual JSON payload on acme/<site>/<device>/up."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime

from telemetry_ingest.alerts.engine import AlertEngine
from telemetry_ingest.dedup import DedupFilter
from telemetry_ingest.devices.registry import DeviceRegistry, canonical_id
from telemetry_ingest.models import Reading
from telemetry_ingest.parsing.json_payload import ParseError, parse_payload
from telemetry_ingest.pipeline import IngestReport
from telemetry_ingest.store import InMemoryStore
from telemetry_ingest.validation import validate


class MqttBridge:
    def __init__(self, registry: DeviceRegistry, store: InMemoryStore, engine: AlertEngine | None = None) -> None:
        self.registry = registry
        self.store = store
        self.engine = engine
        self.dedup = DedupFilter()

    @staticmethod
    def device_from_topic(topic: str) -> str:
        parts = topic.split("/")
        if len(parts) != 4 or parts[0] != "acme" or parts[3] != "up":
            raise ParseError(f"unexpected topic {topic!r}")
        return parts[2]

    def handle(self, topic: str, payload: bytes, received_at: datetime) -> IngestReport:
        device = self.device_from_topic(topic)
        try:
            body = json.loads(payload)
        except json.JSONDecodeError as exc:
            raise ParseError(f"not JSON: {exc}") from exc
        body.setdefault("device", device)
        parsed = parse_payload(body, received_at)
        report = IngestReport(skipped_fields=list(parsed.skipped))
        accepted: list[Reading] = []
        for reading in parsed.readings:
            reading = replace(reading, device_id=canonical_id(reading.device_id))
            if reading.device_id not in self.registry:
                report.rejected.append(f"{reading.device_id}: unknown device")
                continue
            problems = validate(reading, now=received_at)
            if problems:
                report.rejected.append(f"{reading.device_id}: {'; '.join(problems)}")
                continue
            if self.dedup.seen(reading):
                report.duplicates += 1
                continue
            accepted.append(reading)
        self.store.add(accepted)
        report.accepted = len(accepted)
        if self.engine is not None:
            report.alerts = self.engine.process(accepted)
        return report
'''

MQTT_TEST = '''import json

import pytest

from telemetry_ingest.mqtt_bridge import MqttBridge
from telemetry_ingest.parsing import ParseError
from telemetry_ingest.store import InMemoryStore


def body(ts="2025-08-04T10:00:00Z", **readings):
    return json.dumps({"ts": ts, "readings": readings or {"temp": -18.5}}).encode()


def test_readings_are_stored(registry, t0):
    bridge = MqttBridge(registry, InMemoryStore())
    report = bridge.handle("acme/chicago/fz-3/up", body(temp=-18.5, hum=60), received_at=t0)
    assert report.accepted == 2
    assert {r.device_id for r in bridge.store.query()} == {"FZ-3"}


def test_unknown_device_is_rejected(registry, t0):
    bridge = MqttBridge(registry, InMemoryStore())
    report = bridge.handle("acme/chicago/zz-1/up", body(), received_at=t0)
    assert report.accepted == 0 and report.rejected == ["ZZ-1: unknown device"]


def test_bad_topic(registry, t0):
    with pytest.raises(ParseError):
        MqttBridge(registry, InMemoryStore()).handle("acme/chicago/fz-3", body(), received_at=t0)
'''

MQTT_HIDDEN = '''import json
from datetime import timedelta

from telemetry_ingest.mqtt_bridge import MqttBridge
from telemetry_ingest.store import InMemoryStore


def test_devices_on_the_bridge_show_online(registry, t0):
    bridge = MqttBridge(registry, InMemoryStore())
    payload = json.dumps({"ts": "2025-08-04T09:20:00Z", "readings": {"temp": -18.5}}).encode()
    bridge.handle("acme/chicago/fz-3/up", payload, received_at=t0)
    assert registry.status("FZ-3", now=t0 + timedelta(minutes=1)) == "online"
    assert registry.get("FZ-3").last_seen == t0


def test_rejected_readings_do_not_mark_online(registry, t0):
    bridge = MqttBridge(registry, InMemoryStore())
    payload = json.dumps({"ts": "2025-08-04T10:00:00Z", "readings": {"temp": 900}}).encode()
    bridge.handle("acme/chicago/fz-3/up", payload, received_at=t0)
    assert registry.status("FZ-3", now=t0) == "never_seen"
'''

MB = "telemetry_ingest/mqtt_bridge.py"
APPEND = "            accepted.append(reading)\n"

T13 = TaskDef(
    n=13, family="offline-status", position=1, created_at="2025-08-27 16:30", target="smallest",
    branch="feat/mqtt-bridge", base_who="marco", base_when="2025-08-26 15:40",
    base_message="MQTT bridge for devices publishing on acme/<site>/<device>/up",
    base=[write(MB, MQTT), write("tests/test_mqtt_bridge.py", MQTT_TEST)],
    problem=(
        "Devices we moved onto the MQTT bridge (FZ-3 and FZ-4 in Chicago so far) show OFFLINE in the fleet view, "
        "although their charts are live and their alerts fire normally. Devices that still post over HTTPS are "
        "fine. Some of the bridged devices publish with a delay when the broker link flaps (QoS 1 redelivery)."
    ),
    tests=[write("tests/test_mqtt_bridge_status.py", MQTT_HIDDEN)],
    f2p=["tests/test_mqtt_bridge_status.py::test_devices_on_the_bridge_show_online"],
    p2p=["tests/test_mqtt_bridge_status.py::test_rejected_readings_do_not_mark_online",
         "tests/test_mqtt_bridge.py::test_readings_are_stored", "tests/test_mqtt_bridge.py::test_unknown_device_is_rejected",
         "tests/test_mqtt_bridge.py::test_bad_topic", "tests/test_registry.py::test_status_lifecycle"],
    gold=Cand("gold", [edit(MB, APPEND, APPEND + "            self.registry.touch(reading.device_id, received_at)\n")]),
    decoys=[
        Cand("device-ts", [edit(MB, "        self.store.add(accepted)\n",
                                "        for reading in accepted:\n            self.registry.touch(reading.device_id, reading.ts)\n"
                                "        self.store.add(accepted)\n")]),
        Cand("wall-clock", [edit(MB, "from telemetry_ingest.store import InMemoryStore\n",
                                 "from telemetry_ingest.store import InMemoryStore\nfrom telemetry_ingest.timeutil import utcnow\n"),
                            edit(MB, APPEND, APPEND + "            self.registry.touch(reading.device_id, utcnow())\n")]),
        Cand("early", [edit(MB, "            problems = validate(reading, now=received_at)\n",
                            "            self.registry.touch(reading.device_id, received_at)\n"
                            "            problems = validate(reading, now=received_at)\n"),
                       edit(MB, "        report = IngestReport(skipped_fields=list(parsed.skipped))\n",
                            "        report = IngestReport(skipped_fields=list(parsed.skipped))\n        # devices count as seen as soon as they publish\n")]),
    ],
)

REPLAY = '''"""Replay a gateway's buffer dump (JSON lines, one payload per line) after an outage.

Replayed readings are historical: they are stored, but they do not raise alerts.
"""

from __future__ import annotations

from datetime import datetime

from telemetry_ingest.parsing.json_payload import parse_payload
from telemetry_ingest.pipeline import IngestPipeline, IngestReport


def replay_dump(pipeline: IngestPipeline, lines: list[str], received_at: datetime) -> IngestReport:
    report = IngestReport()
    for line in lines:
        if not line.strip():
            continue
        parsed = parse_payload(line, received_at)
        report.skipped_fields.extend(parsed.skipped)
        for reading in parsed.readings:
            kept = pipeline._screen(reading, report, received_at)
            if kept is None:
                continue
            pipeline.store.add([kept])
            report.accepted += 1
    return report
'''

REPLAY_TEST = '''import json
from datetime import timedelta

from telemetry_ingest.alerts import AlertEngine, ThresholdRule
from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.replay import replay_dump
from telemetry_ingest.store import InMemoryStore


def dump(t0, hours_back=(3, 2, 1)):
    return [
        json.dumps({"device": "HB-1", "ts": (t0 - timedelta(hours=h)).isoformat(), "readings": {"temp": 9.0}})
        for h in hours_back
    ]


def test_replay_stores_history_without_alerts(registry, t0):
    engine = AlertEngine([ThresholdRule("warm", "temperature", ">", 5.0)])
    pipe = IngestPipeline(registry, InMemoryStore(), engine=engine)
    report = replay_dump(pipe, dump(t0), received_at=t0)
    assert report.accepted == 3 and len(pipe.store) == 3
    assert report.alerts == []


def test_replay_twice_is_idempotent(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    replay_dump(pipe, dump(t0), received_at=t0)
    assert replay_dump(pipe, dump(t0), received_at=t0 + timedelta(minutes=5)).duplicates == 3
'''

REPLAY_HIDDEN = '''import json
from datetime import timedelta

from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.replay import replay_dump
from telemetry_ingest.store import InMemoryStore


def line(device, ts, **readings):
    return json.dumps({"device": device, "ts": ts.isoformat(), "readings": readings or {"temp": 9.0}})


def test_replayed_devices_are_online(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    lines = [line("HB-1", t0 - timedelta(hours=h)) for h in (3, 2, 1)] + [line("ZZ-9", t0 - timedelta(hours=1))]
    report = replay_dump(pipe, lines, received_at=t0)
    assert report.rejected == ["ZZ-9: unknown device"]
    assert registry.status("HB-1", now=t0 + timedelta(minutes=2)) == "online"
    assert registry.get("HB-1").last_seen == t0


def test_devices_without_replayed_data_stay_never_seen(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    replay_dump(pipe, [line("HB-1", t0 - timedelta(hours=1)), line("FZ-3", t0, temp=900)], received_at=t0)
    assert registry.status("FZ-3", now=t0) == "never_seen"
'''

RP = "telemetry_ingest/replay.py"

T14 = TaskDef(
    n=14, family="offline-status", position=2, created_at="2025-08-29 13:15", target="largest",
    branch="feat/gateway-replay", base_who="lena", base_when="2025-08-28 14:00",
    base_message="replay: ingest a gateway buffer dump after an outage",
    base=[write(RP, REPLAY), write("tests/test_replay.py", REPLAY_TEST)],
    problem=(
        "After gateway GW-7 at Nordfrost came back from a three-hour outage we replayed its buffer with "
        "replay_dump(). All the data is there, but the sensors behind GW-7 stayed OFFLINE in the fleet view until "
        "each of them sent its next live reading, up to 20 minutes later. Customers called in about it."
    ),
    tests=[write("tests/test_replay_status.py", REPLAY_HIDDEN)],
    f2p=["tests/test_replay_status.py::test_replayed_devices_are_online"],
    p2p=["tests/test_replay_status.py::test_devices_without_replayed_data_stay_never_seen",
         "tests/test_replay.py::test_replay_stores_history_without_alerts", "tests/test_replay.py::test_replay_twice_is_idempotent",
         "tests/test_registry.py::test_touch_never_goes_back"],
    gold=Cand("gold", [
        edit(RP, "    report = IngestReport()\n", "    report = IngestReport()\n    seen: set[str] = set()\n"),
        edit(RP, "            report.accepted += 1\n    return report\n",
             "            report.accepted += 1\n            seen.add(kept.device_id)\n"
             "    for device_id in sorted(seen):\n        pipeline.registry.touch(device_id, received_at)\n    return report\n")]),
    decoys=[
        Cand("device-ts", [edit(RP, "            report.accepted += 1\n",
                                "            report.accepted += 1\n            pipeline.registry.touch(kept.device_id, kept.ts)\n")]),
        Cand("wall-clock", [edit(RP, "from telemetry_ingest.pipeline import IngestPipeline, IngestReport\n",
                                 "from telemetry_ingest.pipeline import IngestPipeline, IngestReport\nfrom telemetry_ingest.timeutil import utcnow\n"),
                            edit(RP, "            report.accepted += 1\n",
                                 "            report.accepted += 1\n            pipeline.registry.touch(kept.device_id, utcnow())\n")]),
        Cand("early", [edit(RP, "            kept = pipeline._screen(reading, report, received_at)\n",
                            "            pipeline.registry.touch(reading.device_id, received_at)\n"
                            "            kept = pipeline._screen(reading, report, received_at)\n")]),
    ],
)

PL = "telemetry_ingest/pipeline.py"

BATCH_METHOD = '''
    def ingest_batch(self, payloads: list, received_at: datetime | None = None) -> IngestReport:
        """The /v2/batch endpoint: many payloads in one request, one report."""
        received_at = received_at or self.clock()
        report = IngestReport()
        accepted: list[Reading] = []
        for payload in payloads:
            parsed = parse_payload(payload, received_at)
            report.skipped_fields.extend(parsed.skipped)
            for reading in parsed.readings:
                kept = self._screen(reading, report, received_at)
                if kept is not None:
                    accepted.append(kept)
        self.store.add(accepted)
        report.accepted = len(accepted)
        if self.engine is not None:
            report.alerts = self.engine.process(accepted)
        return report
'''

BATCH_TEST = '''from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.store import InMemoryStore


def payload(device, ts="2025-08-04T10:00:00Z"):
    return {"device": device, "ts": ts, "readings": {"temp": -18.0}}


def test_batch_stores_everything(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    report = pipe.ingest_batch([payload("FZ-3"), payload("FZ-4"), payload("ZZ-9")], received_at=t0)
    assert report.accepted == 2 and report.rejected == ["ZZ-9: unknown device"]
'''

BATCH_HIDDEN = '''from datetime import timedelta

from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.store import InMemoryStore


def payload(device, ts):
    return {"device": device, "ts": ts, "readings": {"temp": -18.0}}


def test_batched_devices_show_online(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    batch = [payload("FZ-3", "2025-08-04T09:30:00Z"), payload("fz-4", "2025-08-04T09:58:00Z")]
    pipe.ingest_batch(batch, received_at=t0)
    for device in ("FZ-3", "FZ-4"):
        assert registry.status(device, now=t0 + timedelta(minutes=5)) == "online"
        assert registry.get(device).last_seen == t0


def test_rejected_payloads_leave_devices_alone(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    pipe.ingest_batch([{"device": "HB-1", "ts": "2025-08-04T10:00:00Z", "readings": {"temp": 900}}], received_at=t0)
    assert registry.status("HB-1", now=t0) == "never_seen"
'''

T15 = TaskDef(
    n=15, family="offline-status", position=3, created_at="2025-09-02 15:40", target="middle",
    branch="feat/batch-endpoint", base_who="marco", base_when="2025-09-01 18:00",
    base_message="pipeline: ingest_batch for the /v2/batch endpoint",
    base=[edit(PL, "\n    def ingest_csv(", BATCH_METHOD + "\n    def ingest_csv("), write("tests/test_pipeline_batch.py", BATCH_TEST)],
    problem=(
        "Customers who switched to the new batch upload API (/v2/batch, which calls IngestPipeline.ingest_batch) see "
        "all their devices as OFFLINE in the fleet view, although every upload returns accepted > 0 and the data "
        "shows up in their charts. Their gateways collect readings for a few minutes and send them in one request."
    ),
    tests=[write("tests/test_pipeline_batch_status.py", BATCH_HIDDEN)],
    f2p=["tests/test_pipeline_batch_status.py::test_batched_devices_show_online"],
    p2p=["tests/test_pipeline_batch_status.py::test_rejected_payloads_leave_devices_alone",
         "tests/test_pipeline_batch.py::test_batch_stores_everything", "tests/test_pipeline.py::test_marks_device_online",
         "tests/test_pipeline_csv.py::test_csv_upload_marks_devices_online"],
    gold=Cand("gold", [edit(PL, "                if kept is not None:\n                    accepted.append(kept)\n"
                                "        self.store.add(accepted)\n",
                            "                if kept is not None:\n                    accepted.append(kept)\n"
                            "        for kept in accepted:\n            self.registry.touch(kept.device_id, received_at)\n"
                            "        self.store.add(accepted)\n")]),
    decoys=[
        Cand("device-ts", [edit(PL, "                if kept is not None:\n                    accepted.append(kept)\n",
                                "                if kept is not None:\n                    accepted.append(kept)\n"
                                "                    self.registry.touch(kept.device_id, kept.ts)\n")]),
        Cand("clock", [edit(PL, "                if kept is not None:\n                    accepted.append(kept)\n",
                            "                if kept is not None:\n                    accepted.append(kept)\n"
                            "                    self.registry.touch(kept.device_id, self.clock())\n")]),
        Cand("latest-ts", [edit(PL, "                if kept is not None:\n                    accepted.append(kept)\n"
                                    "        self.store.add(accepted)\n",
                                "                if kept is not None:\n                    accepted.append(kept)\n"
                                "        latest: dict[str, datetime] = {}\n"
                                "        for kept in accepted:\n"
                                "            latest[kept.device_id] = max(kept.ts, latest.get(kept.device_id, kept.ts))\n"
                                "        for device_id, seen_at in latest.items():\n"
                                "            self.registry.touch(device_id, seen_at)\n"
                                "        self.store.add(accepted)\n")]),
    ],
)

LORA = '''"""Webhook for LoRaWAN uplinks forwarded by The Things Stack."""

from __future__ import annotations

import json
from datetime import datetime

from telemetry_ingest.metrics import METRICS
from telemetry_ingest.models import Reading
from telemetry_ingest.parsing.aliases import metric_for_field
from telemetry_ingest.parsing.json_payload import ParseError
from telemetry_ingest.pipeline import IngestPipeline, IngestReport
from telemetry_ingest.timeutil import parse_ts


def readings_from_uplink(body: dict, received_at: datetime) -> list[Reading]:
    try:
        device = body["end_device_ids"]["device_id"]
        uplink = body["uplink_message"]
        decoded = uplink["decoded_payload"]
        ts = parse_ts(uplink.get("settings", {}).get("time") or body["received_at"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ParseError(f"bad uplink: {exc}") from None
    out = []
    for name, value in decoded.items():
        metric = metric_for_field(name)
        if metric is None or metric not in METRICS or not isinstance(value, (int, float)):
            continue
        unit = METRICS[metric].canonical_unit
        out.append(Reading(device_id=device, metric=metric, value=float(value), unit=unit, ts=ts, received_at=received_at))
    return out


def handle_uplink(pipeline: IngestPipeline, raw: bytes, received_at: datetime) -> IngestReport:
    body = json.loads(raw)
    report = IngestReport()
    accepted: list[Reading] = []
    for reading in readings_from_uplink(body, received_at):
        kept = pipeline._screen(reading, report, received_at)
        if kept is not None:
            accepted.append(kept)
    pipeline.store.add(accepted)
    report.accepted = len(accepted)
    if pipeline.engine is not None:
        report.alerts = pipeline.engine.process(accepted)
    return report
'''

LORA_TEST = '''import json

import pytest

from telemetry_ingest.lorawan import handle_uplink, readings_from_uplink
from telemetry_ingest.parsing import ParseError
from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.store import InMemoryStore


def uplink(device="hb-1", time="2025-08-04T09:59:58Z", ns_time="2025-08-04T09:59:59Z", **decoded):
    return {
        "end_device_ids": {"device_id": device},
        "received_at": ns_time,
        "uplink_message": {"decoded_payload": decoded or {"temp": 4.5, "hum": 71}, "settings": {"time": time}},
    }


def test_uplink_readings(t0):
    readings = readings_from_uplink(uplink(), received_at=t0)
    assert sorted((r.metric, r.value) for r in readings) == [("humidity", 71.0), ("temperature", 4.5)]


def test_uplink_is_stored(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    report = handle_uplink(pipe, json.dumps(uplink()).encode(), received_at=t0)
    assert report.accepted == 2 and {r.device_id for r in pipe.store.query()} == {"HB-1"}


def test_malformed_uplink(t0):
    with pytest.raises(ParseError):
        readings_from_uplink({"end_device_ids": {}}, received_at=t0)
'''

LORA_HIDDEN = '''import json
from datetime import timedelta

from telemetry_ingest.lorawan import handle_uplink
from telemetry_ingest.pipeline import IngestPipeline
from telemetry_ingest.store import InMemoryStore


def uplink(device, time, ns_time, **decoded):
    return json.dumps({
        "end_device_ids": {"device_id": device},
        "received_at": ns_time,
        "uplink_message": {"decoded_payload": decoded or {"temp": 4.5}, "settings": {"time": time}},
    }).encode()


def test_lorawan_devices_show_online(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    handle_uplink(pipe, uplink("hb-1", "2025-08-04T09:35:00Z", "2025-08-04T09:40:00Z"), received_at=t0)
    assert registry.status("HB-1", now=t0 + timedelta(minutes=3)) == "online"
    assert registry.get("HB-1").last_seen == t0


def test_unknown_lorawan_device_is_rejected(registry, t0):
    pipe = IngestPipeline(registry, InMemoryStore())
    report = handle_uplink(pipe, uplink("zz-9", "2025-08-04T09:59:00Z", "2025-08-04T09:59:30Z"), received_at=t0)
    assert report.rejected == ["ZZ-9: unknown device"]
'''

LW = "telemetry_ingest/lorawan.py"

T16 = TaskDef(
    n=16, family="offline-status", position=4, created_at="2025-09-05 10:10", target="middle",
    branch="feat/lorawan-webhook", base_who="lena", base_when="2025-09-04 17:00",
    base_message="LoRaWAN webhook for The Things Stack uplinks",
    base=[write(LW, LORA), write("tests/test_lorawan.py", LORA_TEST)],
    problem=(
        "The LoRaWAN sensors at the Hamburg dock that we connected through The Things Stack webhook (handle_uplink) "
        "all show OFFLINE in the fleet view, even right after an uplink arrives. Readings and charts are fine. Note "
        "that The Things Stack sometimes retries webhook deliveries, so an uplink can reach us many minutes after "
        "the network server received it."
    ),
    tests=[write("tests/test_lorawan_status.py", LORA_HIDDEN)],
    f2p=["tests/test_lorawan_status.py::test_lorawan_devices_show_online"],
    p2p=["tests/test_lorawan_status.py::test_unknown_lorawan_device_is_rejected", "tests/test_lorawan.py::test_uplink_readings",
         "tests/test_lorawan.py::test_uplink_is_stored", "tests/test_lorawan.py::test_malformed_uplink"],
    gold=Cand("gold", [edit(LW, "    pipeline.store.add(accepted)\n",
                            "    for kept in accepted:\n        pipeline.registry.touch(kept.device_id, received_at)\n"
                            "    pipeline.store.add(accepted)\n")]),
    decoys=[
        Cand("device-ts", [edit(LW, "            accepted.append(kept)\n",
                                "            accepted.append(kept)\n            pipeline.registry.touch(kept.device_id, kept.ts)\n")]),
        Cand("ns-time", [edit(LW, "    pipeline.store.add(accepted)\n",
                              "    network_time = parse_ts(body[\"received_at\"])\n"
                              "    for kept in accepted:\n        pipeline.registry.touch(kept.device_id, network_time)\n"
                              "    pipeline.store.add(accepted)\n")]),
        Cand("wall-clock", [edit(LW, "from datetime import datetime\n", "from datetime import datetime, timezone\n"),
                            edit(LW, "    pipeline.store.add(accepted)\n",
                                 "    now = datetime.now(timezone.utc)\n"
                                 "    for kept in accepted:\n        pipeline.registry.touch(kept.device_id, now)\n"
                                 "    pipeline.store.add(accepted)\n")]),
    ],
)

TASKS = [T13, T14, T15, T16]
