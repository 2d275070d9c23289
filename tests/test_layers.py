"""The layout rules of issue 22, checked on the checkout's sources.

(a) A model class is named in code only in its own subpackage (``models/<family>/``;
    for the generator ``core/`` and the models built on it), the package root
    ``fastnoise/__init__.py``, the registry, and the command-line modules that exist
    for particular models (``cli/demo.py``, ``cli/bench.py``); tests and docs are not
    scanned. Everything else
    (io, dask, cuda, analysis, the rest of cli) reaches a model through the registry.
    The class names come from the registry (``registry.models()``), not from a list here.
    What counts as naming a class, in ``.py``/``.pyi`` files (read with ``ast``): a
    name or attribute spelled like the class (``ImageNoise``, ``fastnoise.ImageNoise``,
    also inside f-strings), an imported name, and a string constant that *is* the
    class's name or a dotted/colon path ending in it (``"pkg.mod:ImageNoise"``).
    Docstrings, comments and prose in messages are not matched. In Cython files
    (``.pyx``/``.pxd``, read with ``tokenize``) the NAME tokens are matched.
(b) The hand-kept model lists are gone, not wrapped around the registry: no
    ``MODELS``/``OPTIONS`` in io/suite, ``MODEL_CLASSES`` in io/sdf, ``MESSAGE_MODELS``
    in io/ros, ``CASES`` in tests/test_contract.py (assigned, read or imported), and no
    module imports them from there.
(c) import-linter's contracts (pyproject.toml ``[tool.importlinter]``: the layers
    cli > adapters > io | analysis > models > core, and no import cycles) hold.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import os
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

import fastnoise  # noqa: F401  (registers the built-in models)
from fastnoise.core import registry

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "fastnoise"
SUFFIXES = (".py", ".pyi", ".pyx", ".pxd")

# Python only (source layout and imports): it runs once, in the plain run; CI's
# scalar-path and sanitizer runs, which are there for the C code, leave it out
# (-m "not python_only").
pytestmark = [
    pytest.mark.python_only,
    pytest.mark.skipif(not SRC.is_dir(), reason="needs the source checkout"),
]

#: files that may name any model: the package root gathers the public API, the registry
#: holds the classes, and these commands exist to show or time particular models
ANYWHERE = ("__init__.py", "core/registry.py", "cli/demo.py", "cli/bench.py")


def _model_homes() -> dict[str, tuple[Path, ...]]:
    """Built-in model class name -> the folders whose code may name it: the subpackage
    that defines it, and for a class of the core (the generator) also the models,
    which are built on it (a Cython model cimports it)."""
    homes = {}
    for decl in registry.models():
        cls = decl.cls
        if cls is None or not cls.__module__.startswith("fastnoise."):
            continue  # a declaration without a class, or a plugin's model
        home = SRC.joinpath(*cls.__module__.split(".")[1:-1])
        homes[cls.__name__] = (home, SRC / "models") if home == SRC / "core" else (home,)
    return homes


def _is_path_to(text: str, names: set[str]) -> str | None:
    """The class a string names when it is exactly a class name or a dotted/colon path
    ending in one; None for prose."""
    if not re.fullmatch(r"[\w.:]+", text):
        return None
    last = re.split(r"[.:]", text)[-1]
    return last if last in names else None


def _python_names(path: Path, names: set[str]) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        hit = None
        if isinstance(node, ast.Name) and node.id in names:
            hit = node.id
        elif isinstance(node, ast.Attribute) and node.attr in names:
            hit = node.attr
        elif isinstance(node, ast.alias):
            for part in (node.name.split(".")[-1], node.asname):
                if part in names:
                    hit = part
        elif isinstance(node, ast.ClassDef) and node.name in names:
            hit = node.name
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            hit = _is_path_to(node.value, names)
        if hit is not None:
            found.append((getattr(node, "lineno", 0), hit))
    return found


def _cython_names(path: Path, names: set[str]) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    found = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.NAME and tok.string in names:
                found.append((tok.start[0], tok.string))
    except (tokenize.TokenError, IndentationError, SyntaxError) as exc:
        pytest.fail(f"{path.relative_to(ROOT)} does not tokenize: {exc}")
    return found


def _area(rel: Path) -> str:
    """The part of the package a file belongs to: its first folder, or its module name
    for a module of the package root."""
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _sources() -> list[Path]:
    return sorted(
        p for p in SRC.rglob("*") if p.suffix in SUFFIXES and "__pycache__" not in p.parts
    )


#: io, cli, cuda, dask, analysis, core, models, and the other modules of the package root
AREAS = sorted({_area(p.relative_to(SRC)) for p in _sources()} - {"__init__"})


@pytest.mark.parametrize("area", AREAS)
def test_models_are_named_only_in_their_own_subpackage(area):
    homes = _model_homes()
    assert {"ImageNoise", "LidarNoise", "ImuNoise", "GaussianNoiseGenerator"} <= set(homes)
    names = set(homes)
    bad = []
    for path in _sources():
        rel = path.relative_to(SRC)
        if _area(rel) != area or rel.as_posix() in ANYWHERE:
            continue
        scan = _python_names if path.suffix in (".py", ".pyi") else _cython_names
        for line, name in scan(path, names):
            if not any(path.is_relative_to(home) for home in homes[name]):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert not bad, (
        f"model classes named in code outside their own subpackage ({len(bad)}): reach "
        "them through fastnoise.core.registry (get(name).cls, the declaration's name) "
        "instead:\n" + "\n".join(sorted(set(bad)))
    )


# ---- (b) the hand-kept lists ---------------------------------------------------------

#: place (a package folder or a file) -> the list names that must be gone from it
HAND_KEPT = {
    "src/fastnoise/io/suite": ("MODELS", "OPTIONS"),
    "src/fastnoise/io/sdf": ("MODEL_CLASSES",),
    "src/fastnoise/io/ros": ("MESSAGE_MODELS",),
    "tests/test_contract.py": ("CASES",),
}


def _list_uses(path: Path, names: set[str]) -> list[tuple[int, str]]:
    """Where ``path`` assigns, reads or imports one of ``names`` (or lists it in
    ``__all__``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute) and node.attr in names:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.alias) and node.name in names:
            found.append((getattr(node, "lineno", 0), node.name))
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            for elt in getattr(node.value, "elts", ()):
                if isinstance(elt, ast.Constant) and elt.value in names:
                    found.append((elt.lineno, f"__all__ entry {elt.value!r}"))
    return found


