from irrigation.config import load_settings


def test_env_overrides_file(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("IRRIGATION_SITE=GH2\nIRRIGATION_WEBHOOK_TOKEN=abc\n")
    settings = load_settings(env={"IRRIGATION_SITE": "GH3"}, path=env_file)
    assert settings.site_code == "GH3"
    assert settings.webhook_token == "abc"


def test_defaults(tmp_path):
    settings = load_settings(env={}, path=tmp_path / "missing")
    assert settings.site_code == "GH1"
