"""The four facts and their oracle memories."""
from common import REPO_NAME, git

FAMILIES = {
    "cutoff": ["pd-101", "pd-101-review", "pd-118"],
    "weights": ["pd-104", "pd-104-review", "qa-230"],
    "routes": ["pd-107", "pd-109", "chore-rtm3", "chore-rtm3-dup"],
    "fx": ["qa-212", "pd-121"],
}


def build(repo, session_rows):
    ended = {r["instance_id"]: r["ended_at"] for r in session_rows}
    rule_commit = git(repo, "log", "-1", "--format=%H", "--grep=cut-off is exclusive", "main").strip()
    assert rule_commit

    def last(ids):
        return max(ended[i] for i in ids)

    def cites(ids, *files):
        return ([{"kind": "session", "ref": i} for i in ids]
                + [{"kind": "file", "ref": f, "path": f} for f in files])

    facts = [
        {
            "family": "cutoff",
            "fact": "Since the ops commit of 2 March 2026 the same-day cut-off is exclusive: a parcel makes "
                    "today's van only when handed in on a weekday strictly before SAME_DAY_CUTOFF (14:00); at "
                    "14:00:00 it goes out on the next working day. Before that commit (and in the pd-101 review) "
                    "14:00:00 still counted as same day. New code that decides same-day versus next day must use "
                    "the strict rule, best by reusing is_same_day / dispatch_date / next_slot in "
                    "depot/delivery_slots.py (formerly depot/slots.py).",
            "identifiers": ["SAME_DAY_CUTOFF", "is_same_day", "dispatch_date", "next_slot",
                            "depot/delivery_slots.py"],
            "kind": "rule_change",
            "sessions": FAMILIES["cutoff"],
            "superseded": {
                "old": "same day when handed in on a weekday at or before 14:00:00 (inclusive, time <= SAME_DAY_CUTOFF)",
                "new": "same day only strictly before 14:00 (time < SAME_DAY_CUTOFF); 14:00:00 goes out the next working day",
                "commit": rule_commit,
            },
        },
        {
            "family": "weights",
            "fact": "Weights are in kilograms only inside depot/customs.py: CN22/CN23 fields are kg strings with "
                    "exactly three decimals made with grams_to_kg (a Decimal quantized to 0.001). Everywhere else "
                    "in the depot (intake, surcharges, sorting, manifest) weights are integer grams (weight_g) and "
                    "grams_to_kg must not be used.",
            "identifiers": ["grams_to_kg", "weight_g", "depot/customs.py", "gross_weight_kg", "net_weight_kg"],
            "kind": "module_only",
            "sessions": FAMILIES["weights"],
            "module": "depot/customs",
        },
        {
            "family": "routes",
            "fact": "Sorting reads depot/data/routes_index.json, not routes.csv, and load_index raises "
                    "StaleIndexError when the index's source_sha256 does not match routes.csv. A route change is: "
                    "edit depot/data/routes.csv, run `python -m depot.tools.build_routes` to regenerate "
                    "routes_index.json, and commit both files; never hand-edit the index or special-case routes "
                    "in sorting.py.",
            "identifiers": ["depot/data/routes.csv", "depot/data/routes_index.json",
                            "python -m depot.tools.build_routes", "source_sha256", "StaleIndexError"],
            "kind": "procedure",
            "sessions": FAMILIES["routes"],
        },
        {
            "family": "fx",
            "fact": "A declared value (declared_value_cents) is in the parcel's own currency (parcel.currency), so "
                    "any comparison or amount in EUR needs fx.to_eur_cents (QA-212); and the conversion must use "
                    "the rate of the parcel's intake day, on=parcel.intake_at.date(), because without on= "
                    "to_eur_cents uses the latest rate (pd-121).",
            "identifiers": ["to_eur_cents", "declared_value_cents", "currency", "intake_at", "depot/fx.py"],
            "kind": "linked",
            "sessions": FAMILIES["fx"],
        },
    ]

    scope = {"repo": REPO_NAME}
    memories = [
        ("cutoff", {
            "type": "domain",
            "scope": scope,
            "summary": "Same-day cut-off in depot/delivery_slots.py (was depot/slots.py) became exclusive on "
                       "2 March 2026: a parcel makes today's van only on a weekday strictly before "
                       "SAME_DAY_CUTOFF (14:00); 14:00:00 goes to the next working day. The older rule (pd-101 "
                       "review) counted 14:00:00 as same day and is superseded. Reuse is_same_day, dispatch_date "
                       "or next_slot instead of writing a new comparison.",
            "conditions": ["deciding same-day versus next-day dispatch, pickup or delivery",
                           "code that compares a time with SAME_DAY_CUTOFF"],
            "citations": cites(FAMILIES["cutoff"], "depot/delivery_slots.py"),
            "created_at": last(FAMILIES["cutoff"]),
        }),
        ("weights", {
            "type": "domain",
            "scope": {"repo": REPO_NAME, "module": "depot/customs"},
            "summary": "In depot/customs.py weights are kilograms: customs declaration fields "
                       "(gross_weight_kg, net_weight_kg and any new *_kg field) are strings with exactly three "
                       "decimals made with grams_to_kg(grams); not float division, not raw grams.",
            "conditions": ["adding or changing weight fields of CN22/CN23 declarations"],
            "citations": cites(["pd-104", "pd-104-review"], "depot/customs.py"),
            "created_at": last(["pd-104", "pd-104-review"]),
        }),
        ("weights", {
            "type": "domain",
            "scope": scope,
            "summary": "Outside depot/customs.py every weight is integer grams (weight_g): intake, surcharges, "
                       "sorting and manifest (the courier tablet reads grams). Do not use grams_to_kg or "
                       "kilograms there; convert external kg input to int grams.",
            "conditions": ["weights in intake, surcharges, manifests or anything read by the courier tablet"],
            "citations": cites(["pd-104-review", "qa-230"], "depot/manifest.py", "depot/intake.py"),
            "created_at": last(["pd-104-review", "qa-230"]),
        }),
        ("routes", {
            "type": "procedural",
            "scope": scope,
            "summary": "To change routes: edit depot/data/routes.csv, then run `python -m depot.tools.build_routes` "
                       "to regenerate depot/data/routes_index.json, and commit both. Sorting only reads the index "
                       "and raises StaleIndexError when its source_sha256 does not match routes.csv; "
                       "test_index_matches_csv checks the committed index equals a fresh build.",
            "conditions": ["adding, moving or re-ordering a route or postcode prefix",
                           "StaleIndexError in sorting or manifest tests"],
            "citations": cites(FAMILIES["routes"], "depot/data/routes.csv", "depot/tools/build_routes.py",
                               "depot/sorting.py"),
            "created_at": last(FAMILIES["routes"]),
        }),
        ("fx", {
            "type": "failure",
            "scope": scope,
            "summary": "declared_value_cents is in parcel.currency, not EUR: compare it with EUR limits or show "
                       "it as EUR only after fx.to_eur_cents(value, parcel.currency, ...) (QA-212: a GBP parcel "
                       "got a CN22 instead of a CN23).",
            "conditions": ["EUR thresholds, fees or amounts computed from a declared value"],
            "citations": cites(["qa-212"], "depot/customs.py", "depot/fx.py"),
            "created_at": last(["qa-212"]),
            "links": [{"relation": "related", "target": "fx.to_eur_cents must get on=parcel.intake_at.date()"}],
        }),
        ("fx", {
            "type": "failure",
            "scope": scope,
            "summary": "fx.to_eur_cents without on= uses the latest rate; declared values must be converted at the "
                       "rate of the parcel's intake day: on=parcel.intake_at.date() (pd-121: February GBP "
                       "parcels got the March rate).",
            "conditions": ["calling fx.to_eur_cents or fx.rate for a parcel"],
            "citations": cites(["pd-121"], "depot/fx.py", "depot/surcharges.py"),
            "created_at": last(["pd-121"]),
            "links": [{"relation": "related", "target": "declared_value_cents is in parcel.currency; convert with fx.to_eur_cents"}],
        }),
    ]
    return facts, memories
