"""Family ``billing-integration-sandbox``: PayGate URLs follow the integration switch.

The integration suite only runs as ``make integration``, which sets ``BILLING_INTEGRATION=1``;
plain ``pytest`` skips it. Under that variable ``gateway_url()`` points at the sandbox. A client
with a hard-coded host passes every unit test and fails the integration run (or, hard-coded to
the sandbox, sends production traffic to the sandbox).
"""

from __future__ import annotations

from collections.abc import Mapping

from evals.corpus.sizes import guard_writings, with_local
from evals.corpus.spec import Decoy, Family, Rendered, Variant

# module, function, endpoint, signature args, payload, what the issue calls it
SITES: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("refunds", "issue_refund", "refunds", "invoice_id: str, amount_cents: int",
     '{"invoice": invoice_id, "amount": amount_cents}', "refunds"),
    ("voids", "void_invoice", "voids", "invoice_id: str",
     '{"invoice": invoice_id}', "voided invoices"),
    ("captures", "capture_payment", "captures", "authorisation_id: str",
     '{"authorisation": authorisation_id}', "captured payments"),
    ("customers", "create_customer", "customers", "email: str",
     '{"email": email}', "new customers"),
    ("cards", "update_card", "cards", "customer_id: str, card_token: str",
     '{"customer": customer_id, "token": card_token}', "card updates"),
    ("subscriptions", "cancel_subscription", "subscriptions/cancel", "subscription_id: str",
     '{"subscription": subscription_id}', "subscription cancellations"),
    ("payouts", "request_payout", "payouts", "account_id: str, amount_cents: int",
     '{"account": account_id, "amount": amount_cents}', "payout requests"),
    ("disputes", "submit_dispute_evidence", "disputes/evidence", "dispute_id: str, note: str",
     '{"dispute": dispute_id, "note": note}', "dispute evidence"),
    ("mandates", "create_mandate", "mandates", "customer_id: str, iban: str",
     '{"customer": customer_id, "iban": iban}', "SEPA mandates"),
    ("webhooks", "register_webhook", "webhooks", "callback_url: str",
     '{"url": callback_url}', "webhook registrations"),
    ("credit_notes", "issue_credit_note", "credit-notes", "invoice_id: str, amount_cents: int",
     '{"invoice": invoice_id, "amount": amount_cents}', "credit notes"),
)

PROBLEMS = (
    "QA can't find the {what} we create during the release check in PayGate's test dashboard. "
    "Everything else from the release check shows up there.",
    "The release checklist step for {what} fails: nothing appears on the PayGate side during "
    "the check, although the unit tests are green.",
    "{What} made during release testing never reach PayGate's test account. Please fix before "
    "Friday's release.",
)

MODULE = '''"""{doc}"""

from __future__ import annotations

{imports}from billing.http import Transport, default_transport
{constant}

def {func}({args}, transport: Transport | None = None) -> dict:
    """Send the request to PayGate and return its answer."""
    transport = transport or default_transport()
    return transport.post({url}, {payload})
'''

HIDDEN_TEST = '''from billing.http import RecordingTransport
from billing.{module} import {func}


def test_{func}_targets_sandbox_in_integration_runs(monkeypatch):
    monkeypatch.setenv("BILLING_INTEGRATION", "1")
    transport = RecordingTransport()
    {func}({call_args}, transport=transport)
    assert transport.calls[0].url == "https://sandbox.paygate.example.com/v2/{endpoint}"


def test_{func}_targets_production_by_default(monkeypatch):
    monkeypatch.delenv("BILLING_INTEGRATION", raising=False)
    transport = RecordingTransport()
    {func}({call_args}, transport=transport)
    assert transport.calls[0].url == "https://api.paygate.example.com/v2/{endpoint}"
'''

VISIBLE_TEST = '''from billing.http import RecordingTransport
from billing.{module} import {func}


def test_{func}_sends_payload():
    transport = RecordingTransport()
    assert {func}({call_args}, transport=transport) == {{"ok": True}}
    assert transport.calls[0].payload == {expected}
'''


EXPLICIT = "    if transport is None:\n        transport = default_transport()\n"
"""The transport fallback written as a test (three code lines more than the ``or``)."""


def _writings(text: str, func: str, first: str) -> tuple[str, ...]:
    """Other writings of a client: a guard on its first argument, the transport fallback as an
    explicit test, both (``evals.corpus.sizes``)."""
    explicit = text.replace("    transport = transport or default_transport()\n", EXPLICIT)
    guard = f"if not {first}:\n    raise ValueError({first})"
    return (*guard_writings(text, func, [guard]), *guard_writings(explicit, func, [guard]))


def _call_args(args: str) -> str:
    names = [part.split(":")[0].strip() for part in args.split(",")]
    return ", ".join("1500" if name.endswith("cents") else f'"{name}-1"' for name in names)


