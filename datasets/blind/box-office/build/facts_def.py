"""The four facts and their oracle memories."""

REPO = "acme-events/box-office"


def _ended(sessions, names):
    return max(s["ended_at"] for s in sessions if s["instance_id"] in names)


def _cite(names, files):
    return [{"kind": "session", "ref": n} for n in names] + [{"kind": "file", "ref": f, "path": f} for f in files]


def facts_and_memories(shas, sessions):
    facts = []
    memories = []

    # 1. rule_change
    s1 = ["s02-refund-status", "s09-email-refund-date"]
    facts.append({
        "family": "refund-deadline",
        "fact": "Refunds close 24 hours before doors open: refund_deadline(event) in boxoffice/refunds.py is "
                "event.doors_at - REFUND_CUTOFF (24h), and a refund is refused when now >= that deadline. Anything that "
                "follows the refund window (transfers, reminder emails, account-page buttons) must use refund_deadline / "
                "refund_status. The earlier rule, 48 hours before event.starts_at (REFUND_CUTOFF_HOURS = 48), was replaced "
                "on 2026-09-22; the policy note in README.md still states the old rule.",
        "identifiers": ["refund_deadline", "REFUND_CUTOFF", "doors_at", "refund_status", "boxoffice/refunds.py"],
        "kind": "rule_change",
        "sessions": s1,
        "superseded": {"old": "refunds close 48 hours before event.starts_at (REFUND_CUTOFF_HOURS = 48)",
                       "new": "refunds close 24 hours before event.doors_at (REFUND_CUTOFF, refund_deadline)",
                       "commit": shas["rule_change"]},
    })
    memories.append(("refund-deadline", {
        "type": "domain",
        "scope": {"repo": REPO},
        "summary": "The refund window closes 24h before doors: refund_deadline(event) = event.doors_at - REFUND_CUTOFF "
                   "(boxoffice/refunds.py), closed when now >= deadline. Since the 2026-09-22 policy change it is no longer "
                   "48h before starts_at (old REFUND_CUTOFF_HOURS); README.md still says 48h. Any feature tied to the refund "
                   "window (transfers, reminder emails, account buttons) should call refund_deadline or refund_status rather "
                   "than compute its own cutoff.",
        "conditions": ["computing or displaying a refund, transfer or self-service cutoff",
                       "code or docs mention 48 hours before the show"],
        "citations": _cite(s1, ["boxoffice/refunds.py", "boxoffice/delivery/ticket_text.py"]),
        "created_at": _ended(sessions, s1),
    }))

    # 2. module_only
    s2 = ["s04-settlement-daily", "s05-settlement-local-day", "s08-ops-sales-by-venue"]
    facts.append({
        "family": "settlement-venue-day",
        "fact": "In boxoffice/settlement/ every day a venue reconciles (sales per day, refunds per day, the on-sale window) "
                "is the venue's local day, local_day(ts, venue) from boxoffice/settlement/util.py (UTC shifted by "
                "venue.utc_offset_minutes). Outside settlement, in the ops dashboard (boxoffice/reports/sales.py), days are "
                "plain UTC dates (ts.date()) so tiles of all venues line up.",
        "identifiers": ["local_day", "utc_offset_minutes", "boxoffice/settlement/util.py", "boxoffice/reports/sales.py"],
        "kind": "module_only",
        "sessions": s2,
        "module": "boxoffice/settlement/",
    })
    memories.append(("settlement-venue-day", {
        "type": "domain",
        "scope": {"repo": REPO, "module": "boxoffice/settlement/"},
        "summary": "Settlement code buckets by the venue's local day: use local_day(ts, venue) from "
                   "boxoffice/settlement/util.py (UTC + venue.utc_offset_minutes) for sales, refunds and sale windows; a UTC "
                   ".date() puts evening sales of western venues on the next day and after-midnight sales of eastern venues "
                   "on the previous day (QA-198).",
        "conditions": ["grouping or reporting dates in boxoffice/settlement/"],
        "citations": _cite(["s04-settlement-daily", "s05-settlement-local-day"],
                           ["boxoffice/settlement/util.py", "boxoffice/settlement/report.py"]),
        "created_at": _ended(sessions, ["s04-settlement-daily", "s05-settlement-local-day"]),
    }))
    memories.append(("settlement-venue-day", {
        "type": "domain",
        "scope": {"repo": REPO, "module": "boxoffice/reports/"},
        "summary": "The ops dashboard in boxoffice/reports/sales.py uses UTC dates (booked_at.date(), refunded_at.date()) "
                   "for every tile, per venue too, so tiles line up with daily_sales; do not use the settlement helper "
                   "local_day there (reviewer's rule: venue-local days are a settlement thing only).",
        "conditions": ["grouping by day in boxoffice/reports/"],
        "citations": _cite(["s08-ops-sales-by-venue"], ["boxoffice/reports/sales.py"]),
        "created_at": _ended(sessions, ["s08-ops-sales-by-venue"]),
    }))

    # 3. procedure
    s3 = ["s01-student-tier", "s06-member-tier", "s10-companion-tier"]
    facts.append({
        "family": "tier-registration",
        "fact": "Adding a price tier takes three registrations: its price percentage in TIERS (boxoffice/pricing.py), its "
                "booking fee percentage in FEE_TABLE (boxoffice/fees.py; otherwise fee_for raises KeyError), and its place "
                "in TIER_ORDER (boxoffice/settlement/report.py; otherwise settlement_rows raises ValueError 'tiers not in "
                "settlement order'). The settlement check for unknown tiers stays; then run the whole suite with "
                "python -m pytest -q.",
        "identifiers": ["TIERS", "FEE_TABLE", "TIER_ORDER", "boxoffice/pricing.py", "boxoffice/fees.py",
                        "boxoffice/settlement/report.py"],
        "kind": "procedure",
        "sessions": s3,
    })
    memories.append(("tier-registration", {
        "type": "procedural",
        "scope": {"repo": REPO},
        "summary": "To add a price tier: (1) add the price % to TIERS in boxoffice/pricing.py, (2) add the booking fee % to "
                   "FEE_TABLE in boxoffice/fees.py (else fee_for raises KeyError), (3) add the tier to TIER_ORDER in "
                   "boxoffice/settlement/report.py (else settlement_rows raises 'tiers not in settlement order'; keep that "
                   "check), then run python -m pytest -q.",
        "conditions": ["adding or renaming a ticket tier"],
        "citations": _cite(s3, ["boxoffice/pricing.py", "boxoffice/fees.py", "boxoffice/settlement/report.py"]),
        "created_at": _ended(sessions, s3),
    }))

    # 4. linked
    s4 = ["s03-promo-quote", "s07-promo-rounding"]
    facts.append({
        "family": "promo-discount",
        "fact": "Two rules from different sessions decide every discounted total: (a) a discount comes off the face value "
                "only - the booking fee is computed by fee_for on the undiscounted face and is never discounted, total = "
                "face - discount + fee (review of the promo change); (b) discounts are rounded down to the cent "
                "(face * pct // 100, as discount_for in boxoffice/promos.py does), whereas fees round half up through "
                "pct_of (QA-212).",
        "identifiers": ["discount_for", "fee_for", "pct_of", "boxoffice/promos.py", "boxoffice/pricing.py"],
        "kind": "linked",
        "sessions": s4,
    })
    memories.append(("promo-discount", {
        "type": "domain",
        "scope": {"repo": REPO},
        "summary": "A promo or any discount applies to the face value only: the booking fee is fee_for(tier, face) on the "
                   "undiscounted face and is never discounted; total = face - discount + fee (quote() in "
                   "boxoffice/pricing.py, reviewer's rule).",
        "conditions": ["computing a discounted order total, cart, group or walk-up price"],
        "citations": _cite(["s03-promo-quote"], ["boxoffice/pricing.py", "boxoffice/promos.py"]),
        "created_at": _ended(sessions, ["s03-promo-quote"]),
        "links": [{"relation": "related", "target": "Discounts round down to the cent (discount_for floors; fees round half up via pct_of)"}],
    }))
    memories.append(("promo-discount", {
        "type": "failure",
        "scope": {"repo": REPO},
        "summary": "Discounts are rounded down to the cent: discount_for(code, face_cents) in boxoffice/promos.py is "
                   "face * pct // 100; using pct_of (half up) or round() gives a cent too much (QA-212). Fees still "
                   "round half up with pct_of.",
        "conditions": ["rounding a discount amount"],
        "citations": _cite(["s07-promo-rounding"], ["boxoffice/promos.py", "boxoffice/money.py"]),
        "created_at": _ended(sessions, ["s07-promo-rounding"]),
        "links": [{"relation": "related", "target": "Discounts come off the face value only; the booking fee is never discounted"}],
    }))
    return facts, memories
