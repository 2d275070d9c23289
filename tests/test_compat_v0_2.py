"""Pickles and saved states written by fastnoise 0.2.0 (tests/data/v0_2/models.json,
made by 0.2.0 itself from the contract cases) still load, and continue their streams
bit for bit: the next three outputs hash to what 0.2.0 computed. Old module paths that
0.3 moved (0.2 pickles name them) load through fastnoise.core.moved with a
DeprecationWarning that names the new path."""

import base64
import hashlib
import json
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest

import fastnoise  # noqa: F401  (registers every model)
from fastnoise.core import registry

# Python only (0.2 states and pickles, read by the state code that test_contract.py
# runs everywhere): it runs once, in the plain run; CI's scalar-path and sanitizer runs,
# which are there for the C code, leave it out (-m "not python_only").
pytestmark = pytest.mark.python_only

DATA = json.loads((Path(__file__).parent / "data" / "v0_2" / "models.json").read_text())
MODELS = DATA["models"]


#: What 0.3 renamed in the params of a 0.2 state (CHANGELOG, "Deprecated"), per model:
#: written out here, not taken from fastnoise, so the test checks the rename itself.
RENAMED_0_3 = {
    "imu": {
        "bias_stddev": "gauss_markov_stddev",
        "bias_correlation_time": "gauss_markov_correlation_time",
        "bias_steady_state": "gauss_markov_steady_state",
    },
    "augmented_white_noise": {"noise_dev": "noise_stddev"},
    "dvl_simulator": {"noise_dev": "noise_stddev"},
}


#: Models whose position 0.3 gave a frame counter (docs/conventions.rst, rule 7): their
#: 0.2 states hold an empty position, which loads as frame 0.
FRAME_COUNTER_0_3 = {"lidar", "range", "carla_lidar"}


# params added after 0.3, with the default that keeps the 0.2 bits
ADDED_LATER = {"depth": {"uniform_floor": None}, "range": {"nan_range": None}}


def _in_0_3_names(name, state):
    """A 0.2 state with the keys of its params that 0.3 renamed spelled the new way (and
    the frame counter 0.3 added, at frame 0; params added since, at their defaults)."""
    renames = RENAMED_0_3.get(name, {})

    def walk(v):
        if isinstance(v, dict):
            return {renames.get(k, k): walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    position = state["position"]
    if name in FRAME_COUNTER_0_3:
        assert position == {}
        position = {"frame": 0}
    params = {**walk(state["params"]), **ADDED_LATER.get(name, {})}
    return {**state, "params": params, "position": position}


def _check_warnings(name, caught):
    """Only the notices a 0.2 artifact should give: a moved module path, and each key of
    RENAMED_0_3 that the state holds, named with its new spelling."""
    notes = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    for note in notes:
        assert "moved to fastnoise." in note or "is deprecated: use" in note, note
    held = json.dumps(MODELS[name]["state"]["params"])
    for old, new in RENAMED_0_3.get(name, {}).items():
        if f'"{old}"' in held:
            assert any(repr(old) in n and repr(new) in n for n in notes), (old, notes)


def _next3(decl, m):
    h = hashlib.sha256()
    for _ in range(3):
        a = np.ascontiguousarray(np.asarray(decl.exercise(m)))
        h.update(a.dtype.str.encode())
        h.update(a.tobytes())
    return h.hexdigest()


def test_the_artifacts_cover_every_0_2_model():
    assert DATA["fastnoise"] == "0.2.0"
    assert len(MODELS) == 18
    assert set(MODELS) <= set(registry.names())


@pytest.mark.parametrize("name", sorted(MODELS))
def test_a_0_2_pickle_loads_and_continues_bit_for_bit(name):
    decl = registry.get(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = pickle.loads(base64.b64decode(MODELS[name]["pickle"]))
    assert type(m) is decl.cls
    _check_warnings(name, caught)
    assert json.loads(json.dumps(m.state)) == _in_0_3_names(name, MODELS[name]["state"])
    if name == "sensor_simulator":  # the pickled source is the body it reads
        m = type(m).from_state(m.state, source=m.source.copy())
    assert _next3(decl, m) == MODELS[name]["next3_sha256"]


@pytest.mark.parametrize("name", sorted(MODELS))
def test_a_0_2_state_loads_and_continues_bit_for_bit(name):
    decl = registry.get(name)
    state = MODELS[name]["state"]
    extras = {}
    if name == "sensor_simulator":
        source = pickle.loads(base64.b64decode(MODELS[name]["pickle"])).source
        extras = {"source": source}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = decl.cls.from_state(state, **extras)
    _check_warnings(name, caught)
    assert _next3(decl, m) == MODELS[name]["next3_sha256"]


def test_an_old_module_path_warns_and_names_the_new_one():
    import importlib
    import sys

    sys.modules.pop("fastnoise.models.range_noise", None)
    with pytest.warns(DeprecationWarning, match=r"fastnoise\.models\.lidar\.range_noise"):
        old = importlib.import_module("fastnoise.models.range_noise")
    assert old.RangeNoise is fastnoise.RangeNoise
