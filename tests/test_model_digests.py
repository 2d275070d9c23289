"""Every model's output is pinned: SHA-256 digests of fixed cases (tools/pin_digests.py).

The digests were computed on the commit recorded in tests/data/model_digests.json,
before the model-contract refactor. A refactor keeps every digest; a deliberate
stream change regenerates the file and adds a CHANGELOG line.
"""

import importlib.util
import json
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("name", sorted(PINNED["digests"]))
def test_model_digest(name, simd_path):
    assert _CASES[name]() == PINNED["digests"][name]
