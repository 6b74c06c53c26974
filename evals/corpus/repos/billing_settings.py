"""Family ``billing-settings-two-places``: a default changes in the code and the deployment.

The deployed service reads every setting from ``deploy/values.yaml`` (``BILLING_<KEY>``), which
overrides ``DEFAULTS`` in ``billing/settings.py``. Changing only the Python default passes the
unit tests and changes nothing in production; mirroring it in ``docker-compose.yml`` (the same
variables, for local development) changes nothing either.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from evals.corpus.repos.billing_scaffold import SETTING_DEFAULTS
from evals.corpus.spec import Decoy, Family, Rendered, Variant

# key, new value, what the request says
CHANGES: tuple[tuple[str, int, str], ...] = (
    ("invoice_due_days", 14, "Finance wants invoices due after 14 days instead of 30."),
    ("payment_retry_attempts", 5, "Card payments should be retried 5 times before we give up."),
    ("webhook_timeout_seconds", 20, "PayGate webhooks time out on big payloads; allow 20s."),
    ("dunning_grace_days", 10, "Collections asked for a 10 day grace period before dunning."),
    ("statement_day", 5, "Monthly statements should go out on the 5th, not the 1st."),
    ("max_invoice_lines", 500, "Enterprise customers need invoices with up to 500 lines."),
    ("refund_window_days", 90, "Legal extended the refund window to 90 days."),
    ("trial_days", 30, "Marketing is moving to 30 day trials."),
    ("reminder_interval_days", 2, "Payment reminders should go out every 2 days."),
    ("export_batch_size", 1000, "The finance export should page 1000 invoices at a time."),
    ("card_expiry_warning_days", 45, "Warn customers 45 days before their card expires."),
)

HIDDEN_TEST = '''import re
from pathlib import Path

from billing.settings import DEFAULTS


def test_{key}_default():
    assert DEFAULTS["{key}"] == {value}


def test_deployed_{key}_matches_default():
    values = Path(__file__).resolve().parents[1].joinpath("deploy", "values.yaml").read_text()
    deployed = re.search(r'BILLING_{upper}: "(\\d+)"', values).group(1)
    assert int(deployed) == DEFAULTS["{key}"]
'''


def _replace_setting(files: Mapping[str, str], key: str, value: int, *, code: bool,
                     deploy: bool, local: bool = False, style: int = 0) -> dict[str, str]:
    """The files a change of ``key`` to ``value`` writes. ``style`` is how the Python default
    is written: 0 in place, 1 through a named constant, 2 a named constant checked at import
    (writings of other code sizes, ``evals.corpus.sizes``; the constant's name is the key's,
    already on every candidate's changed line)."""
    changes: dict[str, str] = {}
    if code:
        name = key.upper()
        written = str(value) if style == 0 else name
        text = re.sub(rf'("{key}": )\d+,', rf"\g<1>{written},", files["billing/settings.py"])
        if style:
            check = f"if {name} <= 0:\n    raise ValueError({name})\n" if style == 2 else ""
            head = "DEFAULTS: dict[str, int] = {"
            text = text.replace(head, f"{name} = {value}\n{check}\n{head}", 1)
        changes["billing/settings.py"] = text
    env = rf'(BILLING_{key.upper()}: ")\d+(")'
    for wanted, path in ((deploy, "deploy/values.yaml"), (local, "docker-compose.yml")):
        if wanted:
            changes[path] = re.sub(env, rf"\g<1>{value}\g<2>", files[path])
    return changes


def _variant(key: str, value: int, request: str) -> Variant:
    old = dict(SETTING_DEFAULTS)[key]
    fill = dict(key=key, value=value, upper=key.upper())
    hidden_path = f"tests/test_setting_{key}.py"

    def render(files: Mapping[str, str]) -> Rendered:
        def writings(**where: bool) -> tuple[dict[str, str], ...]:
            return tuple(_replace_setting(files, key, value, code=True, style=style, **where)
                         for style in (0, 1, 2))

        gold = writings(deploy=True)
        alone, local = writings(deploy=False), writings(deploy=False, local=True)
        return Rendered(
            site={},
            gold=gold[0],
            gold_forms=gold[1:],
            gold_description=f"change {key} to {value}",
            decoys=(
                Decoy(f"change the {key} default to {value}", alone[0], alone[1:]),
                Decoy(f"change the {key} default and the environment variable to {value}",
                      local[0], local[1:]),
            ),
            hidden_tests={hidden_path: HIDDEN_TEST.format(**fill)},
            test_files=("tests/test_invoices.py", hidden_path),
            edit_path="billing/settings.py",
        )

    return Variant(
        key=key, title=f"Change {key.replace('_', ' ')} from {old} to {value}",
        problem=f"{request} Can we change it for the next release?",
        site_message="", render=render,
    )


def _review(variant: Variant, rendered: Rendered) -> str:
    return ("Review comment from @lena-b on billing/settings.py:9\n\n"
            "This only changes the Python default. Prod never sees it: the chart sets every "
            "BILLING_* variable explicitly in deploy/values.yaml and get_setting() prefers the "
            "environment. Both have to move in the same PR.")


def _defect(variant: Variant, rendered: Rendered) -> str:
    return (f"QA defect DEF-{600 + len(variant.key)} (severity: major, reporter: qa-omar)\n"
            f"Title: {variant.title} not effective on staging\n"
            "Deployed build 1.4.x to staging after the change. The pod environment still has "
            f"BILLING_{variant.key.upper()} with the old value (from the Helm values), so "
            "behaviour is unchanged. Unit tests pass because they use DEFAULTS.")


FAMILY = Family(
    id="billing-settings-two-places",
    repo="acme/billing-api",
    fact="Every billing setting lives in two places that must change together: DEFAULTS in "
         "billing/settings.py and the BILLING_<KEY> entry in deploy/values.yaml, which the "
         "deployed service reads and which overrides the default.",
    memory="A billing setting changes in two places in one change: DEFAULTS in "
           "billing/settings.py and its BILLING_<KEY> line under env in deploy/values.yaml, "
           "which the deployment reads and which overrides the default. Never change the "
           "Python default alone: it never reaches staging or production.",
    memory_type="procedural",
    identifiers=("DEFAULTS", "billing/settings.py", "deploy/values.yaml", "values.yaml"),
    conditions=("changing a default setting of billing-api",),
    module=None,
    lessons=(
        "Lesson: settings PRs touch billing/settings.py AND deploy/values.yaml.",
        "Keep in mind that the Helm values override the Python defaults, so both need editing.",
        "Note: a default that only changes in code is invisible in prod; mirror it in the "
        "deploy values.",
    ),
    review=_review,
    defect=_defect,
    variants=tuple(_variant(*change) for change in CHANGES),
    evidence=("review", "defect", "test"),
    explore=("billing/settings.py",),
)
