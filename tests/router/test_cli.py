"""``dreamer recall`` and ``dreamer feedback`` on a stored production bank."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from dreamer.cli import app
from dreamer.router import observations
from dreamer.store import open_store


def test_recall_prints_the_pack_and_json_and_feedback_is_recorded(
    mem, cite, bank, checkout: Path, orders_lines: list[str]
) -> None:
    m = mem("parse_order raises KeyError when the tax field is missing",
            citations=[cite("src/orders.py", orders_lines, 3, 4)])
    stored = bank(m, mem("orders in another repository", repo="acme/other"))
    store = open_store()
    store.banks.put(stored)
    store.banks.move_alias("production", stored.id, repo="acme/shop")
    runner = CliRunner()

    text = runner.invoke(app, ["recall", "parse_order tax", "--repo", "acme/shop",
                               "--no-embeddings", "--budget", "100", "--checkout", str(checkout)])
    assert text.exit_code == 0, text.output
    assert "- [failure] parse_order raises KeyError" in text.output

    out = runner.invoke(app, ["recall", "parse_order tax", "--repo", "acme/shop", "--json",
                              "--no-embeddings", "--bank", stored.id[:12]])
    assert out.exit_code == 0, out.output
    payload = json.loads(out.stdout)
    assert [x["id"] for x in payload["memories"]] == [m.id] and payload["tokens"] <= 10_000

    fed = runner.invoke(app, ["feedback", m.id, "--repo", "acme/shop", "--hurt", "--task", "t9"])
    assert fed.exit_code == 0, fed.output
    assert observations(store, [m.id])[m.id].hurt == 1

    missing = runner.invoke(app, ["recall", "x", "--repo", "acme/none", "--no-embeddings"])
    assert missing.exit_code == 1 and "production" in missing.output
    store.close()
