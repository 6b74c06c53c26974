# Jonas: pump controller firmware 3.2 raises the per-OPEN run limit to 900 s.
planner = ROOT / "irrigation/schedule/planner.py"
s = planner.read_text()
assert "MAX_RUN_S = 600\n" in s
planner.write_text(s.replace("MAX_RUN_S = 600\n", "MAX_RUN_S = 900\n"))

tests = ROOT / "tests/test_planner.py"
s = tests.read_text()
for old, new in [
    ("    assert split_run(1412) == [600, 600, 212]\n", "    assert split_run(1412) == [900, 512]\n"),
    ("    assert split_run(1200) == [600, 600]\n", "    assert split_run(1800) == [900, 900]\n    assert split_run(900) == [900]\n"),
    ("    assert [c.seconds for c in commands] == [600, 600, 212]\n", "    assert [c.seconds for c in commands] == [900, 512]\n"),
]:
    assert old in s, old
    s = s.replace(old, new)
tests.write_text(s)
