import pytest

from clinic.phone import normalize


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("(212) 555-0142", "+12125550142"),
        ("1-212-555-0142", "+12125550142"),
        ("+44 20 7946 0958", "+442079460958"),
    ],
)
def test_normalize(raw, expected):
    assert normalize(raw) == expected


def test_rejects_garbage():
    with pytest.raises(ValueError):
        normalize("call me")
