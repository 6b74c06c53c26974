"""Family ``parcels-service-catalog``: a procedure confirmed again and again (``promotion``).

Checkout offers what ``parcels/services/_catalog.py`` lists, and that file is generated from the
registry (``SERVICES`` in ``parcels/services/registry.py``) by ``make catalog``. A new service is
offered only when it is registered *and* the catalog is regenerated; ``test_catalog_is_fresh``
fails otherwise, naming the command. Each past task shows it the same way: a failing test after
registering the service, then ``make catalog``. The decoys register without regenerating, write
the catalog row by hand, or both.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from evals.corpus.repos.parcels_services import (
    CATALOG,
    REGISTRY,
    ServiceSpec,
    catalog_source,
    registered,
    registry_source,
    service_of,
)
from evals.corpus.spec import Decoy, Family, Rendered, Variant

SERVICES: tuple[ServiceSpec, ...] = (
    ServiceSpec("dpd_classic", "DPD_CLASSIC", "dpd-classic", "DPD", "DPD Classic", 31500),
    ServiceSpec("gls_business", "GLS_BUSINESS", "gls-business", "GLS", "GLS BusinessParcel",
                40000),
    ServiceSpec("ups_standard", "UPS_STANDARD", "ups-standard", "UPS", "UPS Standard", 32000),
    ServiceSpec("postnl_mailbox", "POSTNL_MAILBOX", "postnl-mailbox", "PostNL",
                "PostNL Mailbox Parcel", 2000),
    ServiceSpec("dhl_express", "DHL_EXPRESS", "dhl-express", "DHL", "DHL Express", 30000),
    ServiceSpec("bpost_bpack", "BPOST_BPACK", "bpost-bpack", "bpost", "bpost bpack 24h", 30000),
    ServiceSpec("colissimo_home", "COLISSIMO_HOME", "colissimo-home", "Colissimo",
                "Colissimo Home", 30000),
    ServiceSpec("hermes_parcel", "HERMES_PARCEL", "hermes-parcel", "Hermes", "Hermes Parcel",
                25000),
    ServiceSpec("fedex_economy", "FEDEX_ECONOMY", "fedex-economy", "FedEx",
                "FedEx International Economy", 68000),
    ServiceSpec("inpost_locker", "INPOST_LOCKER", "inpost-locker", "InPost",
                "InPost Paczkomat", 25000),
    ServiceSpec("ctt_expresso", "CTT_EXPRESSO", "ctt-expresso", "CTT", "CTT Expresso", 30000),
)

PROBLEMS = (
    "{name} went live with the carrier last week, but customers can't pick it at checkout.",
    "Checkout does not offer {name}, although the service is implemented and the contract "
    "with {carrier} is signed.",
    "Customers ask why {name} is missing from the shipping options at checkout.",
)

VISIBLE = '''from parcels.services.{module} import {const}


def test_{module}_service():
    assert {const}.carrier == "{carrier}"
    assert {const}.max_weight_g == {max_weight_g}
'''

HIDDEN = '''from parcels.checkout import offered


def test_{module}_offered_at_checkout():
    assert "{id}" in offered()


def test_{module}_respects_its_weight_limit():
    assert "{id}" in offered({max_weight_g})
    assert "{id}" not in offered({max_weight_g} + 1)
'''

COMMAND = "make catalog"


def _typed_row(service: ServiceSpec) -> str:
    """``service``'s catalog row written by hand over several lines."""
    row = service.row().strip().rstrip(",")
    return "    " + json.dumps(json.loads(row), indent=4).replace("\n", "\n    ") + ",\n"


def _variant(index: int, service: ServiceSpec) -> Variant:
    fill = dict(module=service.module, const=service.const, id=service.id,
                carrier=service.carrier, max_weight_g=service.max_weight_g)

    def render(files: Mapping[str, str]) -> Rendered:
        current = registered(files)
        known = [service_of({**files, service.path: service.source()}, m, c)
                 for m, c in current]
        registry = registry_source([*current, (service.module, service.const)])
        by_hand = files[CATALOG].replace("\n]\n", "\n" + service.row() + "]\n")
        # The row as a person might type it, one key a line (a writing of other code size,
        # ``evals.corpus.sizes``; the same names, so the same evidence terms).
        typed = files[CATALOG].replace("\n]\n", "\n" + _typed_row(service) + "]\n")
        hidden = f"tests/test_checkout_{service.module}.py"
        visible = f"tests/test_{service.module}.py"
        count = len(known) + 1
        return Rendered(
            site={service.path: service.source(), visible: VISIBLE.format(**fill)},
            gold={REGISTRY: registry, CATALOG: catalog_source([*known, service])},
            gold_description="register the service and regenerate the catalog",
            decoys=(
                Decoy("register the service", {REGISTRY: registry}),
                Decoy("add the service's row to the checkout catalog", {CATALOG: by_hand},
                      ({CATALOG: typed},)),
                Decoy("register the service and add its catalog row",
                      {REGISTRY: registry, CATALOG: by_hand},
                      ({REGISTRY: registry, CATALOG: typed},)),
            ),
            hidden_tests={hidden: HIDDEN.format(**fill)},
            test_files=(visible, hidden, "tests/test_catalog.py"),
            edit_path=REGISTRY, explore=("Makefile", "parcels/services/build_catalog.py"),
            fix_command=(COMMAND, "python -m parcels.services.build_catalog\n"
                                  f"wrote parcels/services/_catalog.py ({count} services)"),
        )

    return Variant(
        key=service.module, title=f"Offer {service.name} at checkout",
        problem=PROBLEMS[index % len(PROBLEMS)].format(name=service.name,
                                                       carrier=service.carrier),
        site_message=f"feat: {service.name} service ({service.const})", render=render)


def _review(variant: Variant, rendered: Rendered) -> str:
    return (f"Review comment from @jvermeulen on {REGISTRY}\n\n"
            "Registering is half of it: checkout reads parcels/services/_catalog.py, which "
            "`make catalog` generates from the registry. Please regenerate it.")


def _defect(variant: Variant, rendered: Rendered) -> str:
    return (f"QA defect DEF-{900 + len(variant.key)} (severity: major, reporter: qa-ines)\n"
            f"Title: {variant.title} -- still missing on staging\n"
            "The service is registered but the checkout catalog was not regenerated.")


FAMILY = Family(
    id="parcels-service-catalog",
    repo="acme/parcels",
    fact="A new shipping service is offered at checkout only when it is registered in "
         "SERVICES (parcels/services/registry.py) and parcels/services/_catalog.py is "
         "regenerated with `make catalog`; the catalog is never written by hand.",
    memory="Checkout lists only what parcels/services/_catalog.py holds, and that file is "
           "generated from SERVICES (parcels/services/registry.py) by `make catalog` (python -m "
           'parcels.services.build_catalog), which rewrites its "Generated by make catalog" '
           "docstring and its rows; never skip it after registering a service.",
    memory_type="procedural",
    identifiers=("make catalog", "SERVICES", "parcels/services/registry.py", "_catalog.py",
                 "build_catalog"),
    conditions=("adding a shipping service",),
    module="parcels/services",
    lessons=(
        "Checklist for a new service: SERVICES entry, then `make catalog`, then the tests.",
        "Note: _catalog.py is generated -- registry first, `make catalog` after, never by hand.",
        "Again: test_catalog_is_fresh failed until I ran make catalog.",
    ),
    review=_review,
    defect=_defect,
    variants=tuple(_variant(i, s) for i, s in enumerate(SERVICES)),
    history=3,
    evidence=("test", "test", "test"),
    explore=("Makefile", "parcels/services/build_catalog.py"),
)
