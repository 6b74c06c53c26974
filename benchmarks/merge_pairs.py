"""Precision and recall of dedupe's merging on labelled pairs (a benchmark: figures printed).

Ingests and extracts each corpus (the committed sample and the blind corpora under
``datasets/blind/``) into a temporary store, labels every pair of extracted memories of one
repository as the same fact or different facts from the corpus's ground truth
(``evals.merge_pairs``), and prints, per corpus and in all, how dedupe's own decision fares at the
shipped ``same`` threshold and across a sweep of thresholds (the calibration).

    .venv/bin/python benchmarks/merge_pairs.py [CORPUS ...]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPOS = {"telemetry-ingest": "acme-iot/telemetry-ingest"}
"""Corpora whose agent format does not record the repository: what ``--repo`` says (the
corpus's manifest, ``sessions.jsonl``, says it for the others and gives the sessions' times and
commits)."""


def corpus_pairs(corpus: Path, home: Path) -> list:  # type: ignore[type-arg]
    from dreamer.extract import extract
    from dreamer.ingest import ingest_paths
    from dreamer.ingest.driver import Defaults, read_manifest
    from dreamer.store import open_store
    from evals.merge_pairs import labelled_pairs, session_facts

    store = open_store(f"sqlite:///{home / (corpus.name + '.db')}")
    manifest = corpus / "sessions.jsonl"
    rows = read_manifest(manifest) if manifest.is_file() else {}
    ingest_paths(store, [corpus / "sessions"], Defaults(repo=REPOS.get(corpus.name),
                                                        manifest=rows))
    result = extract(store, repo_roots=[corpus / "repos"])
    banks = [store.banks.get(b) for b in result.banks.values()]
    pairs = labelled_pairs(banks, session_facts(corpus))
    store.close()
    return pairs


def main(argv: list[str]) -> None:
    corpora = [Path(a) for a in argv] or [ROOT / "datasets" / "sample",
                                          *sorted((ROOT / "datasets" / "blind").glob("*/"))]
    corpora = [c for c in corpora if (c / "sessions.jsonl").is_file()]
    with tempfile.TemporaryDirectory(prefix="dreamer-pairs-") as tmp:
        os.environ["DREAMER_HOME"] = str(Path(tmp) / "home")
        from evals.merge_pairs import merge_scores, sweep

        everything = []
        print("corpus                pairs  same  merged  true  precision  recall")
        for corpus in corpora:
            pairs = corpus_pairs(corpus, Path(tmp))
            everything += pairs
            s = merge_scores(pairs)
            print(f"{corpus.name:<20} {s.pairs:6d} {s.same:5d} {s.merged:7d} {s.true_merges:5d}"
                  f"  {s.precision:9.3f}  {s.recall:6.3f}")
        s = merge_scores(everything)
        print(f"{'all':<20} {s.pairs:6d} {s.same:5d} {s.merged:7d} {s.true_merges:5d}"
              f"  {s.precision:9.3f}  {s.recall:6.3f}   (shipped threshold {s.threshold:.2f})")
        print("\nthreshold sweep over all pairs (the calibration):")
        print("threshold  merged  precision  recall")
        for t in sweep(everything, [0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]):
            print(f"{t.threshold:9.2f} {t.merged:7d}  {t.precision:9.3f}  {t.recall:6.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
