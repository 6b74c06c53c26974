"""Family ``parcels-scan-clock``: a fact in two pieces from different sessions (``linking``).

Carriers send a scan's time as the hub's local wall clock, without an offset; a parser must turn
it into UTC with ``parse_scan_time(raw, depot)`` (``parcels/carriers/clock.py``). Two pieces of
knowledge, from different sessions, make the fact usable:

- a QA defect ties what recipients report (the "delivered" text names the wrong hour) to the
  carrier clock: its fix adds a hub to ``DEPOT_TIMEZONES`` and never touches a parser;
- failed attempts at new parsers (a failing test, a review) teach the clock's rule.

Evaluation tasks describe only the symptom, so a pack needs the defect's memory to reach the
rule's memory. The decoys: ``to_utc`` (the clock's other helper, for our own timestamps), an
explicit UTC, and a fixed Amsterdam zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from evals.corpus.sizes import with_guard, with_local
from evals.corpus.spec import Decoy, Fact, Family, Rendered, Variant

CLOCK = "parcels/carriers/clock.py"
DEPOTS = "parcels/depots.py"


@dataclass(frozen=True)
class Carrier:
    module: str
    name: str
    id_key: str
    depot_key: str
    time_key: str


CARRIERS: dict[str, Carrier] = {c.module: c for c in (
    Carrier("gls", "GLS", "parcel", "depot", "time"),
    Carrier("dpd", "DPD", "parcel_number", "hub", "scanned_at"),
    Carrier("postnl", "PostNL", "barcode", "hub", "timestamp"),
    Carrier("ups", "UPS", "tracking_number", "location", "event_time"),
    Carrier("bpost", "bpost", "item", "depot", "time"),
    Carrier("colissimo", "Colissimo", "parcel", "site", "date"),
    Carrier("hermes", "Hermes", "barcode", "depot", "scan_time"),
    Carrier("ctt", "CTT", "object", "centre", "datetime_local"),
    Carrier("fedex", "FedEx", "tracking_number", "hub", "event_time"),
    Carrier("inpost", "InPost", "parcel", "depot", "timestamp"),
)}

SYMPTOMS = (
    "Recipients of {name} parcels say our 'your parcel was delivered' text names the wrong "
    "hour: hours after the courier actually rang.",
    "Support keeps getting calls about {name} deliveries: the delivered message tells "
    "recipients a time that is off from when the courier was at their door.",
    "{name} recipients complain that the delivery text message gives the wrong time of "
    "delivery. Other carriers look fine.",
)

PARSER = '''"""{name} scan webhook."""

from __future__ import annotations

{stdlib}from parcels.carriers.scan import Scan
{local}

def parse_{module}_scan(payload: dict[str, str]) -> Scan:
    """One scan event from {name}'s webhook."""
    at = {expr}
    return Scan(parcel_id=payload["{id_key}"], depot=payload["{depot_key}"],
                status=payload["status"].lower(), at=at)
'''

VISIBLE = '''from datetime import datetime

from parcels.carriers.{module} import parse_{module}_scan


def test_{module}_scan_fields():
    scan = parse_{module}_scan({{"{id_key}": "PX1", "{depot_key}": "AMS",
                               "{time_key}": "2024-07-01T09:15:00", "status": "DELIVERED"}})
    assert (scan.parcel_id, scan.depot, scan.status) == ("PX1", "AMS", "delivered")
    assert isinstance(scan.at, datetime)
'''

HIDDEN = '''from datetime import datetime, timezone

from parcels.carriers.{module} import parse_{module}_scan


def _scan(depot, time):
    return parse_{module}_scan({{"{id_key}": "PX1", "{depot_key}": depot, "{time_key}": time,
                               "status": "DELIVERED"}})


def test_{module}_summer_scan_in_amsterdam():
    assert _scan("AMS", "2024-07-01T09:15:00").at == datetime(2024, 7, 1, 7, 15,
                                                               tzinfo=timezone.utc)


def test_{module}_winter_scan_in_lisbon():
    assert _scan("LIS", "2024-01-15T09:15:00").at == datetime(2024, 1, 15, 9, 15,
                                                               tzinfo=timezone.utc)
