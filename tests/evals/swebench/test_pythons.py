"""The spec's interpreter among the machine's: pyenv, uv, the PATH; never a virtual env."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from evals.errors import EnvironmentBuildError
from evals.swebench import pythons
from evals.swebench.pythons import find_python


def test_a_base_interpreter_of_the_wanted_version_is_found() -> None:
    wanted = f"{sys.version_info[0]}.{sys.version_info[1]}"
    found = find_python(wanted)
    assert found.version.startswith(wanted + ".")
    assert not found.path.startswith(sys.prefix)  # never dreamer's own venv


def test_pyenv_versions_are_searched_highest_patch_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for version in ("3.9.2", "3.9.18", "3.10.1"):
        (tmp_path / "versions" / version / "bin").mkdir(parents=True)
        (tmp_path / "versions" / version / "bin" / f"python{version[:-2].rstrip('.')}").touch()
    probed: list[str] = []
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path))
    monkeypatch.setattr(pythons, "_probe", lambda path, wanted, by: probed.append(path))
    assert pythons._from_pyenv("3.9") is None
    assert probed[0].endswith("3.9.18/bin/python3.9")


def test_a_missing_version_is_an_infrastructure_error_naming_it() -> None:
    with pytest.raises(EnvironmentBuildError) as err:
        find_python("2.5")
    assert err.value.reason == "python 2.5 unavailable"
    assert "pyenv install 2.5" in err.value.detail
