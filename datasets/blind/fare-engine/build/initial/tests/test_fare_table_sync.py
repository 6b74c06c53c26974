import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("gen_fare_table", ROOT / "tools" / "gen_fare_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fare_table_matches_csv():
    gen = _generator()
    csv_text = (ROOT / "data" / "fares.csv").read_text(encoding="utf-8")
    table = (ROOT / "fare_engine" / "fare_table.py").read_text(encoding="utf-8")
    assert table == gen.render(csv_text), "fare_engine/fare_table.py is out of date"
