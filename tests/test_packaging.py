"""The code folders install as one namespace, solrec.*; the wheel holds every module."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT

CODE_FOLDERS = ("core", "events", "replay", "workflows", "cli", "server", "ai")


def modules_in_tree() -> set[str]:
    out = set()
    for folder in CODE_FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            if "__pycache__" not in path.parts:
                out.add("solrec/" + path.relative_to(ROOT).as_posix())
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    src = tmp_path_factory.mktemp("src")
    for name in (*CODE_FOLDERS, "pyproject.toml", "README.md"):
        item = ROOT / name
        if item.is_dir():
            shutil.copytree(item, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif item.exists():
            shutil.copy(item, src / name)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(src)],
        check=True,
        capture_output=True,
    )
    (path,) = out.glob("solrec-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_contains_every_module_of_the_four_folders(wheel):
    names = set(wheel.namelist())
    missing = sorted(modules_in_tree() - names)
    assert not missing, f"modules missing from the wheel: {missing}"


def test_the_wheel_has_no_generic_top_level_names(wheel):
    tops = {name.split("/")[0] for name in wheel.namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"solrec"}


def test_the_wheel_declares_the_console_script(wheel):
    (entry,) = [n for n in wheel.namelist() if n.endswith("entry_points.txt")]
    assert "solrec = solrec.cli.main:run" in wheel.read(entry).decode()


def test_the_installed_namespace_imports():
    import solrec.cli.main
    import solrec.core
    import solrec.events
    import solrec.replay

    assert Path(solrec.core.__file__).parent == ROOT / "core"
    assert solrec.cli.main.app is not None and solrec.events.Store and solrec.replay


def test_the_wheel_ships_the_component_data_of_solarius_mission(wheel):
    names = set(wheel.namelist())
    folder = ROOT / "core" / "solarius_mission" / "data"
    data = {"solrec/core/solarius_mission/data/" + p.relative_to(folder).as_posix() for p in folder.rglob("*.toml")}
    assert data and data <= names


def test_the_wheel_ships_the_learned_bots_models(wheel):
    names = set(wheel.namelist())
    models = {"solrec/ai/models/" + p.name for p in (ROOT / "ai" / "models").glob("*.zip")}
    assert models and models <= names
