"""Build the evaluation tasks, facts, oracle memories and the bundle from the finished ``main``."""

from __future__ import annotations

import hashlib
import json
import subprocess
from datetime import datetime
from pathlib import Path

from gitrepo import clean, commit, diff, git, write
from tasks_def import TASKS, TaskSpec

REPO_ID = "acme-health/clinic-scheduler"
BUNDLE = "repos/acme-health__clinic-scheduler.bundle"
# feature branch of each task written the naive way (task number -> branch name after the author)
BRANCHES = {1: "group-classes", 2: "superbills", 3: "corrected-claims", 4: "addon-services",
            5: "reschedule-notices", 6: "waitlist-offers", 7: "noshow-report", 8: "schedule-csv",
            10: "wound-checks", 13: "block-time", 14: "reassign", 15: "call-centre-import", 16: "extend-visit"}


def apply_edits(repo: Path, edits) -> None:
    for path, old, new in edits:
        if old is None:
            write(repo, path, new)
            continue
        target = repo / path
        text = target.read_text()
        if text.count(old) != 1:
            raise AssertionError(f"{path}: {text.count(old)} occurrences of {old!r}")
        target.write_text(text.replace(old, new))


def changed_lines(patch: str) -> tuple[int, int]:
    plus = minus = 0
    for line in patch.splitlines():
        if line.startswith("+++") or line.startswith("---"):
            continue
        if line.startswith("+"):
            plus += 1
        elif line.startswith("-"):
            minus += 1
    return plus, minus


def files_of(patch: str) -> list[str]:
    return [line.split(" b/", 1)[1] for line in patch.splitlines() if line.startswith("diff --git ")]


def describe(patch: str) -> str:
    parts = []
    chunks = patch.split("diff --git ")[1:]
    for chunk in chunks:
        path = chunk.splitlines()[0].split(" b/", 1)[1]
        plus, minus = changed_lines("diff --git " + chunk)
        parts.append(f"{path} (+{plus} -{minus})")
    return "edits " + ", ".join(parts)


# --------------------------------------------------------------------------- facts


