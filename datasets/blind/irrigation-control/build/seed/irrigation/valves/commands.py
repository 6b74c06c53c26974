from dataclasses import dataclass

from irrigation.valves._opcodes import ARGS, OPCODES

HEADER = 0xA5
_SIZES = {"u8": 1, "u16": 2}


class FrameError(ValueError):
    pass


def _checksum(body):
    return sum(body) & 0xFF


def encode(name, address, *values):
    if name not in OPCODES:
        raise KeyError(f"unknown opcode {name}")
    spec = ARGS[name]
    if len(values) != len(spec):
        raise TypeError(f"{name} takes {len(spec)} argument(s), got {len(values)}")
    if not 1 <= address <= 32:
        raise FrameError(f"valve address out of range: {address}")
    body = [OPCODES[name], address]
    for (arg, kind), value in zip(spec, values):
        size = _SIZES[kind]
        if not 0 <= value < 256 ** size:
            raise FrameError(f"{arg}={value} does not fit {kind}")
        body.extend(int(value).to_bytes(size, "big"))
    return bytes([HEADER, *body, _checksum(body)])


def decode(frame):
    if len(frame) < 4 or frame[0] != HEADER:
        raise FrameError("bad frame header")
    body, check = frame[1:-1], frame[-1]
    if _checksum(body) != check:
        raise FrameError("bad checksum")
    names = {code: name for name, code in OPCODES.items()}
    if body[0] not in names:
        raise FrameError(f"unknown opcode 0x{body[0]:02X}")
    name = names[body[0]]
    address = body[1]
    values = []
    pos = 2
    for _, kind in ARGS[name]:
        size = _SIZES[kind]
        values.append(int.from_bytes(body[pos:pos + size], "big"))
        pos += size
    if pos != len(body):
        raise FrameError("trailing bytes in frame")
    return name, address, tuple(values)


@dataclass(frozen=True)
class ValveCommand:
    valve: int
    seconds: int

    def encode(self):
        return encode("OPEN", self.valve, self.seconds)


def close(valve):
    return encode("CLOSE", valve)


def status(valve):
    return encode("STATUS", valve)
