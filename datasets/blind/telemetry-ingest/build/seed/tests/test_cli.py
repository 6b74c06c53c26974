import json

import pytest

from telemetry_ingest.cli import main


@pytest.fixture
def files(tmp_path):
    devices = tmp_path / "devices.json"
    devices.write_text(json.dumps([{"device_id": "FZ-3", "site": "chicago"}]))
    payloads = tmp_path / "payloads.jsonl"
    payloads.write_text(
        json.dumps({"device": "FZ-3", "ts": "2025-08-04T10:00:00Z", "readings": {"temp": -18}}) + "\n"
    )
    return devices, payloads


def test_ingest_requires_api_key(files, monkeypatch, capsys):
    monkeypatch.delenv("INGEST_API_KEY", raising=False)
    devices, payloads = files
    assert main(["ingest", str(payloads), "--devices", str(devices)]) == 2
    assert "INGEST_API_KEY" in capsys.readouterr().err


def test_ingest_and_export(files, monkeypatch, capsys):
    monkeypatch.setenv("INGEST_API_KEY", "test-key")
    devices, payloads = files
    assert main(["ingest", str(payloads), "--devices", str(devices), "--export", "csv"]) == 0
    out = capsys.readouterr().out
    assert "accepted 1 readings" in out
    assert "FZ-3,temperature,-18,C,2025-08-04T10:00:00Z" in out


@pytest.mark.slow
def test_ingest_many_payloads(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("INGEST_API_KEY", "test-key")
    devices = tmp_path / "devices.json"
    devices.write_text(json.dumps([{"device_id": f"D-{i}", "site": "s"} for i in range(50)]))
    payloads = tmp_path / "payloads.jsonl"
    lines = [
        json.dumps({"device": f"D-{i % 50}", "ts": 1754301600 + i, "readings": {"temp": 20, "hum": 40}})
        for i in range(5000)
    ]
    payloads.write_text("\n".join(lines) + "\n")
    assert main(["ingest", str(payloads), "--devices", str(devices)]) == 0
    assert "accepted 10000 readings" in capsys.readouterr().out
