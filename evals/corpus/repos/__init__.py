"""The corpus's repositories: three service repositories written for it and toolz from PyPI."""

from __future__ import annotations

from pathlib import Path

from evals.corpus.repos import (
    billing_gateway,
    billing_scaffold,
    billing_settings,
    parcels_catalog,
    parcels_scaffold,
    parcels_scans,
    parcels_weights,
    shop_money,
    shop_payment,
    shop_scaffold,
    shop_status,
    toolz_sentinels,
    toolz_source,
)
from evals.corpus.repos.chores import BILLING_CHORES, PARCELS_CHORES, SHOP_CHORES, TOOLZ_CHORES
from evals.corpus.spec import RepoPlan


def repo_plans(cache: Path) -> tuple[RepoPlan, ...]:
    """Every repository of the corpus; ``cache`` holds downloaded third-party archives."""
    return (
        RepoPlan(
            name="acme/shop-orders", kind="service", scaffold=shop_scaffold.scaffold,
            authors=("Dana Kowalski <dana@acme.example>", "Sam Okafor <sam@acme.example>"),
            reviewers=("dkowalski", "priya-n", "tomasz"),
            families=(shop_status.FAMILY, shop_payment.FAMILY, shop_money.FAMILY),
            chores=SHOP_CHORES, start="2024-02-05",
        ),
        RepoPlan(
            name="acme/billing-api", kind="service", scaffold=billing_scaffold.scaffold,
            authors=("Lena Brandt <lena@acme.example>", "Omar Haddad <omar@acme.example>"),
            reviewers=("lena-b", "omar-h"),
            families=(billing_gateway.FAMILY, billing_settings.FAMILY),
            chores=BILLING_CHORES, start="2024-02-12",
        ),
        RepoPlan(
            name="acme/parcels", kind="service", scaffold=parcels_scaffold.scaffold,
            authors=("Ines Duarte <ines@acme.example>", "Jonas Vermeulen <jonas@acme.example>"),
            reviewers=("ines-d", "jvermeulen"),
            families=(parcels_weights.FAMILY, parcels_scans.FAMILY, parcels_catalog.FAMILY),
            chores=PARCELS_CHORES, start="2024-02-19",
        ),
        RepoPlan(
            name="pytoolz/toolz", kind="third-party",
            scaffold=lambda: toolz_source.sdist_files(toolz_source.fetch_sdist(cache)),
            authors=("Corpus Builder <corpus@dreamer.example>",),
            reviewers=("eriknw",), families=(toolz_sentinels.FAMILY,), chores=TOOLZ_CHORES,
            start="2024-03-04",
            license="BSD-3-Clause (toolz, Copyright (c) 2013 Matthew Rocklin)",
            origin=f"PyPI sdist {toolz_source.TOOLZ_SDIST} sha256 {toolz_source.TOOLZ_SHA256}",
        ),
    )