'''

RAW = 'datetime.fromisoformat(payload["{time_key}"])'


def _parser(carrier: Carrier) -> Variant:
    fill = dict(module=carrier.module, name=carrier.name, id_key=carrier.id_key,
                depot_key=carrier.depot_key, time_key=carrier.time_key)
    path = f"parcels/carriers/{carrier.module}.py"
    raw = RAW.format(**fill)

    def source(expr: str, stdlib: str = "from datetime import datetime\n\n",
               local: str = "") -> str:
        return PARSER.format(expr=expr, stdlib=stdlib, local=local, **fill)

    # Other writings (``evals.corpus.sizes``): the scan's time field named first ("stamp", a
    # word of no memory), a guard that the payload carries it, both.
    stamp = f'payload["{carrier.time_key}"]'
    guard = f'if "{carrier.time_key}" not in payload:\n    raise KeyError("{carrier.time_key}")'
    func = f"parse_{carrier.module}_scan"

    def writings(text: str) -> tuple[dict[str, str], ...]:
        named = with_local(text, stamp, "stamp")
        forms = (text, named, with_guard(text, func, guard), with_guard(named, func, guard))
        return tuple({path: form} for form in forms)

    def render(files: Mapping[str, str]) -> Rendered:
        del files
        hidden = f"tests/test_{carrier.module}_scan_times.py"
        visible = f"tests/test_{carrier.module}_scan.py"
        gold = writings(source(f'parse_scan_time({stamp}, payload["{carrier.depot_key}"])',
                               stdlib="",
                               local="from parcels.carriers.clock import parse_scan_time\n"))
        utc = writings(source(f"to_utc({raw})",
                              local="from parcels.carriers.clock import to_utc\n"))
        marked = writings(source(f"{raw}.replace(tzinfo=timezone.utc)",
                                 stdlib="from datetime import datetime, timezone\n\n"))
        amsterdam = writings(source(f'{raw}.replace(tzinfo=ZoneInfo("Europe/Amsterdam"))',
                                    stdlib="from datetime import datetime\n"
                                           "from zoneinfo import ZoneInfo\n\n"))
        return Rendered(
            site={path: source(raw), visible: VISIBLE.format(**fill)},
            gold=gold[0],
            gold_forms=gold[1:],
            gold_description="read the scan time through the carrier clock's scan parser",
            decoys=(
                Decoy("convert the scan time to UTC with the clock module's converter",
                      utc[0], utc[1:]),
                Decoy("mark the scan time as UTC", marked[0], marked[1:]),
                Decoy("attach the Amsterdam time zone to the scan time", amsterdam[0],
                      amsterdam[1:]),
            ),
            hidden_tests={hidden: HIDDEN.format(**fill)},
            test_files=(visible, hidden),
            edit_path=path, explore=(CLOCK,),
        )

    return Variant(key=carrier.module, title=f"{carrier.name} delivery texts name the wrong hour",
                   problem="", site_message=f"feat: {carrier.name} scan webhook "
                                            f"(parse_{carrier.module}_scan)", render=render)


PORTO_HIDDEN = '''from parcels.carriers.gls import parse_gls_scan
from parcels.depots import DEPOTS
from parcels.tracking import delivered_message


def test_porto_is_a_hub():
    assert DEPOTS["OPO"].city == "Porto"


def test_porto_delivered_message_names_the_local_hour():
    scan = parse_gls_scan({"parcel": "PX1", "depot": "OPO", "time": "2024-07-01T09:15:00",
                           "status": "DELIVERED"})
    assert delivered_message(scan) == "Your parcel PX1 was delivered at 09:15."
