"""The documentation covers the public API (issue 29): every name in the ``__all__`` of
every public module is documented on a reference page, and every subcommand of the CLI
registry has its section, worked example and generated ``--help`` on the CLI page.

"Documented" is read from the reStructuredText sources, the way autodoc reads them: a
name listed by ``autosummary`` under a ``currentmodule``, named by ``autoclass`` /
``autofunction`` / ``autodata``, listed in an ``automodule``'s ``:members:`` or covered
by a bare ``:members:`` (which documents the module's ``__all__``). A name also counts
when the same object is documented under another module (the one that defines it, or
another that re-exports it: ``fastnoise.io.sdf.load.load_sensors`` is
``fastnoise.io.sdf.load_sensors``). The table of documented vs public names is printed
with ``pytest -s``."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

# Docs against the public names, no C code: the scalar-path and sanitizer runs leave it
# out (-m "not python_only").
pytestmark = pytest.mark.python_only

DOCS = Path(__file__).resolve().parents[1] / "docs"

#: The public modules: the top-level package, the adapters and the io entry points.
PUBLIC_MODULES = [
    "fastnoise",
    "fastnoise.analysis",
    "fastnoise.analysis.plots",
    "fastnoise.io.suite",
    "fastnoise.io.sdf",
    "fastnoise.io.files",
    "fastnoise.io.ros",
    "fastnoise.io.apply",
    "fastnoise.dask",
    "fastnoise.cuda",
    "fastnoise.ros2",
    "fastnoise.mujoco",
    "fastnoise.gym",
    "fastnoise.core.registry",
    "fastnoise.cli",
    "fastnoise.testing",
]
#: Modules whose import needs an optional extra that may be missing here.
EXTRA = {"fastnoise.dask": "dask", "fastnoise.gym": "gymnasium"}

_DIRECTIVE = re.compile(r"^(\s*)\.\. (\w+)::\s*(\S*)\s*$")
_OPTION = re.compile(r"^\s+:([\w-]+):\s*(.*)$")


def documented_names(docs: Path = DOCS) -> set[str]:
    """Fully qualified names the .rst sources under ``docs`` document."""
    found: set[str] = set()
    for path in sorted(docs.rglob("*.rst")):
        if "_build" in path.parts or "generated" in path.parts:
            continue
        lines = path.read_text("utf-8").splitlines()
        current = None
        i = 0
        while i < len(lines):
            m = _DIRECTIVE.match(lines[i])
            i += 1
            if not m:
                continue
            kind, arg = m.group(2), m.group(3)
            options: dict[str, str] = {}
            body: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                o = _OPTION.match(lines[i])
                if o:
                    options[o.group(1)] = o.group(2)
                elif lines[i].strip():
                    body.append(lines[i].strip())
                i += 1
            if kind in ("currentmodule", "module"):
                current = arg
            elif kind == "automodule":
                current = arg
                found.add(arg)
                if "members" in options:
                    listed = [n.strip() for n in options["members"].split(",") if n.strip()]
                    if not listed:  # a bare :members: documents the module's __all__
                        listed = list(getattr(importlib.import_module(arg), "__all__", []))
                    found.update(f"{arg}.{n}" for n in listed)
            elif kind in ("autoclass", "autofunction", "autodata", "autoexception"):
                found.add(arg if "." in arg or current is None else f"{current}.{arg}")
            elif kind == "autosummary" and current is not None:
                found.update(f"{current}.{n}" for n in body if re.fullmatch(r"[\w.]+", n))
    return found


def public_names() -> dict[str, list[str]]:
    names = {}
    for module in PUBLIC_MODULES:
        if module in EXTRA:
            pytest.importorskip(EXTRA[module])
        names[module] = list(importlib.import_module(module).__all__)
    return names


def is_documented(module: str, name: str, documented: set[str]) -> bool:
    """``module.name`` is documented under that name, or the same object is under
    another module's name (its defining module, or a module that re-exports it)."""
    if f"{module}.{name}" in documented:
        return True
    obj = getattr(importlib.import_module(module), name)
    for full in documented:
        where, _, last = full.rpartition(".")
        if last != name or not where:
            continue
        try:
            if getattr(importlib.import_module(where), name, None) is obj:
                return True
        except ImportError:
            continue
    return False


def test_every_public_name_is_documented():
    documented = documented_names()
    rows, missing = [], []
    for module, names in public_names().items():
        done = [n for n in names if is_documented(module, n, documented)]
        missing += [f"{module}.{n}" for n in names if n not in done]
        rows.append(f"{module:28} {len(done):3d} / {len(names):3d} documented")
    print("\n".join(["", "documented vs public names", *rows]))
    assert missing == []


def test_every_public_module_has_a_reference_page():
    documented = documented_names()
    pages = [m for m in PUBLIC_MODULES if m != "fastnoise" and m not in documented]
    assert pages == []


def test_the_check_sees_a_missing_name(tmp_path):
    # the check itself: the same pages with the analysis page listing one name only
    # miss the others
    for path in DOCS.rglob("*.rst"):
        if "_build" in path.parts or "generated" in path.parts:
            continue
        dst = tmp_path / path.relative_to(DOCS)
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(
            path.read_text("utf-8").replace(
                ".. automodule:: fastnoise.analysis\n   :members:\n",
                ".. automodule:: fastnoise.analysis\n   :members: fit_noise\n",
            ),
            "utf-8",
        )
    assert is_documented("fastnoise.analysis", "oadev", documented_names())
    assert not is_documented("fastnoise.analysis", "oadev", documented_names(tmp_path))


# ---- the CLI page ------------------------------------------------------------------------


def test_every_subcommand_has_its_page_section_and_worked_example():
    from fastnoise import cli

    names = sorted(cli.commands())
    pages = sorted(p.stem for p in (DOCS / "cli").glob("*.rst"))
    assert pages == names  # one page per registered subcommand, no stale one
    for name in names:
        text = (DOCS / "cli" / f"{name}.rst").read_text("utf-8")
        # a worked example: a shell session running the command
        assert re.search(rf"^\s+\$ fastnoise {name}\b", text, re.M), name
    cli_page = (DOCS / "cli.rst").read_text("utf-8")
    assert ".. include:: _generated/cli-commands.rst.inc" in cli_page


def test_the_generated_cli_sections_follow_the_registry(monkeypatch):
    # the generator (docs/_ext) makes one section per registered subcommand with its
    # --help, and refuses a subcommand without a page under docs/cli/
    pytest.importorskip("sphinx")
    import sys

    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    sys.modules.pop("fastnoise_docs", None)
    import fastnoise_docs

    from fastnoise import cli

    text = fastnoise_docs.cli_sections()
    for name in cli.commands():
        assert f".. include:: /cli/{name}.rst" in text
        assert f"_generated/cli-{name}.txt" in text
    extra = cli.Command("zzz-new", "a new subcommand", lambda p: None, lambda a: 0)
    with pytest.raises(ValueError, match=r"zzz-new.*docs/cli/zzz-new\.rst"):
        fastnoise_docs.cli_sections({**cli.commands(), "zzz-new": extra})
