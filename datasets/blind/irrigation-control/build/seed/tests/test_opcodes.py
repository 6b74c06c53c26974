from irrigation.tools import gen_opcodes
from irrigation.valves import _opcodes


def test_table_matches_source():
    text = gen_opcodes.SOURCE.read_text()
    assert _opcodes.SOURCE_DIGEST == gen_opcodes.digest(text)
    rows = gen_opcodes.parse(text)
    assert _opcodes.OPCODES == {name: code for name, code, _ in rows}
    assert _opcodes.ARGS == {name: args for name, _, args in rows}


def test_codes_unique():
    codes = list(_opcodes.OPCODES.values())
    assert len(codes) == len(set(codes))
