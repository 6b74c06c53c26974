import pytest

from irrigation.valves.commands import FrameError, ValveCommand, close, decode, encode, status


def test_encode_open():
    assert encode("OPEN", 3, 300) == bytes([0xA5, 0x10, 0x03, 0x01, 0x2C, 0x40])


def test_roundtrip():
    frame = ValveCommand(4, 1200).encode()
    assert decode(frame) == ("OPEN", 4, (1200,))
    assert decode(close(2)) == ("CLOSE", 2, ())
    assert decode(status(7)) == ("STATUS", 7, ())


def test_bad_checksum():
    frame = bytearray(close(2))
    frame[-1] ^= 0xFF
    with pytest.raises(FrameError):
        decode(bytes(frame))


def test_value_range():
    with pytest.raises(FrameError):
        encode("OPEN", 1, 70000)
    with pytest.raises(FrameError):
        encode("CLOSE", 0)