'''


def _porto() -> Variant:
    """The defect's story: a new hub, added where the depots live but not to the clock."""
    hidden = "tests/test_porto_hub.py"

    def render(files: Mapping[str, str]) -> Rendered:
        depots = files[DEPOTS].replace(
            '    "ATH": Depot("Athens", "Europe/Athens"),\n',
            '    "ATH": Depot("Athens", "Europe/Athens"),\n'
            '    "OPO": Depot("Porto", "Europe/Lisbon"),\n')
        clock = files[CLOCK].replace('    "ATH": "Europe/Athens",\n',
                                     '    "ATH": "Europe/Athens",\n    "OPO": "Europe/Lisbon",\n')
        assert depots != files[DEPOTS] and clock != files[CLOCK]
        return Rendered(
            site={}, gold={DEPOTS: depots, CLOCK: clock},
            gold_description="add the Porto hub to the depots and to the carrier clock's "
                             "hub table",
            decoys=(Decoy("add the Porto hub to the depot list", {DEPOTS: depots}),),
            hidden_tests={hidden: PORTO_HIDDEN},
            test_files=("tests/test_tracking.py", hidden), edit_path=DEPOTS, explore=(CLOCK,),
        )

    return Variant(key="porto", title="Open the Porto hub (OPO)",
                   problem="GLS starts scanning parcels at our new Porto hub (code OPO, "
                           "Europe/Lisbon) next week. Please add it.",
                   site_message="", render=render)


def _variants() -> tuple[Variant, ...]:
    history = [_parser(CARRIERS["gls"]), _porto(), _parser(CARRIERS["dpd"])]
    history[0] = _retitled(history[0], "GLS scans are stored without a time zone",
                           "parse_gls_scan keeps the webhook's time as a naive datetime; the "
                           "tracking store needs aware scan times. Please fix the parser.")
    history[2] = _retitled(history[2], "DPD scan times must be aware datetimes",
                           "The new DPD webhook parser stores naive scan times. Make them "
                           "timezone-aware like the GLS ones.")
    evals = [_parser(c) for c in CARRIERS.values() if c.module not in ("gls", "dpd")]
    evals = [_retitled(v, v.title, SYMPTOMS[i % len(SYMPTOMS)].format(
        name=CARRIERS[v.key].name)) for i, v in enumerate(evals)]
    return (*history, *evals)


def _retitled(variant: Variant, title: str, problem: str) -> Variant:
    return Variant(key=variant.key, title=title, problem=problem,
                   site_message=variant.site_message, render=variant.render)


def _review(variant: Variant, rendered: Rendered) -> str:
    return (f"Review comment from @ines-d on {rendered.edit_path}:11\n\n"
            "> at = to_utc(datetime.fromisoformat(...))\n\n"
            "to_utc() is for our own timestamps: it takes a naive value as UTC already. "
            "Carriers send the hub's wall-clock time, so this is an hour or two off for AMS. "
            "parse_scan_time() in parcels/carriers/clock.py converts per hub; use it like "
            "parse_gls_scan does.")


def _defect(variant: Variant, rendered: Rendered) -> str:
    return ("QA defect DEF-731 (severity: major, reporter: support-lea)\n"
            "Title: delivered text names the wrong hour for Porto recipients\n"
            "Recipients served by the Porto hub get 'Your parcel ... was delivered at 10:15' "
            "when the courier rang at 09:15 local time; the other hubs are fine. Root cause: "
            "the carrier clock (parcels/carriers/clock.py) has its own hub table, "
            "DEPOT_TIMEZONES, and does not know OPO, so the scan is read as UTC.")


SYMPTOM_FACT = Fact(
    summary="When recipients report that the delivered text names the wrong hour (DEF-731), the "
            "cause is the carrier clock: parcels/carriers/clock.py reads scan times with its own "
            "table, DEPOT_TIMEZONES, kept apart from parcels/depots.py.",
    type="domain", module=None,
    conditions=("recipients report a wrong delivery time",),
    sources=("porto",),
)
RULE_FACT = Fact(
    summary="Carrier scan payloads carry the hub's local wall-clock time without an offset: a "
            "parser turns it into a Scan time only with parse_scan_time(raw, depot) from "
            "parcels/carriers/clock.py, never to_utc(), replace(tzinfo=timezone.utc) or a "
            "fixed ZoneInfo.",
    type="domain", module="parcels/carriers",
    conditions=("parsing a carrier's scan webhook",),
    sources=("gls", "dpd"),
)

FAMILY = Family(
    id="parcels-scan-clock",
    repo="acme/parcels",
    fact="Carrier scan times are the hub's local wall clock; parsers must read them with "
         "parse_scan_time(raw, depot). What recipients report (a wrong hour in the delivered "
         "text) leads there only through a QA defect that tied it to the carrier clock.",
    memory=f"{SYMPTOM_FACT.summary} {RULE_FACT.summary}",
    memory_type="domain",
    conditions=SYMPTOM_FACT.conditions + RULE_FACT.conditions,
    module="parcels/carriers",
    identifiers=("parse_scan_time", "parcels/carriers/clock.py", "DEPOT_TIMEZONES"),
    facts=(SYMPTOM_FACT, RULE_FACT),
    lessons=(
        "Note: scan times from carriers are hub-local; parse_scan_time() is the only way in.",
        "Lesson: to_utc() is for our own timestamps, not for carrier scans.",
        "Reminder: a wrong hour in the delivered text means the carrier clock, not the message.",
    ),
    review=_review,
    defect=_defect,
    variants=_variants(),
    history=3,
    evidence=("test", "defect", "review"),
)