def _variant(index: int, site: tuple[str, str, str, str, str, str]) -> Variant:
    module, func, endpoint, args, payload, what = site
    const = f"{module.upper()}_URL"
    call_args = _call_args(args)
    expected = payload
    for name in [part.split(":")[0].strip() for part in args.split(",")]:
        expected = expected.replace(f": {name}", ": 1500" if name.endswith("cents")
                                    else f': "{name}-1"')
    fill = dict(module=module, func=func, endpoint=endpoint, args=args, payload=payload,
                call_args=call_args, expected=expected,
                doc=f"{what[0].upper()}{what[1:]} through PayGate.")
    path, test_path = f"billing/{module}.py", f"tests/test_{module}.py"
    hidden_path = f"tests/test_{module}_endpoints.py"

    def module_with(constant: str, url: str, imports: str = "") -> str:
        return MODULE.format(constant=constant, url=url, imports=imports, **fill)

    def hosted(value: str) -> str:
        return f'\n{const} = {value}\n'

    prod = f'"https://api.paygate.example.com/v2/{endpoint}"'
    sandbox = f'"https://sandbox.paygate.example.com/v2/{endpoint}"'

    first = args.split(":")[0].strip()

    def writings(text: str, local: str = "") -> tuple[dict[str, str], ...]:
        texts = _writings(text, func, first)
        if local:  # the URL named before the call: one line more
            texts += _writings(with_local(text, local, "url"), func, first)
        return tuple({path: t} for t in texts)

    def render(files: Mapping[str, str]) -> Rendered:
        del files
        gold = writings(module_with("", f'gateway_url("{endpoint}")',
                                    "from billing.gateway import gateway_url\n"),
                        local=f'gateway_url("{endpoint}")')
        sandboxed = writings(module_with(hosted(sandbox), const))
        configurable = writings(module_with(hosted(f'os.environ.get("PAYGATE_URL", {prod})'),
                                            const, "import os\n\n"))
        return Rendered(
            site={path: module_with(hosted(prod), const),
                  test_path: VISIBLE_TEST.format(**fill)},
            gold=gold[0],
            gold_forms=gold[1:],
            gold_description="build the URL with the gateway helper",
            decoys=(
                Decoy("point the endpoint at PayGate's sandbox host", sandboxed[0],
                      sandboxed[1:]),
                Decoy("make the PayGate URL configurable through the environment",
                      configurable[0], configurable[1:]),
            ),
            hidden_tests={hidden_path: HIDDEN_TEST.format(**fill)},
            test_files=(test_path, hidden_path),
            edit_path=path,
        )

    return Variant(
        key=module, title=f"{what[0].upper()}{what[1:]} missing from PayGate during release checks",
        problem=PROBLEMS[index % len(PROBLEMS)].format(what=what, What=what[0].upper() + what[1:]),
        site_message=f"feat: {what} via PayGate ({func})", render=render,
    )


def _review(variant: Variant, rendered: Rendered) -> str:
    return (f"Review comment from @lena-b on {rendered.edit_path}:8\n\n"
            "> \"https://sandbox.paygate.example.com/...\"\n\n"
            "This would send production traffic to the sandbox. The host has to follow "
            "BILLING_INTEGRATION (that's what `make integration` sets; a bare pytest run skips "
            "tests/integration, which is why CI looked green). billing/gateway.py already "
            "knows how to pick the host.")


def _defect(variant: Variant, rendered: Rendered) -> str:
    return (f"QA defect DEF-{500 + len(variant.key)} (severity: major, reporter: qa-omar)\n"
            f"Title: {variant.title}\n"
            "Release check run with `make integration` (BILLING_INTEGRATION=1). The request "
            "went to api.paygate.example.com (production) instead of the sandbox host; the "
            "sandbox dashboard shows nothing. Plain `pytest` is green because it skips the "
            "integration suite.")


FAMILY = Family(
    id="billing-integration-sandbox",
    repo="acme/billing-api",
    fact="The integration suite runs only through `make integration` (BILLING_INTEGRATION=1; "
         "plain pytest skips it), and PayGate URLs must come from gateway_url() so that they "
         "follow that variable; hard-coded hosts break either integration or production.",
    memory="Integration checks only run via `make integration`, which sets "
           "BILLING_INTEGRATION=1 (plain pytest skips tests/integration). Outbound endpoint URLs "
           "must be built with gateway_url(endpoint) from billing/gateway.py, which picks the host "
           "from BILLING_INTEGRATION; never a literal PayGate host (sandbox or api) or a new "
           "environment variable, which break production or the integration run.",
    memory_type="procedural",
    identifiers=("make integration", "BILLING_INTEGRATION", "gateway_url", "billing/gateway.py"),
    conditions=("adding or changing an outbound payment-provider call",
                "verifying billing changes"),
    module="billing",
    lessons=(
        "Remember: green pytest means nothing for PayGate code, run `make integration` "
        "(BILLING_INTEGRATION=1) and let gateway_url pick the host.",
        "Lesson: never hard-code the PayGate host; the helper follows the integration flag.",
        "Note to self: integration suite is opt-in via BILLING_INTEGRATION=1, and URLs come "
        "from billing/gateway.py.",
    ),
    review=_review,
    defect=_defect,
    variants=tuple(_variant(i, site) for i, site in enumerate(SITES)),
    explore=("Makefile", "billing/gateway.py"),
)
