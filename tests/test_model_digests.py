"""Every model's output is pinned: SHA-256 digests of fixed cases (tools/pin_digests.py),
among them ``<name>/contract`` for every model class of the registry (its declaration's
exercise on its example), so a new model is pinned by ``--write`` with no edit.

The digests were computed on the commit recorded in tests/data/model_digests.json,
before the model-contract refactor. A refactor keeps every digest; a deliberate
stream change regenerates the file and adds a CHANGELOG line.
"""

import importlib.util
import json
from pathlib import Path

import pytest

from fastnoise.core import registry

ROOT = Path(__file__).resolve().parent.parent
PINNED = json.loads((ROOT / "tests" / "data" / "model_digests.json").read_text())


def _load_script():
    spec = importlib.util.spec_from_file_location("pin_digests", ROOT / "tools" / "pin_digests.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_CASES = dict(_load_script().all_cases())


def test_every_pinned_case_still_exists():
    assert sorted(_CASES) == sorted(PINNED["digests"])


def test_every_registered_model_has_a_pinned_case():
    pinned = set(PINNED["digests"])
    for decl in registry.models():
        if decl.cls is None or not decl.cls.__module__.startswith("fastnoise."):
            continue  # a table with no class draws nothing; plugins pin their own
        assert f"{decl.name}/contract" in pinned, f"{decl.name}: run tools/pin_digests.py --write"
        assert any(n == decl.name or n.startswith(decl.name + "/") for n in pinned)


def test_the_script_adds_digests_and_keeps_the_old_ones(tmp_path, monkeypatch):
    """--write adds the digest of a new case and leaves every old one and the commit
    they were pinned at as they were; a changed digest is refused without
    --stream-change."""
    mod = _load_script()
    old = dict(PINNED, digests={k: v for k, v in PINNED["digests"].items() if k != "air_pressure"})
    data = tmp_path / "digests.json"
    data.write_text(json.dumps(old, indent=1, sort_keys=True) + "\n")
    monkeypatch.setattr(mod, "DATA", data)
    monkeypatch.setattr(mod, "all_cases", lambda: list(_CASES.items()))
    monkeypatch.setattr("sys.argv", ["pin_digests.py", "--write"])
    assert mod.main() == 0
    assert json.loads(data.read_text()) == PINNED
    changed = dict(PINNED, digests={**PINNED["digests"], "air_pressure": "0" * 64})
    data.write_text(json.dumps(changed))
    assert mod.main() == 1
    assert json.loads(data.read_text()) == changed


@pytest.mark.parametrize("name", sorted(PINNED["digests"]))
def test_model_digest(name, simd_path):
    assert _CASES[name]() == PINNED["digests"][name]
