# Valve controller opcode table.
SOURCE_DIGEST = "38562652fbf35cfd"

OPCODES = {
    "OPEN": 0x10,
    "CLOSE": 0x11,
    "STATUS": 0x20,
}

ARGS = {
    "OPEN": (("duration_s", "u16"),),
    "CLOSE": (),
    "STATUS": (),
}
