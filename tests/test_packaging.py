"""The package list in pyproject.toml is written by hand: nothing under companion/ may be left out."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_under_companion_is_installed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "companion").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found <= listed, f"add to pyproject.toml: {sorted(found - listed)}"
    assert "companion.calibration" in listed


def test_bundled_fonts_and_profiles_are_package_data():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert any("ttf" in pattern for pattern in data["companion"])
    assert any("json" in pattern for pattern in data["companion.calibration"])
