"""Property tests of every public call of RigidBodySimulator and SensorSimulator under
hostile input: vectors of odd shapes, dtypes, byte orders, strides and alignment,
special floats, bad ``out=`` arrays, huge steps and torques, positions near 2**64,
hostile states and hand-made pickles.

Each call either raises ValueError/TypeError/OverflowError naming what is wrong (and
leaves the object as it was), or gives a result equal, bit for bit, to the same call
on plain contiguous native-endian float64 copies of its inputs (made on a copy of the
object), finite; angles stay in [-pi, pi); inputs are never modified unless passed as
``out``; nothing crashes.

FASTNOISE_FUZZ_EXAMPLES sets the examples per test (default 60, a few seconds in
all); a long run: ``FASTNOISE_FUZZ_EXAMPLES=5000 pytest tests/test_fuzz_motion.py``.
"""

from __future__ import annotations

import copy
import math
import os
import pickle
import warnings

import numpy as np
import pytest
from _fuzz_support import LAYOUTS, fill, zeros_in_layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastnoise.core.model import _restore
from fastnoise.models.motion.rigid_body import RigidBodySimulator
from fastnoise.models.motion.sensor_simulator import SensorSimulator

FUZZ = settings(
    max_examples=int(os.environ.get("FASTNOISE_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
LAST = 2**64 - 1
ERRORS = (ValueError, TypeError, OverflowError)

SPECIAL = [
    0.0,
    -0.0,
    5e-324,
    -2.2250738585072014e-308,
    1.0,
    -7.25,
    1e17,
    5e17,
    1e99,
    1e100,
    -1.0000000000000002e100,
    1e300,
    1e301,
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
def arrays(draw, n, dtypes):
    dt = np.dtype(draw(st.sampled_from(dtypes)))
    kind = draw(st.sampled_from(LAYOUTS))
    arr = zeros_in_layout(kind, n, dt)
    fill(arr, draw(st.lists(floats, min_size=n, max_size=n)))
    if kind == "readonly":
        arr.flags.writeable = False
    return arr


vectors = st.one_of(
    st.lists(floats, min_size=3, max_size=3),
    st.tuples(floats, floats, floats),
    floats,
    arrays(3, REAL_DTYPES),
    arrays(3, BAD_DTYPES),
    arrays(2, REAL_DTYPES),
    st.sampled_from(
        [
            [1.0, 2.0],
            [[0.0], 0.0, 0.0],
            "abc",
            None,
            [True, 0.0, 0.0],
            [1j, 0, 0],
            (0.0, np.timedelta64(1, "s"), 0.0),
            np.zeros((3, 1)),
        ]
    ),
)
steps_ = st.one_of(
    st.sampled_from([0.01, 1e-3, 5e-324, 1e100, 1e200, 1e308, 0.0, -0.01, math.nan, math.inf]),
    st.floats(1e-6, 10.0),
    st.sampled_from([True, 1, np.float32(0.02), np.timedelta64(1, "s"), 1j, "0.01", None]),
)
NAMES = (
    "inertia",
    "omega",
    "roll",
    "pitch",
    "yaw",
    "torque",
    "dt",
    "kinematics",
    "out",
    "source",
    "stddev",
    "rate",
    "drift",
    "position",
    "angle",
    "state",
)


def _named(exc):
    assert any(k in str(exc) for k in NAMES), f"{type(exc).__name__} names nothing: {exc}"


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


def _value(snap, x):
    if isinstance(x, np.ndarray):
        dt, shape, raw = snap
        if isinstance(raw, list):
            return np.array(raw, dtype=dt).reshape(shape)
        return np.frombuffer(raw, dtype=dt).reshape(shape)
    return snap


def _in_range(body):
    s = body.state["position"]
    assert all(-math.pi <= a < math.pi for a in s["angles"])
    assert all(math.isfinite(w) and abs(w) <= 1e100 for w in s["omega"])
    assert math.isfinite(body.kinetic_energy) and np.all(np.isfinite(body.angular_momentum))


# ---- rigid body -----------------------------------------------------------------------


@FUZZ
@given(
    inertia=vectors,
    omega=st.one_of(st.none(), vectors),
    angles=st.tuples(floats, floats, st.one_of(floats, st.sampled_from([True, "0", None, 1j]))),
    kinematics=st.sampled_from(["axis", "zyx", "xyz", None]),
)
def test_rigid_body_constructor(inertia, omega, angles, kinematics):
    try:
        body = RigidBodySimulator(inertia, omega, *angles, kinematics=kinematics)
    except ERRORS as exc:
        _named(exc)
        return
    _in_range(body)
    assert pickle.loads(pickle.dumps(body)) == body


@FUZZ
@given(
    kin=st.sampled_from(["axis", "zyx"]),
    w0=st.tuples(floats, floats, floats),
    dt=steps_,
    torque=vectors,
    n=st.integers(1, 3),
)
def test_rigid_body_update(kin, w0, dt, torque, n):
    w0 = tuple(x if math.isfinite(x) and abs(x) <= 1e100 else 0.5 for x in w0)
    body = RigidBodySimulator((10.0, 8.0, 12.0), omega=w0, roll=3.0, kinematics=kin)
    t0 = _snap(torque)
    for _ in range(n):
        before = body.state
        ref = body.copy()
        try:
            body.update(dt, torque)
        except ERRORS as exc:
            _named(exc)
            assert body.state == before
            return
        ref.update(dt, _plain(_value(t0, torque)))
        assert body.state == ref.state
        _in_range(body)
        assert _snap(torque) == t0


# ---- sensor ---------------------------------------------------------------------------


class Source:
    def __init__(self, omega, angles):
        self.omega = omega
        self.pitch, self.yaw, self.roll = angles


outs = st.sampled_from(
    ["none", "fresh", "big-endian", "unaligned", "readonly", "float32", "strided", "list", "source"]
)


def _out(kind, src):
    if kind == "fresh":
        return np.full(3, 9.0)
    if kind == "big-endian":
        return np.zeros(3, ">f8")
    if kind == "unaligned":
        return np.zeros(25, np.uint8)[1:].view(np.float64)
    if kind == "readonly":
        o = np.zeros(3)
        o.flags.writeable = False
        return o
    if kind == "float32":
        return np.zeros(3, np.float32)
    if kind == "strided":
        return np.zeros(6)[::2]
    if kind == "list":
        return [0.0, 0.0, 0.0]
    if kind == "source" and isinstance(src.omega, np.ndarray):
        return src.omega  # the reading written over the source's own array
    return None


@st.composite
def sensors(draw):
    sigma = draw(st.one_of(floats, st.tuples(floats, floats, floats)))
    rate = draw(st.one_of(floats, st.sampled_from([1e299, -1e300, 0.0])))
    src = Source(
        draw(vectors),
        draw(st.tuples(floats, floats, st.one_of(floats, st.sampled_from([True, "0"])))),
    )
    if draw(st.booleans()):
        src = RigidBodySimulator((10.0, 8.0, 12.0), omega=(0.1, -0.2, 0.3), roll=1.0)
    try:
        s = SensorSimulator(src, seed=draw(st.integers(0, 5)), noise_stddev=sigma, drift_rate=rate)
    except ERRORS as exc:
        _named(exc)
        return None
    if draw(st.booleans()):
        state = s.state
        state["position"]["generator"]["position"] = draw(
            st.sampled_from([LAST, LAST - 3, LAST - 7])
        )
        s.state = state
    return s


@FUZZ
@given(s=sensors(), out=outs, which=st.sampled_from(["omega", "angles", "update"]), dt=steps_)
def test_sensor_reads_and_updates(s, out, which, dt):
    if s is None:
        return
    src = s.source
    before, o = s.state, _out(out, src)
    snap_src = _snap(getattr(src, "omega", None))
    ref = s.copy()
    try:
        if which == "update":
            s.update(dt)
            got = None
        elif which == "omega":
            got = s.read_angular_velocity(out=o)
        else:
            got = s.read_orientation(out=o)
    except ERRORS as exc:
        _named(exc)
        assert s.state == before
        return
    if which == "update":
        ref.update(dt)
        assert s.state == ref.state
        assert np.all(np.isfinite(s.drift_omega)) and np.all(np.isfinite(s.drift_angles))
        return
    if o is not None:
        assert got is o
    if (
        which == "omega"
        and not isinstance(src, RigidBodySimulator)
        and isinstance(src.omega, np.ndarray)
    ):
        if got is not src.omega:
            assert _snap(src.omega) == snap_src  # untouched unless passed as out
        src.omega = _plain(_value(snap_src, src.omega))  # the reference reads plain values
    want = ref.read_angular_velocity() if which == "omega" else ref.read_orientation()
    assert np.array_equal(np.asarray(got).view(np.uint64), want.view(np.uint64))
    assert np.all(np.isfinite(got))
    assert s.state == ref.state


HOSTILE = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            "x",
            1.5,
            -1,
            2**64,
            math.nan,
            math.inf,
            1e301,
            [],
            [0],
            [0.0, 0.0],
            [None] * 3,
            {},
            (),
        ]
    ),
    floats,
    st.integers(),
)


@FUZZ
@given(which=st.sampled_from(["body", "sensor"]), path=st.data(), value=HOSTILE, drop=st.booleans())
def test_states_and_hand_made_pickles(which, path, value, drop):
    body = RigidBodySimulator((10.0, 8.0, 12.0), omega=(0.1, -0.2, 0.3), roll=1.0)
    obj = body if which == "body" else SensorSimulator(body, seed=3, noise_stddev=0.1)
    cls, extras = type(obj), ({} if which == "body" else {"source": body})
    state = obj.state
    node, key = state, path.draw(st.sampled_from(list(state)))
    for _ in range(path.draw(st.integers(0, 3))):
        child = node[key]
        if not isinstance(child, (dict, list)) or not child or path.draw(st.booleans()):
            break
        keys = list(child) if isinstance(child, dict) else list(range(len(child)))
        node, key = child, path.draw(st.sampled_from(keys))
    if drop and isinstance(node, dict):
        del node[key]
    elif drop and isinstance(node, list):
        node.pop()
    else:
        node[key] = value
    payload = pickle.dumps(_Reduce(_restore, (cls, state, extras)))
    try:
        c = cls.from_state(state, **extras)
    except ERRORS:
        with pytest.raises(ERRORS):
            pickle.loads(payload)
        before = obj.state
        with pytest.raises(ERRORS):
            obj.state = state
        assert obj.state == before
        return
    assert pickle.loads(payload).state == c.state
    if which == "body":
        c.update(0.01, (0.1, 0.0, 0.0))
        _in_range(c)
    elif c.state["position"]["generator"]["position"] <= LAST - 3:
        assert np.all(np.isfinite(c.read_angular_velocity()))


class _Reduce:
    def __init__(self, func, args):
        self.func, self.args = func, args

    def __reduce__(self):
        return (self.func, self.args)