def facts_and_memories(ctx: dict) -> tuple[list[dict], list[dict]]:
    sessions = {row["instance_id"]: row for row in ctx["sessions"]}

    def fam(f):
        return [sid for sid, row in sessions.items() if row["family"] == f]

    def ended(f):
        return max(sessions[s]["ended_at"] for s in fam(f))

    facts = [
        {
            "family": "F1",
            "fact": (
                "Every billing path that bills a video (telehealth) visit must put the telehealth claim modifier on "
                "each of that visit's lines, taking the value from TELEHEALTH_MODIFIER in clinic.billing.codes. The "
                "modifier is 95 since 14 Apr 2025 (payer bulletin PB-2025-07); before that it was GT, and GT now gets "
                "claims rejected with CO-4. In-person lines carry no modifier."
            ),
            "identifiers": ["TELEHEALTH_MODIFIER", "clinic.billing.codes", "InvoiceLine.modifiers"],
            "kind": "rule_change",
            "sessions": fam("F1"),
            "superseded": {
                "old": "video-visit claim lines carry the telehealth modifier GT",
                "new": "video-visit claim lines carry the telehealth modifier 95 (TELEHEALTH_MODIFIER)",
                "commit": ctx["rule_sha_full"],
            },
        },
        {
            "family": "F2",
            "fact": (
                "Texts sent to patients from clinic/reminders/ show the day and time on the patient's own clock, "
                "to_zone(instant, patient.tz). This holds only there: staff-facing output such as the reports in "
                "clinic/reports/ shows days and times on the clinic's clock, to_zone(instant, CLINIC_TZ), and "
                "selects clinic days on that clock too; patient.tz there is wrong."
            ),
            "identifiers": ["to_zone", "patient.tz", "CLINIC_TZ"],
            "kind": "module_only",
            "sessions": fam("F2"),
            "module": "clinic/reminders",
        },
        {
            "family": "F3",
            "fact": (
                "Adding a visit type takes three edits: a VisitType in VISIT_TYPES (clinic/visit_types.py), its "
                "(code, fee in cents) in VISIT_CODES (clinic/billing/codes.py), and a reminder text in "
                "REMINDER_TEMPLATES (clinic/reminders/templates.py). Without the code, invoicing raises KeyError; "
                "without the template, plan_reminders silently plans no reminder."
            ),
            "identifiers": ["VisitType", "VISIT_CODES", "REMINDER_TEMPLATES", "plan_reminders"],
            "kind": "procedure",
            "sessions": fam("F3"),
        },
        {
            "family": "F4",
            "fact": (
                "When the portal offers a time that is taken, or does not offer a time that was freed, the cause is "
                "the AvailabilityCache the portal reads through (clinic/availability/cache.py, formerly "
                "clinic/cache.py): whatever changes a practitioner's calendar must call "
                "cache.invalidate(practitioner_id, day_key(start)) for every practitioner and day it touches. "
                "Entries are keyed by the clinic-local day from day_key(); start.date() is the UTC date and misses "
                "evening visits; clearing the whole cache or bypassing it is not acceptable."
            ),
            "identifiers": ["AvailabilityCache", "day_key", "invalidate"],
            "kind": "linked",
            "sessions": fam("F4"),
        },
    ]

    def cites(f, files, extra=()):
        return [{"kind": "session", "ref": s} for s in fam(f)] + [
            {"kind": "file", "ref": p, "path": p} for p in files
        ] + list(extra)

    memories = [
        {
            "type": "domain",
            "scope": {"repo": REPO_ID},
            "summary": (
                "Video (telehealth) visits must carry the telehealth claim modifier on every billed line, from "
                "TELEHEALTH_MODIFIER in clinic.billing.codes (InvoiceLine.modifiers, or the claim's modifier "
                "column). Since 14 Apr 2025 it is 95; GT is the retired value and is rejected with CO-4. In-person "
                "lines have no modifier. New billing paths (claims, superbills, add-ons, group classes) must apply it."
            ),
            "conditions": ["a billing path produces lines or claims for telehealth visits",
                           "a payer rejects video-visit claims with CO-4"],
            "citations": cites("F1", ["clinic/billing/codes.py", "clinic/billing/invoice.py"],
                               [{"kind": "commit", "ref": ctx["rule_sha_full"]}]),
            "created_at": ended("F1"),
        },
        {
            "type": "domain",
            "scope": {"repo": REPO_ID, "module": "clinic/reminders"},
            "summary": (
                "In clinic/reminders/ (texts sent to patients) show days and times on the patient's clock: "
                "to_zone(instant, patient.tz). Only there: in staff-facing code such as clinic/reports/ use the "
                "clinic's clock, to_zone(instant, CLINIC_TZ), for both the time and the clinic day; patient.tz "
                "there gives wrong lines."
            ),
            "conditions": ["formatting an appointment time for a patient text",
                           "formatting or grouping appointment times in a staff report"],
            "citations": cites("F2", ["clinic/reminders/scheduler.py", "clinic/reports/weekly.py"]),
            "created_at": ended("F2"),
        },
        {
            "type": "procedural",
            "scope": {"repo": REPO_ID},
            "summary": (
                "To add a visit type: (1) add a VisitType to VISIT_TYPES in clinic/visit_types.py; (2) add its "
                "(code, fee in cents) to VISIT_CODES in clinic/billing/codes.py; (3) add its text to "
                "REMINDER_TEMPLATES in clinic/reminders/templates.py. A missing code makes invoicing raise KeyError; "
                "a missing template makes plan_reminders plan nothing, silently."
            ),
            "conditions": ["adding or finishing a visit type"],
            "citations": cites("F3", ["clinic/visit_types.py", "clinic/billing/codes.py",
                                      "clinic/reminders/templates.py"]),
            "created_at": ended("F3"),
        },
        {
            "type": "domain",
            "scope": {"repo": REPO_ID},
            "summary": (
                "Portal shows a taken time as free (\"no longer available\" on booking) or does not show a freed "
                "time: the AvailabilityCache in clinic/availability/cache.py (was clinic/cache.py) was not "
                "invalidated. Every calendar change (book, cancel, reschedule, time off, reassign, imports, length "
                "changes) must call cache.invalidate(practitioner_id, day_key(start)) for each practitioner and day "
                "touched. Keys are clinic-local days from day_key(); start.date() is the UTC date and misses evening "
                "visits; do not clear or bypass the whole cache."
            ),
            "conditions": ["portal availability is stale after a calendar change",
                           "adding an operation that changes bookings or time off"],
            "citations": cites("F4", ["clinic/availability/cache.py", "clinic/booking.py"]),
            "created_at": ended("F4"),
        },
    ]
    return facts, memories


