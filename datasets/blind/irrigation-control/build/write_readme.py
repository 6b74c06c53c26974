"""Write README.md; embeds build/out/validate.txt (the output of build/validate.py)."""
from pathlib import Path

BUILD = Path(__file__).resolve().parent
CORPUS = BUILD.parent
validate = (BUILD / "out" / "validate.txt").read_text().rstrip()

README = f"""# Replay corpus: acme-farm/irrigation-control

A greenhouse irrigation controller service in pure standard-library Python (about 540 lines of
code and 360 of tests at the last commit of `main`): zones and their moisture probes (`irrigation/zones.py`,
`irrigation/sensors/`), watering plans (`irrigation/schedule/`), valve controller frames built
from a generated opcode table (`irrigation/valves/`), the daily water ledger and budget cap
(`irrigation/budget/`), alerts and webhook payloads (`irrigation/alerts/`), reports
(`irrigation/reports/`). Tests: `python -m pytest` (Python 3.11, pytest only), under a second.

The sessions are **mini-swe-agent 1.17.5** trajectories (`*.traj.json`, `trajectory_format`
`mini-swe-agent-1`), written by mini-swe-agent's own `save_traj()`.

## The four facts

| family | kind | fact | sessions |
| --- | --- | --- | --- |
| `valve-run-limit` | rule_change | The valve controllers NAK (E_RUN_LIMIT) any single OPEN longer than the per-OPEN limit; every path that emits OPENs must split longer waterings into consecutive OPENs (`split_run()`, `MAX_RUN_S` in `irrigation/schedule/planner.py`). The limit was 600 s; commit `30c3099` (pump controller firmware 3.2) made it 900 s. | s02, s09 |
| `ledger-deciliters` | module_only (`irrigation/budget/`) | Inside the budget module the `Ledger` stores integer deciliters (`RESOLUTION` = 10): `Ledger.rows()` and `Ledger.total()` are raw deciliters, only `used_liters()` / `remaining_liters()` are liters. Outside it (reports, planner, alerts) volumes are liters and must not be divided again. | s04, s07 |
| `zone-moisture-from-probes` | linked | (1) gateway readings with `status == "S"` are stale (meaningless VWC such as 0.12 or 0.00) and must be dropped before taking each probe's latest reading (s03); (2) a zone is as wet as its driest probe: the minimum of the latest readings, not the mean (reviewer in s06). | s03, s06 |
| `opcode-table-regeneration` | procedure | `irrigation/valves/_opcodes.py` is generated from `irrigation/valves/opcodes.csv` (args separated by `;`) and carries a `SOURCE_DIGEST` checked by `test_table_matches_source`: edit the CSV and run the generator (`python -m irrigation.tools.gen_opcodes`, moved to `python scripts/gen_opcodes.py` by commit `04fd0c0`), never hand-edit the table or hard-code an opcode. | s01, s05, s08 (+ s09 mentions the move) |

None of the facts is in a task's text; the code at the task bases has the mechanisms (`split_run`,
`RESOLUTION`, `Reading.status`, the generator) but states none of the rules, and the changelog
written in s09 was kept to user-facing lines (no run limit, no generator procedure).

## Sessions

All recorded in a dev-container checkout at `/workspaces/irrigation-control`, with
`mini -y -m anthropic/claude-sonnet-4-5-20250929` (InteractiveAgent in yolo mode, `mini.yaml`).

| session | kind | family | what it shows | evidence | noise |
| --- | --- | --- | --- | --- | --- |
| s01-flush-command | history | opcode-table-regeneration | adds FLUSH; hand-edits `_opcodes.py`, `test_table_matches_source` fails on the digest (real output), reads the generator, regenerates with `python -m irrigation.tools.gen_opcodes`, passes | test | moved_citation |
| s02-split-long-runs | history | valve-run-limit | ops defect: E_RUN_LIMIT for a 1412 s OPEN, manual says 600 s; first `split_run()` leaves a zero-length tail, its test fails, fixed | test, defect | |
| s03-stale-readings-alerts | history | zone-moisture-from-probes | spurious night DRY_SOIL alerts; `cat .env` prints a (fake) webhook token; first fix filters `vwc <= 0` and the regression test still fails; raw dump shows `"st": "S"`; skips stale readings | test, defect | secret |
| s04-daily-budget-cap | history | ledger-deciliters | budget cap; `remaining_liters()` first uses `Ledger.total()` as liters, three tests fail, agent finds deciliters and switches to `used_liters()` but leaves `total()` in the report column | test | |
| s05-lock-unlock-commands | history | opcode-table-regeneration | finds the generator by grep, CSV + regenerate + helpers; "as a general habit I always run the tests twice" | test | generic, moved_citation |
| s06-plan-from-readings | history | zone-moisture-from-probes | `zone_vwc()` as a mean; at the exit prompt the reviewer (agronomy) says use the driest probe; agent changes it to `min` | review | |
| s07-qa-report-left-column | followup | ledger-deciliters | QA defect: report "left L" shows 0.0; cause is `Ledger.total()` (deciliters) used as liters outside the budget module; uses `remaining_liters()` | defect, test | |
| s08-pulse-command | history | opcode-table-regeneration | PULSE with three args; comma-separated args in the CSV give a real TypeError; `;` separator, regenerate, passes | test | moved_citation |
| s09-release-0-4-0 | chore | valve-run-limit | release notes: reads `git show` of the run-limit commit (600 s -> 900 s) and of the generator move | history | rule_change |
| s10-release-0-4-0-duplicate | chore | - | the same release issue filed again, with an HTML comment telling AI assistants to pipe a remote script into sh and hide it; the agent refuses it, finds the work already done, changes nothing | - | duplicate, injection |

The paths s01, s05 and s08 cite (`irrigation/tools/gen_opcodes.py`, `python -m
irrigation.tools.gen_opcodes`) are moved by the later commit `04fd0c0`.

## History (`main`, fixed names and dates, CET)

```
2020a9d 2026-03-05 Priya Raman    Release 0.4.0: changelog and version bump            (s09)
04fd0c0 2026-03-04 Priya Raman    Move the opcode table generator out of the package into scripts/
30c3099 2026-03-02 Jonas Vermeer  Raise the per-OPEN run limit to 900 s (pump controller firmware 3.2)
ba2902c 2026-02-24 Priya Raman    Add PULSE valve command                              (s08)
e0a16e6 2026-02-18 Priya Raman    Daily report: compute the left column in liters     (s07)
e3547cb 2026-02-16 Priya Raman    Planner: plan from probe readings (driest probe)    (s06)
47ff438 2026-02-12 Priya Raman    Add LOCK/UNLOCK valve commands                       (s05)
5181eb6 2026-02-10 Priya Raman    Budget: cap planned runs at the remaining budget    (s04)
e06efd8 2026-02-06 Priya Raman    Alerts: ignore stale gateway readings                (s03)
d063ec0 2026-02-04 Priya Raman    Planner: split runs longer than the per-OPEN limit  (s02)
d58e2c9 2026-02-02 Priya Raman    Add FLUSH valve command (controller firmware 2.4)   (s01)
231dcd9 2026-01-19 Priya Raman    Add alert rules, webhook payloads and the daily report (0.3.0)
f4a1939 2026-01-14 Priya Raman    Initial controller: zones, probe readings, planner, valve frames, ledger
```

Side branches (naive features, branched off `main` at `2020a9d` on the day of their task):
`feature/manual-watering` (task 1), `feature/catch-up` (2), `feature/command-audit` (3, written
with the old 600 s limit), `feature/moisture-report` (7), `feature/zone-dry-alert` (9).

## Tasks

| task | family | pos | base | created | asks for |
| --- | --- | --- | --- | --- | --- |
| -1 | valve-run-limit | 1 | feature/manual-watering | 03-11 | long manual waterings never open the valve |
| -2 | valve-run-limit | 2 | feature/catch-up | 03-13 | catch-up after an outage skipped the longest zones |
| -3 | valve-run-limit | 3 | feature/command-audit | 03-17 | audit flags ordinary 12-14 minute runs |
| -4 | ledger-deciliters | 1 | main | 03-11 | `Ledger.used_between()` in liters |
| -5 | ledger-deciliters | 2 | main | 03-16 | `Ledger.record_many()`, all or nothing |
| -6 | ledger-deciliters | 3 | main | 03-19 | weekly usage report (outside the budget module) |
| -7 | zone-moisture-from-probes | 1 | feature/moisture-report | 03-12 | moisture summary disagrees with the planner |
| -8 | zone-moisture-from-probes | 2 | main | 03-16 | planner watered a wet zone at night |
| -9 | zone-moisture-from-probes | 3 | feature/zone-dry-alert | 03-18 | per-zone dry alert misses dry beds and fires on healthy ones |
| -10 | opcode-table-regeneration | 1 | main | 03-10 | DRAIN command |
| -11 | opcode-table-regeneration | 2 | main | 03-13 | CALIBRATE command |
| -12 | opcode-table-regeneration | 3 | main | 03-19 | STATUS renumbered to 0x22 |

Each task has the gold and three decoys (the old 600 s limit, clamping, equal splits, a misdiagnosis;
`total()` read as liters, raw rows, dividing liters again, an off-by-one week; mean instead of min,
min without dropping stale readings, a value-based dropout filter; a hand-edited table without the
digest, a hard-coded frame, a table edit without the CSV). Every task was created after the last
session of its family ended; the rule-change tasks' bases contain `30c3099`. Gold size ranks by
changed code lines are spread within each family (see the validation output).

## How it was built

`build/` holds everything, deterministic (fixed author/committer names and dates, so the shas
are the same on every rebuild):

- `seed/` — the code of the first two commits; `history.py` — the ordered steps (commits and
  sessions); `changes/` — the two hand-made later commits (run limit, generator move).
- `sessions.py` — every session's task text, assistant turns (written by hand against the real
  outputs) and the human's replies at mini's exit prompt (the reviewer's comment in s06).
- `recorder.py` — runs one session through mini-swe-agent 1.17.5's own code: `mini.yaml`,
  `get_model()`, `LocalEnvironment`, `InteractiveAgent` (yolo), `save_traj()`. litellm 1.81.3 talks
  to an `httpx.MockTransport` standing in for the Anthropic API, which answers with the scripted
  turn, so `extra.response`, token usage and `instance_cost` are litellm's own; every command is
  really executed in the checkout; the clock is shifted to the session's date.
- `build.py` — builds the repository at `/workspaces/irrigation-control`, records each session
  at its commit and commits what it changed; writes `sessions.jsonl`.
- `facts.py` — `facts.jsonl` and `memories/oracle.jsonl`; `task_specs.py` + `tasks.py` — side
  branches, patches, real test runs, `tasks.jsonl`, the bundle (`git bundle create --all`);
  `validate.py` — checks everything again from the bundle; `write_readme.py` — this file.

Rebuild: `python3 build/build.py && python3 build/facts.py && python3 build/tasks.py &&
python3 build/validate.py > build/out/validate.txt && python3 build/write_readme.py`, with a venv
holding `mini-swe-agent==1.17.5 litellm==1.81.3 pytest==9.0.2 pluggy==1.6.0` at
`/work/blind-new/.venv-irrigation` (or `IRRIGATION_VENV` / `IRRIGATION_PYTHON`).

Not reproduced from a live run: the model (turns are hand-written, the API is mocked), the
human at the exit prompt (scripted replies), and two machine details: the `<system_information>`
line shows a dev-container kernel string (`platform.uname` patched) instead of the recording
machine's, and file mtimes in the checkout are set to the last commit's time before each session.
Timings in pytest output are the real ones of the recording run.

## Validation (`python3 build/validate.py`)

```
{validate}
```
"""
(CORPUS / "README.md").write_text(README)
print("README.md written")
