#!/usr/bin/env bash
# Rebuild the whole corpus. Needs: git, jq, bash, and a Python 3.11 venv with
# pytest==8.1.1, flake8, unidiff and pyyaml (FARE_VENV, default below).
# Writes /acme-transit__fare-engine (the path SWE-agent's container uses) and /root/commands.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd "$(dirname "$0")/.."
export FARE_VENV="${FARE_VENV:-/work/blind-new/.venv-fare-engine}"
"$FARE_VENV/bin/python" build/make_corpus.py     # repo history + sessions + bundle
"$FARE_VENV/bin/python" build/make_tasks.py      # tasks.jsonl, facts.jsonl, memories/oracle.jsonl
"$FARE_VENV/bin/python" build/validate.py
