"""Redaction: every kind of planted secret becomes a typed placeholder; code facts stay."""

from __future__ import annotations

import pytest

from dreamer.extract.secrets import redact


@pytest.mark.parametrize(
    ("text", "secret", "placeholder"),
    [
        (
            "export AWS_ACCESS_KEY_ID=AKIAZ7QW3ERTY5UIOP2X",
            "AKIAZ7QW3ERTY5UIOP2X",
            "<REDACTED:AWS_KEY>",
        ),
        (
            "GITHUB_TOKEN=ghp_R7d9Kq2LmX4vB8nT1pZ6wY3sH0jF5gC2aE9u ok",
            "ghp_R7d9Kq2LmX4vB8nT1pZ6wY3sH0jF5gC2aE9u",
            "<REDACTED:GITHUB_TOKEN>",
        ),
        ("password: Tr0ub4dor-horse-77", "Tr0ub4dor-horse-77", "<REDACTED:PASSWORD>"),
        ('DB_PASSWORD="s3cr3t-pAss-w0rd"', "s3cr3t-pAss-w0rd", "<REDACTED:PASSWORD>"),
        ("mysql --password s3cr3tpw -u root", "s3cr3tpw", "<REDACTED:PASSWORD>"),
        (
            "connecting to postgres://shop:Sup3rS3cret@db:5432/shop",
            "Sup3rS3cret",
            "<REDACTED:CONNECTION_STRING>",
        ),
        (
            "STRIPE_KEY=sk_live_51HqLyjWDarjtT1zdp7dcZq9X",
            "sk_live_51HqLyjWDarjtT1zdp7dcZq9X",
            "<REDACTED:STRIPE_ACCESS_KEY>",
        ),
        ("export API_TOKEN=abcd1234efgh", "abcd1234efgh", "<REDACTED:SECRET>"),
        (
            "key sk-proj-Xy7Qa2Lm9Pz4Rt8Vb1Nc6Kd3Wf5Gh0Js",
            "sk-proj-Xy7Qa2Lm9Pz4Rt8Vb1Nc6Kd3Wf5Gh0Js",
            "<REDACTED:HIGH_ENTROPY>",
        ),
    ],
)
def test_secret_is_replaced_by_a_typed_placeholder(
    text: str, secret: str, placeholder: str
) -> None:
    result = redact(text)
    assert secret not in result.text
    assert placeholder in result.text
    assert result.count == 1


def test_a_private_key_block_goes_whole() -> None:
    text = (
        "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn\n"
        "-----END RSA PRIVATE KEY-----\nok"
    )
    result = redact(text)
    assert result.text == "key:\n<REDACTED:PRIVATE_KEY>\nok"


@pytest.mark.parametrize(
    "text",
    [
        "FAILED tests/test_orders.py::test_status_is_legacy_code - AssertionError: assert 2 == 20",
        "row.status = LEGACY_STATUS_CODES[order.status]  # never the enum ordinal",
        "commit 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
        "SHOP_INTEGRATION=1 pytest tests/integration -q",
        "SECRET_KEY = os.environ['SECRET_KEY']",
        "The password must be rotated every 90 days.",
        "def test_payment_reserves_stock_and_creates_fulfilment_v2():",
    ],
)
def test_code_facts_are_left_alone(text: str) -> None:
    assert redact(text).text == text


def test_redaction_is_idempotent() -> None:
    once = redact("GITHUB_TOKEN=ghp_R7d9Kq2LmX4vB8nT1pZ6wY3sH0jF5gC2aE9u").text
    again = redact(once)
    assert again.text == once and again.count == 0
