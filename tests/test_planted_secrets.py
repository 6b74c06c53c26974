"""Planted secrets: twenty shapes of credential printed in a session (``cat .env``, a failing
test's connection string, a review, the agent's own lesson, a curl header) reach none of the
normalised events, memories, banks, dream reports, MLflow, nor ``dreamer show``; the verbatim
file keeps them as evidence, and ``show --raw`` reads them back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from dreamer.cli import app

SECRETS = {
    "aws_key_id": "AKIAQ3EGRTYV5HJKL7MN",
    "aws_secret": "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",
    "github": "ghp_8fKq2LmN4pR7sT9vW1xY3zA5bC6dE0gH2jK4",
    "gitlab": "glpat-Xy7Kp2Lm9Qr4Tv6Wz8Bc",
    "slack": "xoxb-2481632-9641283-kP3mN7qR2sT8vW4x",
    "stripe": "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "openai": "sk-proj4Ab7Cd9Ef2Gh5Ij8KlT3BlbkFJ1Mn4Op7Qr0St3Uv6Wx",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkRyZWFtZXIifQ"
           ".Q4kX9v2Lm7Pq3Rs8Tu1Vw5Xy0Za6Bc4De",
    "db_password": "Pg-s3cr3t-Wq8Zr2",
    "basic_auth": "Tk9pLm2Qr7Sv",
    "password_flag": "Hunter2-Blue-Falcon9",
    "bearer": "a8f3K9qL2mN7pR4sT6vW1xY0zB5cD3eF",
    "api_key": "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA",
    "sendgrid": "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",
    "twilio": "SK4f1c3a9b7d2e8f6a0b5c4d3e2f1a0b9c",
    "npm": "npm_Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5",
    "mailchimp": "3f8e2a9c1b7d4e6f0a5b8c2d9e1f7a3b-us12",
    "telegram": "AAGp3Kq9Lm2Nr7Ts4Vw8Xz1Yb6Cd0Ef5Gh",
    "secret_key": "dj4ng0-5ecr3t-k3y-9vQ2wL7xZ",
    "private_key": "MIIEowIBAAKCAQEAq8Jz2XkP9mN4rT7vW1yB3dF6hK8nQ2sV5xZ0cE4gJ7",
}
S = SECRETS
ENV_FILE = "\n".join([
    f"AWS_ACCESS_KEY_ID={S['aws_key_id']}", f"AWS_SECRET_ACCESS_KEY={S['aws_secret']}",
    f"GITHUB_TOKEN={S['github']}", f"GITLAB_TOKEN={S['gitlab']}", f"SLACK_BOT={S['slack']}",
    f"STRIPE_KEY={S['stripe']}", f"OPENAI_API_KEY={S['openai']}", f"SESSION_JWT={S['jwt']}",
    f"DATABASE_URL=postgres://shop:{S['db_password']}@db:5432/shop",
    f"SENDGRID={S['sendgrid']}", f"TWILIO={S['twilio']}", f"MAILCHIMP={S['mailchimp']}",
    f"TELEGRAM=5482917364:{S['telegram']}", f'SECRET_KEY = "{S["secret_key"]}"',
    f"API_KEY={S['api_key']}",
])


PYTEST = "pytest tests/test_export.py"


def _session() -> str:
    events = [
        ("message", "user", "Exports fail against the staging database; fix export_orders().",
         {}),
        ("command", "assistant", "cat .env", {"command": "cat .env"}),
        ("observation", "environment", ENV_FILE, {"exit_code": 0, "cause": 1}),
        ("command", "assistant", PYTEST, {"command": PYTEST}),
        ("test_result", "environment",
         f"E   ConnectionError: postgres://shop:{S['db_password']}@db:5432/shop refused\n"
         "FAILED tests/test_export.py::test_export_orders - ConnectionError\n1 failed in 0.3s",
         {"exit_code": 1, "cause": 3, "runner": "pytest", "summary": {"failed": 1},
          "tests": [{"test_id": "tests/test_export.py::test_export_orders",
                     "outcome": "failed"}]}),
        ("command", "assistant",
         f"curl -H 'Authorization: Bearer {S['bearer']}' https://deploy:{S['basic_auth']}"
         "@git.example.com/acme/shop.git",
         {"command": "curl ..."}),
        ("observation", "environment",
         f"-----BEGIN RSA PRIVATE KEY-----\n{S['private_key']}\n-----END RSA PRIVATE KEY-----",
         {"exit_code": 0, "cause": 5}),
        ("command", "assistant", f"mysql --password {S['password_flag']} shop -e 'select 1'",
         {"command": f"mysql --password {S['password_flag']} shop"}),
        ("observation", "environment", f"//registry.npmjs.org/:_authToken={S['npm']}",
         {"exit_code": 0, "cause": 7}),
        ("edit", "assistant", "edit src/shop/export.py", {
            "paths": ["src/shop/export.py"],
            "diff": "--- a/src/shop/export.py\n+++ b/src/shop/export.py\n@@ -3,1 +3,1 @@\n"
                    "-    conn = connect(URL)\n+    conn = connect(URL, sslmode='require')\n"}),
        ("command", "assistant", PYTEST, {"command": PYTEST}),
        ("test_result", "environment", "1 passed in 0.2s",
         {"exit_code": 0, "cause": 10, "runner": "pytest", "summary": {"passed": 1},
          "tests": [{"test_id": "tests/test_export.py::test_export_orders",
                     "outcome": "passed"}]}),
        ("review", "user", f"export_orders() must pass sslmode='require' to connect(); the "
                           f"staging token {S['github']} is rotated weekly.",
         {"author": "alice", "ref": "REVIEW-9", "paths": ["src/shop/export.py"], "line": 3}),
        ("message", "assistant",
         f"Lesson: scripts/export.sh needs STRIPE_KEY={S['stripe']} and the JWT {S['jwt']} "
         "to reach `export_orders`.", {}),
    ]
    header = {"type": "session", "format": "dreamer-session/1", "repo": "acme/shop",
              "task_id": "SHOP-9", "started_at": "2025-04-01T10:00:00Z", "outcome": "resolved"}
    records = [header, *({"type": "event", "kind": k, "role": r, "text": t, "data": d}
                         for k, r, t, d in events)]
    return "\n".join(json.dumps(r) for r in records) + "\n"


def _leaks(blob: str) -> list[str]:
    return sorted(name for name, value in SECRETS.items() if value in blob)


def _tables(url: str, skip: set[str]) -> str:
    """Every row of every table of the database at ``url`` but ``skip``, as text."""
    from sqlalchemy import create_engine, inspect

    engine = create_engine(url)
    dumped = []
    with engine.connect() as conn:
        for table in inspect(engine).get_table_names():
            if table not in skip:
                rows = conn.execute(text(f'select * from "{table}"'))
                dumped += [repr(tuple(row)) for row in rows]
    engine.dispose()
    return "\n".join(dumped)


def test_no_planted_secret_reaches_events_memories_banks_mlflow_or_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Path(str(tmp_path / "home"))
    monkeypatch.setenv("DREAMER_HOME", str(home))
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{home / 'mlflow.db'}")
    path = tmp_path / "SHOP-9.jsonl"
    path.write_text(_session())
    assert len(_leaks(path.read_text())) == 20
    runner = CliRunner()
    outputs = []

    def run(*args: str) -> str:
        done = runner.invoke(app, list(args))
        assert done.exit_code == 0, done.output
        outputs.append(done.stdout)
        return done.stdout

    ingested = json.loads(run("ingest", str(path), "--json"))
    (session_id,) = ingested["sessions"]
    run("show", "session", session_id)
    run("show", "session", session_id, "--json", "--width", "100000")
    run("sessions", "--json")
    extracted = json.loads(run("extract", "--json", "--explain"))
    assert extracted["kept"] >= 1
    run("show", "bank", "extraction", "--repo", "acme/shop", "--json")
    dreamed = json.loads(run("dream", "--bank", "extraction", "--repo", "acme/shop",
                             "-S", "embedding=tfidf", "--json"))
    run("show", "bank", dreamed["bank"], "--json")
    from dreamer.promotion import register_bank
    from dreamer.store import open_store

    store = open_store()
    register_bank(store.banks.get(dreamed["bank"]), "acme/shop")  # a bank in MLflow's registry

    assert _leaks("\n".join(outputs)) == []
    assert _leaks(_tables(store.url, skip={"blobs"})) == []
    reports = "\n".join(p.read_text() for p in (home / "dreams").glob("*.json"))
    assert reports and _leaks(reports) == []
    mlflow = [p for p in [home / "mlflow.db", *(home / "mlartifacts").rglob("*")] if p.is_file()]
    assert any(p.name == "bank.json" for p in mlflow)
    assert _leaks("\n".join(p.read_bytes().decode("utf-8", "replace") for p in mlflow)) == []
    # The evidence keeps every secret verbatim, and --raw shows them where they were printed.
    raw = store.evidence.raw(store.evidence.session(session_id).raw_sha256).decode()
    assert len(_leaks(raw)) == 20
    shown = runner.invoke(app, ["show", "session", session_id, "--raw", "--width", "100000"])
    assert shown.exit_code == 0 and len(_leaks(shown.stdout)) == 20, _leaks(shown.stdout)
