"""Commits made on main by developers, outside the recorded sessions."""
import subprocess
from pathlib import Path


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def service_day_0400(repo: Path) -> None:
    _replace(repo / "fare_engine/service_day.py", "SERVICE_DAY_START_HOUR = 3", "SERVICE_DAY_START_HOUR = 4")
    (repo / "tests/test_service_day.py").write_text(
        "from fare_engine.service_day import service_day\n"
        "\n"
        "from .helpers import at\n"
        "\n"
        "\n"
        "def test_service_day_boundary():\n"
        "    assert service_day(at(5, 3, 59)) == at(4, 12).date()\n"
        "    assert service_day(at(5, 4, 0)) == at(5, 12).date()\n"
        "    assert service_day(at(5, 23, 59)) == at(5, 12).date()\n"
    )
    _replace(repo / "CHANGELOG.md", "# Changelog\n", "# Changelog\n\n## Unreleased\n"
             "- The service day now starts at 04:00 instead of 03:00 (night network extension).\n")


def rename_rows_ingest(repo: Path) -> None:
    subprocess.run(["git", "mv", "fare_engine/reports/rows.py", "fare_engine/reports/ingest.py"],
                   cwd=repo, check=True)
    _replace(repo / "tests/test_reports.py", "from fare_engine.reports.rows import load_rows",
             "from fare_engine.reports.ingest import load_rows")
    _replace(repo / "CHANGELOG.md", "## Unreleased\n",
             "## Unreleased\n- `fare_engine/reports/rows.py` is now `fare_engine/reports/ingest.py`.\n")


def release_040(repo: Path) -> None:
    _replace(repo / "fare_engine/__init__.py", '__version__ = "0.3.0"', '__version__ = "0.4.0"')
    _replace(repo / "CHANGELOG.md", "## Unreleased\n",
             "## 0.4.0 - 2024-03-28\n"
             "- Zone 4 (Millbrook extension); zone 3 fare $3.90.\n"
             "- Validator API rejects stale taps.\n"
             "- Refunds refund what was paid and give it back to the daily cap.\n")


COMMITS = {
    "service-day-0400": dict(
        when="2024-03-25T09:30:00+00:00", apply=service_day_0400,
        message="Service day starts at 04:00 (night network extension)\n\n"
                "The night network now runs until 03:45, so the operating day that caps\n"
                "and reports are bucketed by ends at 04:00.",
    ),
    "rename-rows-ingest": dict(
        when="2024-03-27T15:10:00+00:00", apply=rename_rows_ingest,
        message="reports: rename rows.py to ingest.py",
    ),
    "release-0.4.0": dict(
        when="2024-03-28T11:00:00+00:00", apply=release_040,
        message="Release 0.4.0",
    ),
}
