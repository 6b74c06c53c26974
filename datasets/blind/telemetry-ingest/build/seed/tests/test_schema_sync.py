from telemetry_ingest.tools.schemagen import SCHEMA_PATH, render_schema


def test_published_schema_is_up_to_date():
    assert SCHEMA_PATH.read_text() == render_schema()
