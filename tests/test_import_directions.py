"""The data takes one road (frame -> vision -> ... -> referee), and each stage knows nothing
of the stages after it, nor of the lab. Every import is checked, those inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
RUNTIME = ("rules", "vision", "sim", "cards", "record", "report", "fonts", "tracker", "loop", "device", "ui", "demo")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The companion modules ``path`` imports, as absolute names."""
    name = _module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                if node.module:
                    found.add(".".join(base + [node.module]))
                else:  # from . import a, b: each name may be a module
                    found.update(".".join(base + [alias.name]) for alias in node.names)
            elif node.module and node.module.split(".")[0] == "companion":
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "companion")
    return found


def _stage(module: str) -> str:
    """The top-level part of the package a module belongs to: ``rules``, ``vision``, ``cards``..."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


MODULES = {_module_name(path): _imports(path) for path in sorted(PACKAGE.rglob("*.py"))}


def _stages_imported_by(stage: str) -> set[str]:
    imported = {_stage(target) for module, targets in MODULES.items() if _stage(module) == stage for target in targets}
    return imported - {stage}


def test_the_modules_were_found():
    assert {"companion.rules.game", "companion.vision.table_reader", "companion.bench.vision"} <= MODULES.keys()


def test_the_rules_engine_imports_only_the_cards():
    assert _stages_imported_by("rules") <= {"cards"}


@pytest.mark.parametrize("forbidden", ["sim", "bench", "rules", "record", "cli"])
def test_vision_knows_nothing_of_the_simulator_the_rules_or_the_lab(forbidden):
    assert forbidden not in _stages_imported_by("vision")


def test_the_tracker_knows_only_the_cards():
    assert _stages_imported_by("tracker") <= {"cards"}


def test_the_loop_knows_the_rules_and_the_tracker_but_no_camera_reader_or_device():
    assert _stages_imported_by("loop") <= {"cards", "rules", "record", "tracker"}


def test_the_screens_know_no_hardware_camera_or_tracker():
    assert _stages_imported_by("ui") <= {"cards", "rules", "loop", "fonts"}


def test_no_stage_before_the_loop_knows_of_it():
    for stage in ("cards", "rules", "vision", "tracker", "record"):
        assert not {"loop", "device", "ui"} & _stages_imported_by(stage), stage


def test_nothing_in_the_runtime_imports_the_lab():
    offenders = sorted(module for module, targets in MODULES.items()
                       if _stage(module) in RUNTIME and any(_stage(target) == "bench" for target in targets))
    assert offenders == []


def test_no_benchmark_or_evaluation_lives_in_a_runtime_package():
    lab_like = ("bench", "evaluate", "tesseract")
    offenders = sorted(module for module in MODULES
                       if _stage(module) in RUNTIME and any(word in module.rsplit(".", 1)[-1] for word in lab_like))
    assert offenders == []


def test_only_the_command_line_and_the_lab_print():
    """Diagnostics go to ``logging`` (journald on the device); the ``elfer`` command and the
    lab's reports are the only places that write to the terminal."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if _stage(_module_name(path)) in ("cli", "bench"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                offenders.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert offenders == []


def test_no_name_a_package_exports_hides_one_of_its_modules():
    """``from companion.vision import calibration`` must give the module even though the
    package exports functions: an export named like a module would shadow it."""
    import importlib
    import inspect

    for init in sorted(PACKAGE.rglob("__init__.py")):
        package = importlib.import_module(_module_name(init))
        for module in sorted(init.parent.glob("*.py")):
            if module.name == "__init__.py" or not hasattr(package, module.stem):
                continue
            importlib.import_module(f"{package.__name__}.{module.stem}")
            assert inspect.ismodule(getattr(package, module.stem)), f"{package.__name__}.{module.stem}"


def test_every_name_the_simulator_exports_can_be_had():
    """``companion.sim`` loads its names on first use; each must exist where it says."""
    import companion.sim

    for name in companion.sim.__all__:
        assert getattr(companion.sim, name) is not None, name
    with pytest.raises(AttributeError):
        companion.sim.no_such_name