def _files(place: Path) -> list[Path]:
    return [place] if place.is_file() else sorted(place.rglob("*.py"))


@pytest.mark.parametrize("place", sorted(HAND_KEPT))
def test_hand_kept_model_lists_are_gone(place):
    names = set(HAND_KEPT[place])
    where = ROOT / place
    assert where.exists(), f"{place} is missing"
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in _files(where)
        for line, name in _list_uses(path, names)
    ]
    assert not bad, (
        f"the hand-kept list(s) {sorted(names)} remain in {place}; enumerate "
        "fastnoise.core.registry.models() instead:\n" + "\n".join(bad)
    )


def test_no_module_imports_a_hand_kept_list():
    packages = {
        "fastnoise.io.suite": {"MODELS", "OPTIONS"},
        "fastnoise.io.sdf": {"MODEL_CLASSES"},
        "fastnoise.io.ros": {"MESSAGE_MODELS"},
    }
    bad = []
    for top in ("src", "tests", "tools", "bench", "examples"):
        for path in sorted((ROOT / top).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if not any(n in text for names in packages.values() for n in names):
                continue  # parse only the files that spell one of the names
            tree = ast.parse(text, filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.ImportFrom) or not node.module:
                    continue
                for pkg, names in packages.items():
                    if node.module == pkg or node.module.startswith(pkg + "."):
                        bad += [
                            f"{path.relative_to(ROOT)}:{node.lineno}: {a.name} from {node.module}"
                            for a in node.names
                            if a.name in names
                        ]
    assert not bad, "imports of hand-kept model lists:\n" + "\n".join(bad)


# ---- (c) import-linter -----------------------------------------------------------------


def test_import_linter_contracts_hold():
    if importlib.util.find_spec("importlinter") is None:
        pytest.skip("import-linter is not installed (pip install import-linter, or the lint extra)")
    script = Path(sys.executable).with_name("lint-imports")
    cmd = [str(script)] if script.exists() else ["lint-imports"]
    env = dict(os.environ)
    # the checkout's sources, as .ci/steps/30-lint.sh checks them
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    res = subprocess.run(
        [*cmd, "--no-cache", "--no-logo"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stdout[-6000:] + res.stderr[-2000:]
    assert "BROKEN" not in res.stdout and "KEPT" in res.stdout
