"""Read a bank from a JSON file (``Bank.model_dump_json`` output), for suites run off the store.

Computed fields (the bank's and each memory's ``id``) are dropped before validation and checked
against the recomputed ones, so a hand-edited file cannot pass under a stale id.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from dreamer.models import Bank
from evals.errors import EvalError


def load_bank_file(path: Path) -> Bank:
    """The bank stored in ``path``; raise ``EvalError`` if it is malformed or its id is stale."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        claimed = data.pop("id", None)
        for memory in data.get("memories", []):
            memory.pop("id", None)
        bank = Bank.model_validate(data)
    except (OSError, ValueError, ValidationError) as exc:
        raise EvalError(f"{path} is not a bank file: {exc}") from exc
    if claimed and claimed != bank.id:
        raise EvalError(f"{path} claims id {claimed} but its memories hash to {bank.id}; "
                        "remove the id field or restore the memories")
    return bank
