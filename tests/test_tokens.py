"""Token budgets count what litellm's token counter counts, without importing litellm."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dreamer.tokens import DEFAULT_TOKENIZER_MODEL, count_tokens

ROOT = Path(__file__).resolve().parents[1]


def _texts() -> list[str]:
    """Real texts of every kind a budget counts: memories, session lines, code, special tokens."""
    texts = ["", "a", "def f(x):\n    return x  # ünïcode ✓", "<|endoftext|> stays text",
             "  trailing spaces and\ttabs\n\n"]
    for path in sorted((ROOT / "datasets").rglob("oracle.jsonl"))[:4]:
        texts += [json.loads(line)["summary"] for line in path.read_text().splitlines() if line]
    sessions = sorted((ROOT / "datasets" / "blind").rglob("sessions/*"))[:2]
    for path in sessions:
        texts.append(path.read_text()[:20000])
    return texts


def test_counts_match_litellm_token_counter() -> None:
    os_env = pytest.importorskip("os").environ
    os_env.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from litellm import token_counter

    texts = _texts()
    assert len(texts) > 10 and any(len(t) > 10_000 for t in texts)
    for text in texts:
        expected = token_counter(model=DEFAULT_TOKENIZER_MODEL, text=text) if text else 0
        if len(text) <= 1024:
            assert count_tokens(text) == expected, text[:80]
        else:  # litellm encodes a long text in 1,024-character pieces, cutting a few tokens
            assert abs(count_tokens(text) - expected) <= 0.01 * expected, text[:80]


def test_counting_does_not_import_litellm() -> None:
    code = ("import sys; from dreamer.tokens import count_tokens; n = count_tokens('hello world');"
            " print(n, 'litellm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.split()
    assert out == ["2", "False"]
