"""The comparison table as a terminal shows it."""

from __future__ import annotations

import math

import pandas as pd

from evals.compare import display_rows


def test_a_missing_lift_is_explained_on_bank_rows_only() -> None:
    table = pd.DataFrame([
        {"strategy": "default", "agent": "selector", "active_tokens": 705,
         "success@256": 0.12, "success@all": 0.19, "lift@256": 0.06, "lift_low@256": 0.0,
         "lift_high@256": 0.19, "lift_p@256": 0.5, "lift@all": math.nan, "lift_low@all": math.nan,
         "lift_high@all": math.nan, "lift_p@all": math.nan, "auc": 0.09, "leaks": 0},
        {"strategy": "(largest)", "agent": "selector", "active_tokens": 0,
         "success@256": 0.25, "success@all": 0.25, "lift@256": math.nan, "auc": 0.25,
         "leaks": math.nan},
    ])
    header, rows = display_rows(table)
    assert header == ["strategy", "agent", "tokens", "@256", "@all", "lift@256", "lift@all",
                      "area", "leaks"]
    assert rows[0][5:7] == ["+0.06 [+0.00,+0.19] p=0.5", "no placebo"]
    assert rows[1][5:7] == ["", ""] and rows[1][-1] == ""
