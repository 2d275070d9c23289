"""Property tests (hypothesis) of the shared paths: the generator's public calls, every
model's state and pickle path, the SDF reader and the sensor-suite reader.

The property everywhere: a call either raises ValueError, TypeError or OverflowError
naming what it refused (and changes nothing), or gives a valid result equal to the
reference path; inputs are never modified; the process never crashes. The per-model
kernels have their own suites (tests/test_fuzz_*.py).

``FASTNOISE_FUZZ_EXAMPLES`` sets the examples per test (default 60).
"""

from __future__ import annotations

import copy
import os
import pickle

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import fastnoise as fn  # noqa: E402
from fastnoise.core import registry  # noqa: E402
from fastnoise.core.model import _restore, registered_models  # noqa: E402

SETTINGS = settings(
    max_examples=int(os.environ.get("FASTNOISE_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
REFUSED = (ValueError, TypeError, OverflowError)

special_floats = st.sampled_from(
    [0.0, -0.0, 1.0, -1.0, 5e-324, 1e-308, 1e308, -1e308, np.inf, -np.inf, np.nan, 0.25]
)
numbers = st.one_of(
    special_floats,
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**70), 2**70),
    st.booleans(),
    st.just("1.0"),
    st.just(None),
    st.just(1 + 2j),
    st.just(np.float32(0.5)),
    st.just(np.datetime64("2020-01-01")),
)


# ---- the generator -----------------------------------------------------------------------


sizes = st.one_of(
    st.none(),
    st.integers(-2, 40),
    st.tuples(st.integers(0, 5), st.integers(0, 5)),
    st.just(2.0),
    st.just(True),
    st.just("3"),
    st.just((2, 1.5)),
)
dtypes = st.sampled_from([None, np.float64, np.float32, ">f8", np.int32, np.float16, "f8", bool])
loc_scale = st.one_of(numbers, st.lists(special_floats, min_size=1, max_size=4))


@SETTINGS
@given(loc=loc_scale, scale=loc_scale, size=sizes, dtype=dtypes, position=st.integers(0, 40))
def test_generator_normal(loc, scale, size, dtype, position):
    g = fn.GaussianNoiseGenerator(7)
    g.advance(position)
    before = g.state
    loc_in = copy.deepcopy(loc)
    try:
        out = g.normal(loc, scale, size, dtype=dtype)
    except REFUSED:
        assert g.state == before
        return
    assert loc == loc_in or (loc != loc)  # inputs untouched (NaN != NaN)
    arr = np.asarray(out)
    assert arr.dtype in (np.float64, np.float32)
    finite_in = np.all(np.isfinite(np.asarray(loc, float))) and np.all(
        np.isfinite(np.asarray(scale, float))
    )
    if finite_in:
        # loc + scale * z with |z| <= 6.66 can only overflow past the float's range
        with np.errstate(over="ignore"):
            big = np.max(np.abs(np.asarray(loc, float))) + 6.7 * np.max(np.asarray(scale, float))
        if big < np.finfo(arr.dtype).max:
            assert np.all(np.isfinite(arr))
    # the reference path: the same draws from a fresh generator at the same position
    ref = fn.GaussianNoiseGenerator(7)
    ref.advance(position)
    again = ref.normal(loc, scale, size, dtype=dtype)
    assert np.asarray(again).tobytes() == arr.tobytes()


outs = st.sampled_from(["f8", "f4", ">f8", "i4", "strided", "readonly", "list", "f8_2d"])


@SETTINGS
@given(kind=outs, n=st.integers(0, 50))
def test_generator_out(kind, n):
    g = fn.GaussianNoiseGenerator(3)
    base = np.zeros(2 * n + 1)
    out = {
        "f8": np.zeros(n),
        "f4": np.zeros(n, np.float32),
        ">f8": np.zeros(n, ">f8"),
        "i4": np.zeros(n, np.int32),
        "strided": base[::2],
        "readonly": np.zeros(n),
        "list": [0.0] * n,
        "f8_2d": np.zeros((n, 2)),
    }[kind]
    if kind == "readonly":
        out.flags.writeable = False
    try:
        got = g.standard_normal(out=out)
    except REFUSED:
        assert g.position == 0
        assert not np.any(base)
        return
    assert got is out
    ref = fn.GaussianNoiseGenerator(3).standard_normal(np.shape(out), dtype=out.dtype)
    assert np.array_equal(got, ref)


# ---- every model's state and pickle path --------------------------------------------------


json_values = st.recursive(
    st.one_of(numbers, st.text(max_size=5)),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=8,
)


def _leaf_paths(d, path=()):
    if isinstance(d, dict):
        yield path
        for k, v in d.items():
            yield from _leaf_paths(v, (*path, k))
    elif isinstance(d, list | tuple):
        yield path
        for i, v in enumerate(d):
            yield from _leaf_paths(v, (*path, i))
    else:
        yield path


def _replaced(state, path, value):
    t = copy.deepcopy(state)
    if not path:
        return value
    d = t
    for k in path[:-1]:
        if isinstance(d[k], tuple):
            d[k] = list(d[k])
        d = d[k]
    d[path[-1]] = value
    return t


@pytest.mark.parametrize("name", sorted(registered_models()))
def test_hostile_states_and_pickles(name):
    # each model's own contract example (its declaration), as the contract suite runs
    decl = registry.get(name)
    model = decl.example(decl.cls)
    decl.exercise(model)
    state = model.state
    extras = model._state_extras()
    paths = list(_leaf_paths(state))

    @SETTINGS
    @given(idx=st.integers(0, len(paths) - 1), value=json_values)
    def check(idx, value):
        tampered = _replaced(state, paths[idx], value)
        snapshot = copy.deepcopy(tampered)
        before = model.state
        try:
            model.state = tampered
        except REFUSED:
            assert model.state == before
        else:
            model.state = before  # accepted whole: put the original back
        assert tampered == snapshot or tampered != tampered  # not modified
        blob = pickle.dumps((_restore, (type(model), tampered, extras)))
        try:
            obj = pickle.loads(blob)
        except REFUSED:
            return
        except Exception as exc:  # the unpickling wrapper must not leak other errors
            raise AssertionError(f"unpickling raised {type(exc).__name__}: {exc}") from exc
        func, args = obj
        try:
            rebuilt = func(*args)
        except REFUSED:
            return
        assert type(rebuilt) is type(model)

    check()


# ---- the SDF reader ---------------------------------------------------------------------


noise_values = st.one_of(
    st.sampled_from(["0", "0.01", "-1", "nan", "inf", "1e400", "abc", "", " 2 ", "1e-320"]),
    st.text(max_size=6),
)
noise_types = st.sampled_from(["gaussian", "gaussian_quantized", "none", "Gaussian", "", "x"])
elements = st.sampled_from(
    [
        "mean",
        "stddev",
        "bias_mean",
        "bias_stddev",
        "precision",
        "dynamic_bias_stddev",
        "dynamic_bias_correlation_time",
        "bogus",
    ]
)


@SETTINGS
@given(
    ntype=noise_types,
    fields=st.lists(st.tuples(elements, noise_values), max_size=4),
    axis=st.sampled_from(["x", "y", "z", "w"]),
    group=st.sampled_from(["angular_velocity", "linear_acceleration", "orientation"]),
)
def test_sdf_noise_elements(ntype, fields, axis, group):
    from xml.sax.saxutils import escape

    body = "".join(f"<{k}>{escape(v)}</{k}>" for k, v in fields)
    sdf = (
        f'<sdf version="1.9"><model name="m"><link name="l"><sensor name="s" type="imu">'
        f'<imu><{group}><{axis}><noise type="{ntype}">{body}</noise></{axis}></{group}>'
        f"</imu></sensor></link></model></sdf>"
    )
    try:
        m = fn.from_sdf(sdf, seed=1)
    except REFUSED:
        return
    assert isinstance(m, fn.ImuNoise)
    w, a = m.step(np.zeros(3), np.zeros(3), 0.01)
    assert np.all(np.isfinite(w)) and np.all(np.isfinite(a))


@SETTINGS
@given(text=st.text(max_size=80))
def test_sdf_arbitrary_text(text):
    try:
        fn.from_sdf("<" + text, seed=1)
    except REFUSED:
        pass
    except OSError:
        pass  # not XML text is read as a path


# ---- the sensor-suite reader -----------------------------------------------------------


suite_values = st.one_of(numbers, st.text(max_size=6), st.lists(special_floats, max_size=4))


@SETTINGS
@given(
    model=st.sampled_from(["imu", "lidar", "range", "camera", "dvl", "nope", ""]),
    seed=st.one_of(st.integers(-5, 2**70), st.just("x"), st.just(1.5)),
    params=st.dictionaries(
        st.sampled_from(
            [
                "stddev",
                "mean",
                "distance_noise_stddev_base",
                "gyro",
                "min_range",
                "max_range",
                "bogus",
                "noise_stddev",
            ]
        ),
        suite_values,
        max_size=3,
    ),
)
def test_suite_files(tmp_path_factory, model, seed, params):
    import json

    pytest.importorskip("fastnoise.io.suite.suite")
    from fastnoise.io.suite.suite import load_suite

    doc = {"seed": seed, "topics": {"/t": {"model": model, **params}}}
    try:
        text = json.dumps(doc)
    except (TypeError, ValueError):
        return
    path = tmp_path_factory.mktemp("suite") / "suite.json"
    path.write_text(text)
    try:
        load_suite(path)
    except REFUSED:
        pass
