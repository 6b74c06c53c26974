from fleet.telematics.importer import parse_rows, rows_for_unit

FEED = """unit,ts,odo,speed
N-12,1709280000,84512345,0
S-210,1709280060,251000000,52.5
N-12,1709283600,84530845,61.0
"""


def test_parse_rows():
    rows = parse_rows(FEED)
    assert len(rows) == 3
    assert rows[0]["unit_no"] == "N-12"
    assert rows[1]["speed"] == 52.5


def test_rows_for_unit_sorted():
    rows = rows_for_unit(parse_rows(FEED), "N-12")
    assert [r["odo"] for r in rows] == [84512345, 84530845]
