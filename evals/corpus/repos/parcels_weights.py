"""Family ``parcels-weight-units``: one rule per package (the ``specialization`` stage's case).

In ``parcels/rating`` a scale reading becomes whole grams through ``to_grams`` (Decimal, every
started gram counted, as the carriers bill). In the sibling ``parcels/customs`` the same reading
stays kilograms with three decimals through ``declared_kg`` (half-up, at least 0.001): the CN23
net weight. Tasks alternate between the two packages. In customs the naive generalisation of
the rating rule (``to_grams``) is a decoy; in rating the float conversions are. The oracle is
two memories, each scoped to its package.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from evals.corpus.sizes import guard_writings, with_guard
from evals.corpus.spec import Decoy, Fact, Family, Rendered, Variant

RATING_HELPER = "parcels/rating/units.py"
CUSTOMS_HELPER = "parcels/customs/units.py"


@dataclass(frozen=True)
class Site:
    package: str
    """``rating`` or ``customs``."""
    module: str
    func: str
    name: str
    """The carrier (rating) or the kind of goods (customs), as the issue names them."""
    extra: str
    """Rating: the band prices; customs: the CN23 category."""


SITES: tuple[Site, ...] = (
    Site("rating", "dhl", "dhl_quote", "DHL", "495, 595, 795, 1095, 1695"),
    Site("customs", "gifts", "declare_gift", "gifts", "gift"),
    Site("rating", "postnl", "postnl_quote", "PostNL", "450, 550, 750, 995, 1595"),
    Site("customs", "samples", "declare_sample", "commercial samples", "commercial_sample"),
    Site("customs", "documents", "declare_documents", "document shipments", "documents"),
    Site("rating", "gls", "gls_quote", "GLS", "425, 525, 725, 975, 1495"),
    Site("customs", "returns", "declare_return", "returned goods", "returned_goods"),
    Site("rating", "dpd", "dpd_quote", "DPD", "470, 570, 770, 1050, 1650"),
    Site("customs", "merchandise", "declare_merchandise", "sales of goods", "sale_of_goods"),
    Site("rating", "ups", "ups_quote", "UPS", "510, 610, 830, 1150, 1750"),
    Site("customs", "repairs", "declare_repair", "goods sent back after repair", "repair"),
    Site("rating", "bpost", "bpost_quote", "bpost", "440, 540, 740, 990, 1550"),
)

RATING_PROBLEMS = (
    "{name}'s monthly invoice is higher than our quotes for a handful of parcels: {name} bills "
    "them in the next weight band.",
    "Finance flagged {name} parcels where our quote is one band cheaper than the carrier's "
    "invoice line. Only a few parcels, all close to a band limit.",
    "Some {name} parcels are quoted too cheap: the carrier charges the next band for them.",
)
CUSTOMS_PROBLEMS = (
    "The customs broker rejects some of our declarations for {name} with 'net weight invalid'.",
    "CN23 lines for {name} bounce at the broker ('invalid net weight'). Not all of them.",
    "Customs declarations of {name} are refused by the broker for their net weight field.",
)

RATING_MODULE = '''"""{name} rates."""

from __future__ import annotations

{stdlib}from parcels.rating.bands import Quote, quote
{local}
BANDS = ((1000, {p1}), (2000, {p2}), (5000, {p3}), (10000, {p4}), (31500, {p5}))


def {func}(weight_kg: str) -> Quote:
    """{name}'s price for a parcel; ``weight_kg`` is the scale's reading."""
    grams = {expr}
    return quote(grams, BANDS)
'''

CUSTOMS_MODULE = '''"""CN23 lines for {name}."""

from __future__ import annotations
{imports}

def {func}(description: str, weight_kg: str, value_eur: str) -> dict[str, object]:
    """One customs declaration line; ``weight_kg`` is the scale's reading."""
    return {{
        "category": "{extra}",
        "description": description,
        "net_weight_kg": {expr},
        "value_eur": value_eur,
    }}
'''

RATING_VISIBLE = '''from parcels.rating.{module} import {func}


def test_{func}_prices_by_band():
    assert {func}("2.5").price_cents == {p3}
'''

RATING_HIDDEN = '''import pytest

from parcels.rating.{module} import {func}


@pytest.mark.parametrize("weight_kg, grams", [("1.0005", 1001), ("2.007", 2007), ("0.0004", 1)])
def test_{func}_counts_started_grams(weight_kg, grams):
    assert {func}(weight_kg).grams == grams
