"""The four facts, their sessions, and each written as an oracle memory."""

from __future__ import annotations

from common import REPO

FAMILY_ORDER = ["export-ts-precision", "alert-units", "add-metric", "offline-status"]


def facts(history) -> list[dict]:
    rule_sha = history.shas["rule_change"]
    return [
        {
            "family": "export-ts-precision",
            "fact": (
                "Every timestamp an export writes (readings CSV/JSONL, the export manifest, the daily summary and any "
                "new file under telemetry_ingest/exports/) has millisecond precision: format_ts(dt, millis=True), "
                "e.g. 2025-08-04T10:00:01.480Z. Until the 18 Aug 2025 commit the rule was whole seconds "
                "(format_ts(dt), e.g. 2025-08-04T10:00:01Z); it changed because the warehouse de-duplicates and "
                "range-checks on these timestamps. format_ts() still defaults to whole seconds, so a new export that "
                "calls it without millis=True is wrong."
            ),
            "identifiers": ["format_ts", "millis=True"],
            "kind": "rule_change",
            "sessions": ["s02-csv-received-at", "s11-export-manifest", "s12-manifest-review"],
            "superseded": {
                "old": "export timestamps are whole-second UTC: format_ts(dt) -> 2025-08-04T10:00:01Z",
                "new": "export timestamps are millisecond UTC: format_ts(dt, millis=True) -> 2025-08-04T10:00:01.480Z",
                "commit": rule_sha,
            },
        },
        {
            "family": "alert-units",
            "fact": (
                "Alert rules (telemetry_ingest/alerts/) work on canonical values: each reading is converted with "
                "units.to_canonical(value, unit) before it is compared with a threshold (thresholds are configured "
                "in canonical units: C, kPa, %RH, V, ...), and the Alert carries the canonical value. This is not true "
                "of exports (telemetry_ingest/exports/): they write value and unit exactly as the device reported "
                "them, and converting there is a defect (QA-118)."
            ),
            "identifiers": ["to_canonical"],
            "kind": "module_only",
            "sessions": ["s04-band-rule", "s06-daily-summary", "s08-qa-118-summary-units"],
            "module": "telemetry_ingest/alerts",
        },
        {
            "family": "add-metric",
            "fact": (
                "Adding a metric takes three steps: a MetricSpec in METRICS (telemetry_ingest/metrics.py); every "
                "firmware field name mapped to it in FIELD_ALIASES (telemetry_ingest/parsing/aliases.py), otherwise "
                "parse_payload silently skips the field; and schema/readings.schema.json regenerated with "
                "`python -m telemetry_ingest.tools.schemagen --write` (tests/test_schema_sync.py compares it byte "
                "for byte, so it is not hand-edited)."
            ),
            "identifiers": ["MetricSpec", "FIELD_ALIASES", "python -m telemetry_ingest.tools.schemagen --write"],
            "kind": "procedure",
            "sessions": ["s03-co2-metric", "s07-pm25-metric", "s13-soil-moisture-metric"],
        },
        {
            "family": "offline-status",
            "fact": (
                "When devices show OFFLINE in the fleet view/dashboard although their data arrives, an ingestion "
                "path is not calling DeviceRegistry.touch(): the status is DeviceRegistry.status() "
                "(telemetry_ingest/devices/registry.py, before 19 Aug 2025 telemetry_ingest/registry.py), computed "
                "only from last_seen against OFFLINE_AFTER, and only touch() moves last_seen (SUP-231, #52). "
                "touch() must be given the server receive time received_at of the accepted readings — not the "
                "reading's device timestamp ts (buffered or delayed readings are older) and not the wall clock."
            ),
            "identifiers": ["DeviceRegistry.touch", "DeviceRegistry.status", "received_at"],
            "kind": "linked",
            "sessions": ["s05-offline-ticket", "s09-issue-52-last-seen"],
        },
    ]