# --------------------------------------------------------------------------- tasks


def build_tasks(repo: Path, corpus: Path, ctx: dict) -> None:
    main = ctx["main_head"]
    facts, memories = facts_and_memories(ctx)
    mem_by_family = {f["family"]: [m] for f, m in zip(facts, memories)}
    rows = []
    positions: dict[str, int] = {}
    for spec in sorted(TASKS, key=lambda t: (t.family, t.created_at)):
        positions[spec.family] = positions.get(spec.family, 0) + 1
        rows.append(build_one(repo, spec, main, positions[spec.family], mem_by_family[spec.family]))
    git(repo, "checkout", "-q", "main")
    rows.sort(key=lambda r: int(r["instance_id"].rsplit("-", 1)[1]))

    with (corpus / "tasks.jsonl").open("w") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    with (corpus / "facts.jsonl").open("w") as out:
        for fact in facts:
            out.write(json.dumps(fact, ensure_ascii=False) + "\n")
    (corpus / "memories").mkdir(exist_ok=True)
    with (corpus / "memories" / "oracle.jsonl").open("w") as out:
        for memory in memories:
            out.write(json.dumps(memory, ensure_ascii=False) + "\n")

    (corpus / "repos").mkdir(exist_ok=True)
    bundle = corpus / BUNDLE
    if bundle.exists():
        bundle.unlink()
    git(repo, "bundle", "create", str(bundle), "--all")
    print(f"{len(rows)} tasks; bundle {bundle.stat().st_size} bytes")
    for row in rows:
        sizes = [(sum(changed_lines(c["patch"])), c["id"]) for c in row["candidates"]]
        gold_size = sum(changed_lines(row["patch"]))
        rank = 1 + sum(1 for s, _ in sizes if s < gold_size)
        ties = sum(1 for s, _ in sizes if s == gold_size) - 1
        print(f"  {row['instance_id']:<40} {row['family']} pos {row['position']} gold rank {rank}/4"
              f"{' (ties %d)' % ties if ties else ''} sizes {sorted(s for s, _ in sizes)}")


def build_one(repo: Path, spec: TaskSpec, main: str, position: int, oracle: list[dict]) -> dict:
    instance_id = f"acme-health__clinic-scheduler-{spec.n}"
    git(repo, "checkout", "-q", main)
    clean(repo)
    if spec.base:
        who = spec.base[0][0]
        git(repo, "checkout", "-q", "-B", f"{who}/{BRANCHES[spec.n]}", main)
        for who, when, message, edits in spec.base:
            apply_edits(repo, edits)
            commit(repo, who, when, message)
    base = git(repo, "rev-parse", "HEAD").strip()

    def patch_of(edits) -> str:
        apply_edits(repo, edits)
        out = diff(repo)
        clean(repo)
        return out

    gold = patch_of(spec.gold)
    decoys = [patch_of(d) for d in spec.decoys]
    test_patch = patch_of([(path, None, text) for path, text in spec.tests.items()])
    for p in [gold, *decoys]:
        assert p and not any(f.startswith("tests/") for f in files_of(p)), instance_id
    # candidate order: deterministic shuffle by hash
    candidates = [("gold", gold)] + [(f"d{i}", d) for i, d in enumerate(decoys)]
    candidates.sort(key=lambda c: hashlib.sha256(f"{instance_id}:{c[0]}".encode()).hexdigest())
    cands = []
    for i, (_, patch) in enumerate(candidates):
        cands.append({"id": f"cand-{spec.n}-{chr(ord('a') + i)}", "patch": patch, "description": describe(patch)})
    return {
        "instance_id": instance_id,
        "repo": REPO_ID,
        "base_commit": base,
        "created_at": spec.created_at,
        "problem_statement": spec.problem,
        "hints_text": "",
        "patch": gold,
        "test_patch": test_patch,
        "FAIL_TO_PASS": spec.f2p,
        "PASS_TO_PASS": spec.p2p,
        "source": {"kind": "bundle", "location": BUNDLE},
        "family": spec.family,
        "position": position,
        "candidates": cands,
        "oracle_memories": oracle,
    }