'''

CUSTOMS_VISIBLE = '''from parcels.customs.{module} import {func}


def test_{func}_line():
    line = {func}("Mug", "2", "9.99")
    assert line["category"] == "{extra}" and line["description"] == "Mug"
'''

CUSTOMS_HIDDEN = '''from decimal import Decimal

import pytest

from parcels.customs.{module} import {func}


@pytest.mark.parametrize("weight_kg, declared", [("1.2345", "1.235"), ("0.0004", "0.001")])
def test_{func}_declares_kilograms(weight_kg, declared):
    net = {func}("Mug", weight_kg, "9.99")["net_weight_kg"]
    assert isinstance(net, Decimal) and net == Decimal(declared)
'''


def _rating(site: Site, fill: dict[str, str], path: str) -> Rendered:
    def module(expr: str, stdlib: str = "", local: str = "") -> str:
        return RATING_MODULE.format(expr=expr, stdlib=stdlib, local=local, **fill)

    hidden = f"tests/test_{site.module}_weights.py"
    # Other writings (``evals.corpus.sizes``): guards on the reading and on the grams, names
    # already on every candidate's changed line.
    guards = ("if not weight_kg:\n    raise ValueError(weight_kg)",
              "if grams <= 0:\n    raise ValueError(grams)")

    def writings(text: str) -> tuple[dict[str, str], ...]:
        forms = [text, with_guard(text, site.func, guards[0])]
        checked = text.replace("    return quote(grams, BANDS)\n",
                               "    " + guards[1].replace("\n", "\n    ") + "\n"
                               "    return quote(grams, BANDS)\n")
        forms += [checked, with_guard(checked, site.func, guards[0])]
        return tuple({path: form} for form in forms)

    gold = writings(module("to_grams(weight_kg)",
                           local="from parcels.rating.units import to_grams\n"))
    rounded = writings(module("round(float(weight_kg) * 1000)"))
    ceiling = writings(module("math.ceil(float(weight_kg) * 1000)", stdlib="import math\n\n"))
    return Rendered(
        site={path: module("int(float(weight_kg) * 1000)"),
              f"tests/test_{site.module}_rates.py": RATING_VISIBLE.format(**fill)},
        gold=gold[0],
        gold_forms=gold[1:],
        gold_description="count the grams with the rating helper",
        decoys=(
            Decoy("round the grams instead of truncating them", rounded[0], rounded[1:]),
            Decoy("round the grams up so every started gram counts", ceiling[0], ceiling[1:]),
        ),
        hidden_tests={hidden: RATING_HIDDEN.format(**fill)},
        test_files=(f"tests/test_{site.module}_rates.py", hidden),
        edit_path=path, explore=(RATING_HELPER,),
    )


def _customs(site: Site, fill: dict[str, str], path: str) -> Rendered:
    def module(expr: str, imports: str = "") -> str:
        return CUSTOMS_MODULE.format(expr=expr, imports=f"\n{imports}" if imports else "",
                                     **fill)

    hidden = f"tests/test_{site.module}_weights.py"
    # Other writings (``evals.corpus.sizes``): guards on the reading and on the value.
    guards = ("if not weight_kg:\n    raise ValueError(weight_kg)",
              "if not value_eur:\n    raise ValueError(value_eur)")

    def writings(text: str) -> tuple[dict[str, str], ...]:
        return tuple({path: form} for form in guard_writings(text, site.func, guards))

    gold = writings(module("declared_kg(weight_kg)",
                           "from parcels.customs.units import declared_kg\n"))
    grams = writings(module("to_grams(weight_kg)", "from parcels.rating.units import to_grams\n"))
    quantized = writings(module('Decimal(weight_kg).quantize(Decimal("0.001"))',
                                "from decimal import Decimal\n"))
    return Rendered(
        site={path: module("float(weight_kg)"),
              f"tests/test_{site.module}_lines.py": CUSTOMS_VISIBLE.format(**fill)},
        gold=gold[0],
        gold_forms=gold[1:],
        gold_description="declare the weight with the customs helper",
        decoys=(
            Decoy("convert the weight to whole grams like the rate tables do", grams[0],
                  grams[1:]),
            Decoy("declare the weight as a Decimal rounded to three places", quantized[0],
                  quantized[1:]),
        ),
        hidden_tests={hidden: CUSTOMS_HIDDEN.format(**fill)},
        test_files=(f"tests/test_{site.module}_lines.py", hidden),
        edit_path=path, explore=(CUSTOMS_HELPER,),
    )


def _variant(index: int, site: Site) -> Variant:
    prices = dict(zip(("p1", "p2", "p3", "p4", "p5"), site.extra.split(", "), strict=False))
    fill = dict(module=site.module, func=site.func, name=site.name, extra=site.extra, **prices)
    path = f"parcels/{site.package}/{site.module}.py"

    def render(files: Mapping[str, str]) -> Rendered:
        del files
        return (_rating if site.package == "rating" else _customs)(site, fill, path)

    if site.package == "rating":
        title = f"{site.name} quotes a band too cheap for some parcels"
        problem = RATING_PROBLEMS[index % len(RATING_PROBLEMS)].format(name=site.name)
        message = f"feat: {site.name} rate table ({site.func})"
    else:
        title = f"Customs broker rejects net weights of {site.name}"
        problem = CUSTOMS_PROBLEMS[index % len(CUSTOMS_PROBLEMS)].format(name=site.name)
        message = f"feat: CN23 lines for {site.name} ({site.func})"
    return Variant(key=site.module, title=title, problem=problem, site_message=message,
                   render=render)


def _review(variant: Variant, rendered: Rendered) -> str:
    return (f"Review comment from @jvermeulen on {rendered.edit_path}:13\n\n"
            '> "net_weight_kg": to_grams(weight_kg),\n\n'
            "CN23 net weights are kilograms with three decimals; the broker reads 1235 as "
            "1235 kg. Whole grams are what the carriers' rate tables want, that rule is for "
            "parcels/rating only. parcels/customs/units.py has the declaration helper "
            "(half-up, never below 0.001 kg). Requesting changes.")


def _defect(variant: Variant, rendered: Rendered) -> str:
    return (f"QA defect DEF-{810 + len(variant.key)} (severity: major, reporter: finance-ops)\n"
            f"Title: {variant.title}\n"
            "Scale reading 1.0005 kg: we quote 1000 g (first band), the carrier invoices "
            "1001 g (second band). Reading 0.0004 kg: we quote 0 g, the carrier bills 1 g. "
            "Carriers charge every started gram.")


RATING_FACT = Fact(
    summary="In parcels/rating a scale reading becomes whole grams only through to_grams() "
            "from parcels/rating/units.py, which counts every started gram as the carriers "
            "bill; never math.ceil() or round() on a float.",
    type="domain", module="parcels/rating",
    conditions=("converting a parcel weight for a carrier rate table",),
    sources=("dhl", "postnl"),
)
CUSTOMS_FACT = Fact(
    summary="In parcels/customs the net weight stays kilograms with three places through "
            "declared_kg() from parcels/customs/units.py (half-up, at least 0.001 kg) instead "
            "of to_grams(), which is for rating only; never a float or a quantize() with the "
            "default rounding.",
    type="domain", module="parcels/customs",
    conditions=("declaring a parcel weight on a customs line",),
    sources=("gifts", "samples"),
)

FAMILY = Family(
    id="parcels-weight-units",
    repo="acme/parcels",
    fact="Weights are whole grams through to_grams (every started gram) in parcels/rating, but "
         "three-decimal kilograms through declared_kg (half-up, minimum 0.001) in "
         "parcels/customs; the rating rule applied in customs is wrong.",
    memory=f"{RATING_FACT.summary} {CUSTOMS_FACT.summary}",
    memory_type="domain",
    conditions=RATING_FACT.conditions + CUSTOMS_FACT.conditions,
    module="parcels",
    identifiers=("to_grams", "declared_kg", RATING_HELPER, CUSTOMS_HELPER),
    facts=(RATING_FACT, CUSTOMS_FACT),
    lessons=(
        "Note: grams via to_grams() are for the rate tables only; customs lines keep "
        "kilograms through declared_kg().",
        "Lesson: the weight helper depends on the package -- parcels/rating wants whole grams, "
        "parcels/customs three-decimal kilograms.",
        "For later: don't copy the rating conversion into customs declarations.",
    ),
    review=_review,
    defect=_defect,
    variants=tuple(_variant(i, site) for i, site in enumerate(SITES)),
    history=4,
    evidence=("test", "review", "defect", "test"),
)
