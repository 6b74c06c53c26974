# Priya: the opcode generator is a maintenance script, not part of the package.
import subprocess

(ROOT / "scripts").mkdir(exist_ok=True)
subprocess.run(["git", "mv", "irrigation/tools/gen_opcodes.py", "scripts/gen_opcodes.py"], cwd=ROOT, check=True)
subprocess.run(["git", "rm", "-q", "irrigation/tools/__init__.py"], cwd=ROOT, check=True)

gen = ROOT / "scripts/gen_opcodes.py"
s = gen.read_text()
for old, new in [
    (
        'PACKAGE = Path(__file__).resolve().parent.parent\nSOURCE = PACKAGE / "valves" / "opcodes.csv"\nTARGET = PACKAGE / "valves" / "_opcodes.py"\n',
        'ROOT = Path(__file__).resolve().parent.parent\nSOURCE = ROOT / "irrigation" / "valves" / "opcodes.csv"\nTARGET = ROOT / "irrigation" / "valves" / "_opcodes.py"\n',
    ),
    ("TARGET.relative_to(PACKAGE.parent)", "TARGET.relative_to(ROOT)"),
]:
    assert old in s, old
    s = s.replace(old, new)
gen.write_text(s)

test = ROOT / "tests/test_opcodes.py"
s = test.read_text()
old = "from irrigation.tools import gen_opcodes\nfrom irrigation.valves import _opcodes\n"
assert old in s
s = s.replace(
    old,
    "import importlib.util\nfrom pathlib import Path\n\nfrom irrigation.valves import _opcodes\n\n"
    '_spec = importlib.util.spec_from_file_location(\n'
    '    "gen_opcodes", Path(__file__).resolve().parent.parent / "scripts" / "gen_opcodes.py"\n)\n'
    "gen_opcodes = importlib.util.module_from_spec(_spec)\n_spec.loader.exec_module(gen_opcodes)\n",
)
test.write_text(s)

readme = ROOT / "README.md"
s = readme.read_text()
s = s.replace("- `irrigation/reports/` – daily report\n", "- `irrigation/reports/` – daily report\n- `scripts/` – maintenance scripts\n")
readme.write_text(s)