def memories(history) -> list[dict]:
    ends = {s.instance_id: s.ended_at for s in history.sessions}
    rule_sha = history.shas["rule_change"]

    def sessions(*ids):
        return [{"kind": "session", "ref": i} for i in ids]

    return [
        {
            "type": "domain",
            "scope": {"repo": REPO},
            "summary": (
                "Exports write every timestamp with millisecond precision via format_ts(dt, millis=True) "
                "(2025-08-04T10:00:01.480Z). This replaced the earlier whole-second rule (plain format_ts(dt)) on "
                "18 Aug 2025; format_ts still defaults to whole seconds, so new exports must pass millis=True."
            ),
            "conditions": ["adding or changing a timestamp column/field in an export or export manifest",
                           "symptoms: warehouse merges or rejects rows, timestamps don't line up between export files"],
            "citations": [*sessions("s02-csv-received-at", "s11-export-manifest", "s12-manifest-review"),
                          {"kind": "commit", "ref": rule_sha},
                          {"kind": "file", "ref": "telemetry_ingest/timeutil.py", "path": "telemetry_ingest/timeutil.py"},
                          {"kind": "file", "ref": "telemetry_ingest/exports/csv_export.py",
                           "path": "telemetry_ingest/exports/csv_export.py"}],
            "created_at": ends["s12-manifest-review"],
        },
        {
            "type": "domain",
            "scope": {"repo": REPO, "module": "telemetry_ingest/alerts"},
            "summary": (
                "Alert rules convert each reading with to_canonical(value, unit) before comparing it with the rule's "
                "threshold (thresholds are in canonical units) and put the canonical value in the Alert. Only in "
                "telemetry_ingest/alerts: exports keep the value and unit the device reported and must not convert "
                "(QA-118)."
            ),
            "conditions": ["writing or fixing an alert rule", "devices that report °F, hPa, mbar, psi, mV or ratios",
                           "not for exports: they keep reported units"],
            "citations": [*sessions("s04-band-rule", "s06-daily-summary", "s08-qa-118-summary-units"),
                          {"kind": "file", "ref": "telemetry_ingest/alerts/rules.py", "path": "telemetry_ingest/alerts/rules.py"},
                          {"kind": "file", "ref": "telemetry_ingest/units.py", "path": "telemetry_ingest/units.py"}],
            "created_at": ends["s08-qa-118-summary-units"],
        },
        {
            "type": "procedural",
            "scope": {"repo": REPO},
            "summary": (
                "To add a metric: (1) add a MetricSpec to METRICS in telemetry_ingest/metrics.py; (2) map each "
                "firmware field name to it in FIELD_ALIASES (telemetry_ingest/parsing/aliases.py) or the parser "
                "skips the field; (3) run `python -m telemetry_ingest.tools.schemagen --write` to regenerate "
                "schema/readings.schema.json (checked byte for byte by tests/test_schema_sync.py; never hand-edit)."
            ),
            "conditions": ["supporting a new sensor type or metric", "a payload field is reported as skipped",
                           "the published schema is missing a metric"],
            "citations": [*sessions("s03-co2-metric", "s07-pm25-metric", "s13-soil-moisture-metric"),
                          {"kind": "file", "ref": "telemetry_ingest/metrics.py", "path": "telemetry_ingest/metrics.py"},
                          {"kind": "file", "ref": "telemetry_ingest/parsing/aliases.py", "path": "telemetry_ingest/parsing/aliases.py"},
                          {"kind": "file", "ref": "telemetry_ingest/tools/schemagen.py", "path": "telemetry_ingest/tools/schemagen.py"}],
            "created_at": ends["s13-soil-moisture-metric"],
        },
        {
            "type": "failure",
            "scope": {"repo": REPO},
            "summary": (
                "Devices shown OFFLINE while their data arrives: the status is DeviceRegistry.status(), based only on "
                "last_seen, which only DeviceRegistry.touch() updates; some ingestion path doesn't call it (SUP-231, "
                "#52). Call touch(device_id, received_at) for accepted readings, with the server receive time "
                "received_at, not the reading's device ts and not the wall clock."
            ),
            "conditions": ["devices show OFFLINE / never seen although readings are stored",
                           "adding a new ingestion path (bridge, webhook, replay, batch endpoint)"],
            "citations": [*sessions("s05-offline-ticket", "s09-issue-52-last-seen"),
                          {"kind": "file", "ref": "telemetry_ingest/devices/registry.py",
                           "path": "telemetry_ingest/devices/registry.py"},
                          {"kind": "file", "ref": "telemetry_ingest/pipeline.py", "path": "telemetry_ingest/pipeline.py"}],
            "created_at": ends["s09-issue-52-last-seen"],
        },
    ]
