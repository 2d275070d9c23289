"""Property tests of every public call of ImuNoise and TriadNoise under hostile input:
odd shapes, dtypes, byte orders, strides, alignment, read-only and aliased ``out_``
arrays, special floats, steps and timestamps at the ends of the doubles, counters
near 2**64, hostile parameters, states and pickles.

Each call either raises ValueError/TypeError/OverflowError naming what is wrong (and
leaves the model as it was), or returns a result equal, bit for bit, to the same call
on plain contiguous native-endian float64 copies of its inputs (made on a copy of the
model), finite wherever those inputs are finite; inputs are never modified unless
passed as ``out_``; nothing crashes.

FASTNOISE_FUZZ_EXAMPLES sets the examples per test (default 60, a few seconds in
all); a long run: ``FASTNOISE_FUZZ_EXAMPLES=5000 pytest tests/test_fuzz_imu.py``.
"""

from __future__ import annotations

import copy
import copyreg
import math
import os
import pickle
import warnings

import numpy as np
import pytest
from _fuzz_support import LAYOUTS, fill, zeros_in_layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastnoise.models.imu.imu_noise import ImuNoise
from fastnoise.models.imu.triad import TriadNoise, triad_covariance, wt901c

FUZZ = settings(
    max_examples=int(os.environ.get("FASTNOISE_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LAST = 2**64 - 1
ERRORS = (ValueError, TypeError, OverflowError)

# ---- strategies ---------------------------------------------------------------------

SPECIAL = [
    0.0,
    -0.0,
    5e-324,
    -2.2250738585072014e-308,
    1.0,
    -7.25,
    1e150,
    -1e150,
    1e299,
    -6.6e299,
    1e300,
    1.0000000000000002e300,
    1e308,
    -1.7976931348623157e308,
    math.inf,
    -math.inf,
    math.nan,
]
floats = st.one_of(st.sampled_from(SPECIAL), st.floats(-1e3, 1e3, allow_nan=False))
REAL_DTYPES = ["<f8", ">f8", "<f4", ">f4", "<f2", "<i4", ">i8", "u1"]
BAD_DTYPES = ["?", "<c16", "O", "M8[s]", "m8[s]", "U3"]


@st.composite
def arrays(draw, shape, dtypes):
    """An array of shape and one of dtypes: contiguous, strided, reversed, unaligned
    or read-only (the same values whichever)."""
    dt = np.dtype(draw(st.sampled_from(dtypes)))
    n = int(np.prod(shape))
    kind = draw(st.sampled_from(LAYOUTS))
    arr = zeros_in_layout(kind, n, dt).reshape(shape)
    k = min(n, 12)
    fill(arr, draw(st.lists(floats, min_size=k, max_size=k)) * (n // max(k, 1) + 1))
    if kind == "readonly":
        arr.flags.writeable = False
    return arr


def vectors(allow_bad=True):
    """A length-3 input of step: a list, a tuple or an array (any layout)."""
    dtypes = REAL_DTYPES + (BAD_DTYPES if allow_bad else [])
    return st.one_of(
        st.lists(floats, min_size=3, max_size=3),
        st.tuples(floats, floats, floats),
        arrays((3,), dtypes),
        *(
            [
                st.sampled_from(
                    [[1.0, 2.0], [[0.0], 0.0, 0.0], "abc", None, [True, 0.0, 0.0], [1j, 0, 0]]
                )
            ]
            if allow_bad
            else []
        ),
    )


steps_ = st.one_of(
    st.sampled_from(
        [0.01, 1e-3, 5e-324, 1e-301, 1e-300, 1e308, 1.0, 0.0, -0.01, math.nan, math.inf]
    ),
    st.floats(1e-6, 10.0),
    st.sampled_from(
        [True, 1, np.float32(0.02), np.int64(2), np.timedelta64(1, "s"), 1j, "0.01", None]
    ),
)


def _model(kind, seed=7):
    if kind == "wt901c":
        g, a = wt901c()
        return ImuNoise(gyro=g, accel=a, seed=seed)
    if kind == "full":
        t = dict(
            noise_density=1e-3,
            noise_stddev=2e-4,
            bias=0.01,
            turn_on_bias_mean=0.05,
            turn_on_bias_stddev=0.01,
            gauss_markov_stddev=3e-3,
            gauss_markov_correlation_time=50.0,
            random_walk_density=1e-4,
            scale_factor=1e-3,
            misalignment=[[0, 1e-3, 0], [0, 0, 1e-3], [1e-3, 0, 0]],
        )
        return ImuNoise(
            gyro=dict(t, g_sensitivity=1e-3, resolution=1e-4),
            accel=dict(t, full_scale=40.0, bits=12),
            seed=seed,
        )
    if kind == "huge":  # parameters at their bounds
        t = dict(
            noise_stddev=1e150,
            noise_density=1e150,
            bias=1e150,
            random_walk_density=1e150,
            gauss_markov_stddev=1e150,
            gauss_markov_correlation_time=1e-300,
        )
        return ImuNoise(gyro=t, accel=dict(t, scale_factor=1e150, resolution=1e-150), seed=seed)
    return ImuNoise(seed=seed)


models = st.sampled_from(["plain", "wt901c", "full", "huge"])


@st.composite
def positioned(draw):
    """A model, sometimes with its counters or bias states near their ends."""
    m = _model(draw(models))
    where = draw(st.sampled_from(["start", "count", "stream", "bias"]))
    if where != "start":
        s = m.state
        p = s["position"]
        if where == "count":
            p["sample_count"] = draw(st.sampled_from([LAST, LAST - 1, LAST - 600]))
        elif where == "stream":
            a, t = draw(st.integers(0, 5)), draw(st.integers(0, 2))
            p["stream_positions"][a][t] = draw(st.sampled_from([LAST, LAST - 3, LAST - 1000]))
        else:
            p["random_walk"][1][2] = draw(st.sampled_from([1e300, -9.99e299, 1e290]))
            p["gauss_markov"][0][0] = draw(st.sampled_from([-1e300, 1e299]))
        m.state = s
    return m


def _plain(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array(x, dtype=np.float64, order="C")


def _snap(x):
    if isinstance(x, np.ndarray):
        if x.dtype.hasobject:
            return x.dtype, x.shape, x.tolist()
        return x.dtype, x.shape, np.array(x, copy=True).tobytes()
    return copy.deepcopy(x)


def _same(a, b):
    return np.array_equal(np.asarray(a).view(np.uint64), np.asarray(b).view(np.uint64))


NAMES = (
    "omega",
    "accel",
    "dt",
    "timestamps",
    "out_omega",
    "out_accel",
    "sample_count",
    "stream",
    "bias",
    "noise_density",
)


def _named(exc):
    assert any(k in str(exc) for k in NAMES), f"{type(exc).__name__} names nothing: {exc}"


def _finite_rows(*inputs):
    """Rows where every true value of the sample is finite."""
    return np.all(np.concatenate([np.isfinite(_plain(x)).reshape(-1, 3) for x in inputs], 1), 1)


# ---- step ---------------------------------------------------------------------------


@FUZZ
@given(
    m=positioned(),
    w=vectors(),
    a=vectors(),
    dt=steps_,
    outs=st.sampled_from(
        ["none", "fresh", "w-in-place", "swapped", "overlap-outs", "big-endian", "readonly"]
    ),
)
def test_step(m, w, a, dt, outs):
    before, w0, a0 = m.state, _snap(w), _snap(a)
    ow = oa = None
    if outs == "fresh":
        ow, oa = np.full(3, 9.0), np.full(3, 9.0)
    elif outs == "w-in-place" and isinstance(w, np.ndarray):
        ow = w
    elif outs == "swapped" and isinstance(w, np.ndarray) and isinstance(a, np.ndarray):
        ow, oa = a, w
    elif outs == "overlap-outs":
        buf = np.zeros(5)
        ow, oa = buf[:3], buf[2:]
    elif outs == "big-endian":
        ow = np.zeros(3, ">f8")
    elif outs == "readonly":
        oa = np.zeros(3)
        oa.flags.writeable = False
    ref = m.copy()
    try:
        rw, ra = m.step(w, a, dt, out_omega=ow, out_accel=oa)
    except ERRORS as exc:
        _named(exc)
        assert m.state == before
        return
    want = ref.step(_plain(_value(w0, w)), _plain(_value(a0, a)), dt)
    assert _same(rw, want[0]) and _same(ra, want[1])
    if ow is not None:
        assert rw is ow
    if _finite_rows(_value(w0, w), _value(a0, a)).all():
        assert np.all(np.isfinite(rw)) and np.all(np.isfinite(ra))
    for x, x0 in ((w, w0), (a, a0)):
        if isinstance(x, np.ndarray) and x is not ow and x is not oa:
            assert _snap(x) == x0  # an input not passed as out_ is untouched
    assert m.state == ref.state


def _value(snap, x):
    """The values x had before the call (from its snapshot)."""
    if isinstance(x, np.ndarray):
        dt, shape, raw = snap
        if isinstance(raw, list):
            return np.array(raw, dtype=dt).reshape(shape)
        return np.frombuffer(raw, dtype=dt).reshape(shape)
    return snap


# ---- apply --------------------------------------------------------------------------


@st.composite
def recordings(draw):
    n = draw(st.one_of(st.integers(0, 3), st.integers(4, 700), st.just(1500)))
    dtypes = REAL_DTYPES + BAD_DTYPES if draw(st.integers(0, 9)) == 0 else REAL_DTYPES
    return draw(arrays((n, 3), dtypes)), draw(arrays((n, 3), REAL_DTYPES)), n


@st.composite
def timing(draw, n):
    how = draw(st.sampled_from(["scalar", "array", "timestamps", "bad"]))
    if how == "scalar":
        return {"dt": draw(steps_)}
    if how == "array":
        d = draw(arrays((n,), REAL_DTYPES))
        if draw(st.booleans()):
            d = np.abs(_plain(d)) + 1e-3  # mostly valid steps
        return {"dt": d}
    if how == "timestamps":
        base = draw(st.sampled_from([0.0, -1.7e308, 1e300, 1e9]))
        step = draw(st.sampled_from([0.01, 1e-12, 1e308, 1e292]))
        with np.errstate(over="ignore"):
            return {"timestamps": base + step * np.arange(n)}
    return draw(
        st.sampled_from(
            [{}, {"dt": 0.01, "timestamps": np.zeros(n)}, {"dt": np.zeros(n + 1) + 0.01}]
        )
    )


@FUZZ
@given(
    m=positioned(),
    rec=recordings(),
    data=st.data(),
    outs=st.sampled_from(
        ["none", "fresh", "in-place", "swapped", "shifted", "overlap-dt", "same-out", "bad"]
    ),
)
def test_apply(m, rec, data, outs):
    w, a, n = rec
    kw = data.draw(timing(n))
    before, w0, a0 = m.state, _snap(w), _snap(a)
    kw0 = {k: _snap(v) for k, v in kw.items()}
    buf = None
    if outs == "fresh":
        kw.update(out_omega=np.full((n, 3), 9.0), out_accel=np.full((n, 3), 9.0))
    elif outs in ("in-place", "swapped") and w.flags.writeable and a.flags.writeable:
        try:
            if outs == "in-place":
                kw.update(out_omega=w, out_accel=a)
            else:
                kw.update(out_omega=a, out_accel=w)
        except Exception:  # pragma: no cover
            pass
    elif outs == "shifted":
        buf = np.zeros((n + 1, 3))
        buf[:n] = _plain(w) if w.dtype.kind in "fiu" else 0.0
        w, w0 = buf[:n], _snap(buf[:n])
        kw.update(out_omega=buf[1:])
    elif outs == "overlap-dt" and "dt" in kw:
        space = np.zeros(4 * n + 8)
        space[: max(n, 1)] = 0.01
        kw["dt"] = space[:n] if n > 1 else 0.01
        kw0["dt"] = _snap(kw["dt"])
        kw.update(out_accel=space[n // 2 : n // 2 + 3 * n].reshape(n, 3))
    elif outs == "same-out":
        o = np.zeros((n, 3))
        kw.update(out_omega=o, out_accel=o)
    elif outs == "bad":
        kw.update(
            out_omega=data.draw(
                st.sampled_from(
                    [np.zeros((n, 3), ">f8"), np.zeros((n, 3), np.float32), np.zeros((n, 4)), [0.0]]
                )
            )
        )
    ref = m.copy()
    try:
        got = m.apply(w, a, **kw)
    except ERRORS as exc:
        _named(exc)
        assert m.state == before
        return
    plain = {
        k: _plain(_value(kw0[k], v)) if k in ("dt", "timestamps") and np.ndim(v) else v
        for k, v in kw.items()
        if not k.startswith("out_")
    }
    wv, av = _value(w0, w), _value(a0, a)
    want = ref.apply(_plain(wv), _plain(av), **plain)
    assert _same(got[0], want[0]) and _same(got[1], want[1])
    assert m.state == ref.state
    rows = _finite_rows(wv, av)
    assert np.all(np.isfinite(got[0][rows])) and np.all(np.isfinite(got[1][rows]))
    outs_given = {id(kw.get("out_omega")), id(kw.get("out_accel"))}
    for x, x0 in ((w, w0), (a, a0)):
        if id(x) not in outs_given and (buf is None or x is not w):
            assert _snap(x) == x0


# ---- parameters, covariances, pickles -----------------------------------------------

FIELD_VALUES = st.one_of(
    floats,
    st.lists(floats, min_size=0, max_size=4),
    st.sampled_from(
        [
            None,
            True,
            "0.1",
            1j,
            np.float64(0.1),
            np.array([0.1, 0.2, 0.3]),
            np.array([True, False, True]),
            np.timedelta64(3, "s"),
            16,
            33,
            0,
            12.0,
            [[0, 1e-3, 0], [0, 0, 0], [0, 0, 0]],
            [[0.1], [0.2], [0.3]],
        ]
    ),
)
FIELDS = [
    "noise_stddev",
    "noise_density",
    "bias",
    "turn_on_bias_mean",
    "turn_on_bias_stddev",
    "gauss_markov_stddev",
    "gauss_markov_correlation_time",
    "gauss_markov_steady_state",
    "turn_on_bias_decays",
    "random_walk_density",
    "scale_factor",
    "misalignment",
    "g_sensitivity",
    "full_scale",
    "bits",
    "resolution",
]


@FUZZ
@given(
    fields=st.dictionaries(st.sampled_from(FIELDS), FIELD_VALUES, max_size=4),
    dt=steps_,
    tamper=st.booleans(),
)
def test_triad_noise_and_its_pickles(fields, dt, tamper):
    if tamper:  # restored without __post_init__: object.__new__ and a field dict
        t = object.__new__(TriadNoise)
        for k, v in {**TriadNoise().to_dict(), **fields}.items():
            object.__setattr__(t, k, v)
        payload = pickle.dumps(_NewObj({**TriadNoise().to_dict(), **fields}))
        try:
            m = ImuNoise(gyro=t, seed=1)
        except ERRORS as exc:
            assert any(k in str(exc) for k in fields), exc
            with pytest.raises(ERRORS):
                pickle.loads(payload)
            return
        assert pickle.loads(payload) == m.gyro
        return
    try:
        t = TriadNoise(**fields)
    except ERRORS as exc:
        assert any(k in str(exc) for k in fields), exc
        return
    assert pickle.loads(pickle.dumps(t)) == t == TriadNoise.from_value("x", t.to_dict())
    try:
        m = ImuNoise(gyro=t, seed=1)
    except ValueError as exc:
        assert "g_sensitivity" in str(exc) or "accel" in str(exc)
        return
    try:
        cov = triad_covariance(t, dt)
    except ERRORS as exc:
        assert "dt" in str(exc), exc
    else:
        assert np.all(np.isfinite(cov))
    try:
        out = m.step([0.5, -0.5, 0.25], [0.0, 0.0, 9.81], dt)
    except ERRORS as exc:
        _named(exc)
    else:
        assert np.all(np.isfinite(out[0])) and np.all(np.isfinite(out[1]))


class _NewObj:
    """Pickles as TriadNoise.__new__ plus a field dict (a dataclass's default form)."""

    def __init__(self, state):
        self.state = state

    def __reduce__(self):
        return (copyreg._reconstructor, (TriadNoise, object, None), self.state)


HOSTILE = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            "x",
            1.5,
            -1,
            2**64,
            2**70,
            math.nan,
            math.inf,
            1e301,
            [],
            [0],
            [[0, 0]],
            {},
            {"a": 1},
            [None] * 3,
            (),
        ]
    ),
    floats,
    st.integers(),
)


@FUZZ
@given(kind=models, path=st.data(), value=HOSTILE, drop=st.booleans())
def test_states_and_hand_made_pickles(kind, path, value, drop):
    from fastnoise.core.model import _restore

    m = _model(kind)
    m.apply(np.zeros((5, 3)), np.zeros((5, 3)), timestamps=np.arange(5) * 0.01)
    state = m.state
    # walk to a random entry of the state and replace (or drop) it
    node, key = state, path.draw(st.sampled_from(list(state)))
    for _ in range(path.draw(st.integers(0, 3))):
        child = node[key]
        if not isinstance(child, (dict, list)) or not child or path.draw(st.booleans()):
            break
        keys = list(child) if isinstance(child, dict) else list(range(len(child)))
        node, key = child, path.draw(st.sampled_from(keys))
    if drop and isinstance(node, dict):
        del node[key]
    elif drop and isinstance(node, list) and node:
        node.pop()
    else:
        node[key] = value
    payload = pickle.dumps(_Reduce(_restore, (ImuNoise, state, {})))
    try:
        c = ImuNoise.from_state(state)
    except ERRORS:
        with pytest.raises(ERRORS):
            pickle.loads(payload)
        before = m.state
        with pytest.raises(ERRORS):
            m.state = state
        assert m.state == before
        return
    assert pickle.loads(payload).state == c.state
    out = c.apply(np.zeros((4, 3)), np.zeros((4, 3)), 0.01) if c.sample_count < LAST - 4 else None
    if out is not None:
        assert np.all(np.isfinite(out[0])) and np.all(np.isfinite(out[1]))


class _Reduce:
    def __init__(self, func, args):
        self.func, self.args = func, args

    def __reduce__(self):
        return (self.func, self.args)
