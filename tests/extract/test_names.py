"""What a change reaches, by name: attributes, module paths, call settings, definitions, classes.

These are the names a structural memory carries instead of code lines; each case is a shape real
sessions show (an instance's method, a relative import, a keyword switched on, an entry added to
a table, a call whose arguments changed).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from dreamer.extract.citations import CodeCiter, Hunk, enclosing_definition
from dreamer.extract.git_reader import GitReader
from dreamer.extract.names import bound_names, change_names, line_names


def _hunk(path: str, added: tuple[str, ...], removed: tuple[str, ...] = ()) -> Hunk:
    return Hunk(path, 1, len(removed), 1, len(added), added, removed, added)


def test_an_attribute_read_off_an_object_is_one_name() -> None:
    names = line_names("    when = to_zone(booking.start, patient.tz)")
    assert {"patient.tz", "to_zone"} <= names
    assert "os.path" not in line_names("    return os.path.join(a, b)")  # the standard library
    assert "cache.invalidate" in line_names("        self.cache.invalidate(pid, day_key(start))")


def test_a_relative_import_is_named_by_its_module_path() -> None:
    names = line_names("from .codes import TELEHEALTH_MODIFIER", "clinic/billing/invoice.py")
    assert {"clinic.billing.codes", "TELEHEALTH_MODIFIER"} <= names
    assert "clinic.util" in line_names("from ..util import x", "clinic/billing/invoice.py")


def test_a_module_imported_from_its_package_is_named_by_its_path_when_used_as_one() -> None:
    used = change_names([_hunk("app/claims.py", ("from app.billing import codes",
                                                 "    row = codes.MODIFIER"))])
    assert "app.billing.codes" in used.added
    called = change_names([_hunk("app/labels.py", ("from app.ids import make_id",
                                                   "    return make_id(order)"))])
    assert "app.ids.make_id" not in called.added  # a function, not a module
    assert called.added[:2] == ("app.ids", "make_id")


def test_a_keyword_set_to_a_constant_and_the_call_it_changes_are_named() -> None:
    change = change_names([_hunk("x/export.py", ('    "first": format_ts(first, millis=True),',),
                                 ('    "first": format_ts(first),',))])
    assert change.added == ("millis=True",)  # ``millis`` alone is a part of it
    assert "format_ts" in change.calls  # the call whose arguments changed


def test_what_a_change_binds_itself_ranks_last() -> None:
    assert bound_names("    for line, item in enumerate(items):") == {"line", "item"}
    assert bound_names("def f(a, b):") == {"a", "b"}
    assert bound_names("        modifiers=(X,),") == set()  # a keyword argument, not a local
    change = change_names([_hunk("a/b.py", ("    new_start = shift(start)",
                                            "    registry.touch(device_id, new_start)"))])
    assert change.added.index("new_start") > change.added.index("shift")
    assert change.added[-1] == "new_start"


def test_the_definition_a_changed_line_sits_in() -> None:
    source = ['X = 1', 'VISIT_CODES = {', '    "a": (1, 2),', '}', '', 'class Foo:',
              '    def bar(self):', '        y = 2']
    assert enclosing_definition(source, 3) == "VISIT_CODES"
    assert enclosing_definition(source, 8) == "bar"
    assert enclosing_definition(source, 1) == "X"


def test_an_instance_method_is_named_by_the_one_class_that_defines_it(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "registry.py").write_text(
        "class DeviceRegistry:\n    def touch(self, device, when):\n        pass\n\n"
        "    def status(self, device):\n        return 'OK'\n")
    (repo / "pkg" / "other.py").write_text("class Batch:\n    def status(self):\n"
                                           "        return 1\n")
    for args in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t",
                                                "commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    reader = GitReader(roots=[repo])
    citer = CodeCiter(reader, repo, (head,))
    assert citer.qualify(["registry.touch", "batch.status", "millis=True", "LIMIT"]) == [
        "DeviceRegistry.touch", "batch.status", "millis=True", "LIMIT"]  # status: two classes
    reader.close()


def test_a_rewritten_rule_names_what_its_lines_still_rely_on() -> None:
    change = change_names([_hunk("loans/fines.py",
                                 ("    if days <= GRACE_DAYS:", "        return 0",
                                  "    return min(days * DAILY_FINE_CENTS, FINE_CAP_CENTS)"),
                                 ("    chargeable = max(0, days - GRACE_DAYS)",
                                  "    return min(chargeable * DAILY_FINE_CENTS,"
                                  " FINE_CAP_CENTS)"))])
    assert change.added == ()  # nothing new is brought in
    assert {"GRACE_DAYS", "DAILY_FINE_CENTS", "FINE_CAP_CENTS"} <= set(change.relied)


def test_a_field_is_named_by_the_class_of_the_changed_files_package(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for folder, cls in (("timesheet", "TimeEntry"), ("reports", "ReportRow")):
        (repo / "payroll" / folder).mkdir(parents=True)
        (repo / "payroll" / folder / "rows.py").write_text(
            f"@dataclass\nclass {cls}:\n    emp_id: str\n    duration: int\n")
    (repo / "payroll" / "timesheet" / "totals.py").write_text("def daily_hours(e):\n    pass\n")
    for args in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t",
                                                "commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    reader = GitReader(roots=[repo])
    citer = CodeCiter(reader, repo, (head,))
    assert citer.qualify(["entry.duration"], near="payroll/timesheet/totals.py") == [
        "TimeEntry.duration"]
    assert citer.qualify(["row.duration"], near="payroll/reports/hours.py") == [
        "ReportRow.duration"]
    assert citer.qualify(["row.duration"]) == ["row.duration"]  # two classes, no package
    reader.close()
