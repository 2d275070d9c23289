"""Property tests (hypothesis) of every public call of LidarNoise and RangeNoise.

Inputs range over shapes (empty, one, more than a kernel chunk), dtypes (float16,
ints, bool, complex, object, datetime, big-endian), layouts (negative strides,
Fortran order, every other row, unaligned, read-only), special values (NaN, +-inf,
-0.0, subnormals, 1e308, points beyond the maximum range), counters near their
limits and aliasing outputs. The property: the call either raises ValueError,
TypeError or OverflowError naming one of its parameters, or returns exactly the
bits of the same call on plain C-contiguous native-endian copies, with every result
finite wherever its inputs are (the documented exceptions: a non-hit's default
distance and lidar-frame point, which are inf only where the true value lies beyond
the dtype's range); the inputs are never modified unless passed as an output.

``FASTNOISE_FUZZ_EXAMPLES`` sets the examples per test (default 60).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fastnoise.models.lidar.lidar_noise import LidarNoise, RangeNoise  # noqa: E402

EXAMPLES = int(os.environ.get("FASTNOISE_FUZZ_EXAMPLES", "60"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LAST_FRAME = 2**62 - 2
ERRORS = (ValueError, TypeError, OverflowError)

SPECIAL = [0.0, -0.0, 1.0, -3.5, 5e-324, 1e-310, 1e-30, 1e9, 2e9, 1e30, 3e38, 1e300, 1e308]
SPECIAL += [-v for v in SPECIAL[5:]] + [np.nan, np.inf, -np.inf]
GOOD_DTYPES = ["<f8", "<f4", ">f8", ">f4", "<f2", "<i4", ">i8", "u1"]
BAD_DTYPES = ["?", "<c16", "O", "M8[s]", "m8[s]", "U3"]
LAYOUTS = ["c", "c", "reversed", "fortran", "strided", "unaligned", "readonly"]


def _values(data, shape, special_rate=0.3):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    v = rng.normal(0.0, 30.0, shape)
    if v.size and data.draw(st.booleans(), label="specials"):
        mask = rng.uniform(size=shape) < special_rate
        v[mask] = rng.choice(np.array(SPECIAL), size=int(mask.sum()))
    return v


def _as(values, dtype):
    """values in dtype (object arrays hold Python floats; datetimes whole seconds)."""
    dt = np.dtype(dtype)
    with np.errstate(all="ignore"):
        if dt.kind in "mM":
            return np.nan_to_num(values, posinf=0, neginf=0).astype("i8").astype(dt)
        if dt.kind in "iub":
            clean = np.nan_to_num(values, nan=0.0, posinf=0.0, neginf=0.0)
            return np.clip(clean, -1e6, 1e6).astype(dt)
        return values.astype(dt)


def _layout(a, layout):
    """The same values in another memory layout."""
    if a.ndim == 0:
        return a
    if layout == "reversed":
        return np.ascontiguousarray(a[::-1])[::-1]
    if layout == "fortran":
        return np.asfortranarray(a)
    if layout == "strided":
        big = np.empty((2 * a.shape[0],) + a.shape[1:], a.dtype)
        big[::2] = a
        return big[::2]
    if layout == "unaligned" and a.dtype.itemsize > 1 and a.dtype.kind != "O":
        buf = np.zeros(a.nbytes + 1, np.uint8)
        v = buf[1:].view(a.dtype).reshape(a.shape)
        v[...] = a
        return v
    if layout == "readonly":
        b = a.copy()
        b.flags.writeable = False
        return b
    return a


def _plain(a):
    """The reference path's input: a C-contiguous native-endian copy."""
    if not isinstance(a, np.ndarray):
        return a
    dt = a.dtype.newbyteorder("=") if a.dtype.kind in "iufc" else a.dtype
    return np.array(a, dtype=dt, order="C", copy=True)


def _snapshot(*arrays):
    return [None if a is None else (a.copy(), a.tobytes()) for a in arrays]


def _unchanged(snap, *arrays):
    for s, a in zip(snap, arrays, strict=True):
        if s is not None:
            assert a.tobytes() == s[1], "an input was modified"


def _names_a_parameter(exc, names):
    event(f"refused: {type(exc).__name__}")
    text = str(exc)
    assert any(n in text for n in names), f"{type(exc).__name__}: {text!r} names none of {names}"


def _pick(data, label, valid, invalid, fault):
    """A draw from ``valid``, or from ``invalid`` when ``label`` is this example's
    fault: about half the examples have none, so most of them reach the kernels."""
    return data.draw(st.sampled_from(invalid if fault == label else valid), label=label)


def _fault(data, faults):
    return data.draw(st.sampled_from([None] * len(faults) + list(faults)), label="fault")


def _pose(data, fault):
    kind = _pick(data, "pose", ["none", "rigid", "rigid34"], ["bad"], fault)
    if kind == "none":
        return None
    rng = np.random.default_rng(data.draw(st.integers(0, 1000), label="pose seed"))
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    if np.linalg.det(q) < 0:
        q[:, 0] = -q[:, 0]
    t = np.eye(4)
    t[:3, :3] = q
    t[:3, 3] = rng.choice([0.0, 5.0, -20.0, 1e30, 1e9])
    if kind == "rigid34":
        return t[:3]
    if kind == "bad":
        bad = data.draw(st.sampled_from(["nan", "skew", "shape", "far", "complex"]), label="bad")
        if bad == "nan":
            t[1, 2] = np.nan
        elif bad == "skew":
            t[0, 1] += 0.1
        elif bad == "shape":
            return t[:2]
        elif bad == "far":
            t[0, 3] = 1e31
        else:
            return t.astype(complex)
    return _layout(t, data.draw(st.sampled_from(LAYOUTS), label="pose layout"))


def _finite_rows(a):
    return np.all(np.isfinite(a), axis=tuple(range(1, a.ndim)))


LIDAR_PARAMS = {  # name: (valid values, values beyond the bounds)
    "hitpoint_angular_noise_mean": ([0.0, 0.1, -2.0, 1e3], [1e4, np.nan, True]),
    "hitpoint_angular_noise_stddev": ([0.0, 0.01, 1.5, 1e3], [-1.0, 1e308]),
    "ray_angular_noise_mean": ([0.0, 0.05, 1e3], [np.inf, "0.1"]),
    "ray_angular_noise_stddev": ([0.0, 0.2, 1e3], [np.inf, 1j]),
    "distance_noise_mean": ([0.0, 0.1, -1e9, 1e9], [2e9, 1e308, -np.inf]),
    "distance_noise_stddev_base": ([0.0, 0.02, 1e9, 5e-324], [1e10, -0.1]),
    "distance_noise_stddev_rise_per_meter": ([0.0, 0.001, 1.0, 1e3, 5e-324], [1e4, np.nan]),
    "axis": ([(0.0, 1.0, 0.0), (0.6, 0.0, 0.8), (0, 0, 1)], [(1, 1, 0), (0, 1j, 0), (0, 1)]),
}


@st.composite
def lidar_models(draw):
    """Parameters at their bounds (and, for one in six models, one beyond them)."""
    bad = draw(st.sampled_from([None] * 5 + [list(LIDAR_PARAMS)]))
    if bad is not None:
        bad = draw(st.sampled_from(bad))
    return {
        name: draw(st.sampled_from(invalid if name == bad else valid))
        for name, (valid, invalid) in LIDAR_PARAMS.items()
    }


@SETTINGS
@given(data=st.data(), params=lidar_models())
def test_fuzz_lidar_apply(data, params):
    try:
        noise = LidarNoise(**params, seed=1)
    except ERRORS as exc:
        _names_a_parameter(exc, list(params))
        return
    fault = _fault(data, ["dtype", "distances", "mask", "pose", "frame", "first", "out"])
    n = data.draw(st.sampled_from([0, 1, 3, 8, 33, 600]), label="n")
    dtype = _pick(data, "dtype", GOOD_DTYPES, BAD_DTYPES, fault)
    layout = data.draw(st.sampled_from(LAYOUTS), label="layout")
    pts = _layout(_as(_values(data, (n, 3)), dtype), layout)
    dist = mask = None
    if data.draw(st.booleans(), label="distances?") or fault == "distances":
        dd = _pick(data, "distances", ["<f8", "<f4", ">f8", "<i4"], ["?", "<c8", "O"], fault)
        with np.errstate(over="ignore"):
            dist = _layout(_as(np.abs(_values(data, n)) * 3, dd), layout)
    if data.draw(st.booleans(), label="mask?") or fault == "mask":
        mdt = _pick(data, "mask", ["?"], ["u1", "<f8"], fault)
        mask = _layout((np.arange(n) % 3 != 0).astype(mdt), layout)
    pose = _pose(data, fault)
    frame = _pick(data, "frame", [0, 7, LAST_FRAME], [LAST_FRAME + 1, -1, True, 1.0], fault)
    first = _pick(data, "first", [0, 5, 2**64 - max(n, 1)], [2**64 - n + 1, 2**64], fault)
    threads = data.draw(st.sampled_from([1, 2]), label="threads")
    out_kind = _pick(data, "out", ["none", "fresh", "inplace"], ["shifted"], fault)
    names = ["points", "distances", "hit_mask", "lidar_pose", "frame", "first_index", "out"]
    names += ["out_distances", "out_hit_mask"]

    kw = {"distances": dist, "hit_mask": mask, "lidar_pose": pose, "frame": frame}
    kw.update(first_index=first, threads=threads, return_local=True)
    snap = _snapshot(pts, dist, mask)
    call_pts = pts
    if out_kind == "fresh":
        kw["out"] = np.empty((n, 3), "<f4" if pts.dtype in ("<f4", ">f4") else "<f8")
        kw["out_distances"] = np.empty(n, kw["out"].dtype)
        kw["out_hit_mask"] = np.empty(n, bool)
    elif out_kind == "inplace":
        call_pts = pts.copy() if pts.dtype.isnative else pts
        kw["out"] = call_pts
    elif out_kind == "shifted" and n:
        buf = np.zeros((n + 1, 3), "<f8")
        buf[:n] = np.nan_to_num(_as(_values(data, (n, 3)), "<f8"))
        call_pts, kw["out"] = buf[:n], buf[1:]
        snap[0] = (buf[:n].copy(), buf[:n].tobytes())
    try:
        got = noise.apply(call_pts, **kw)
    except ERRORS as exc:
        _names_a_parameter(exc, names)
        if out_kind != "inplace":
            _unchanged(snap, call_pts, dist, mask)
        return
    event("accepted")
    if out_kind != "inplace":
        _unchanged(snap, call_pts, dist, mask)
    ref_kw = dict(kw, distances=_plain(dist), hit_mask=_plain(mask), lidar_pose=_plain(pose))
    for k in ("out", "out_distances", "out_hit_mask"):
        ref_kw.pop(k, None)
    ref = noise.apply(_plain(snap[0][0]), **ref_kw)
    for a, b in zip(got, ref, strict=True):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    # finite wherever the inputs are
    p_in = np.asarray(snap[0][0], dtype=np.float64)
    fin = _finite_rows(p_in) if n else np.zeros(0, bool)
    if dist is not None:  # distances are read in the points' dtype
        with np.errstate(over="ignore"):
            fin &= np.isfinite(np.asarray(dist).astype(got.points.dtype))
    hits = got.hit_mask
    assert not np.any(hits & ~fin)
    assert np.all(_finite_rows(got.points)[fin])
    assert np.all(_finite_rows(got.local_points)[hits]) and np.all(np.isfinite(got.distances[hits]))
    # a non-hit keeps its point; its distance is the given one, or its true |p - t|
    non = ~hits
    assert got.points[non].tobytes() == _plain(snap[0][0]).astype(got.points.dtype)[non].tobytes()
    huge = np.abs(p_in).max(axis=1, initial=0.0) > np.finfo(got.points.dtype).max / 4 if n else fin
    assert np.all(np.isfinite(got.distances[fin & ~huge]))


@SETTINGS
@given(data=st.data())
def test_fuzz_lidar_perturb_rays(data):
    noise = LidarNoise(ray_angular_noise_mean=0.1, ray_angular_noise_stddev=0.5, seed=2)
    fault = _fault(data, ["rows", "dtype", "values", "pose", "frame", "first", "out"])
    n = data.draw(st.sampled_from([0, 1, 4, 600]), label="n")
    rows = _pick(data, "rows", [3, 4], [2, 5], fault)
    dtype = _pick(data, "dtype", GOOD_DTYPES, BAD_DTYPES, fault)
    layout = data.draw(st.sampled_from(LAYOUTS), label="layout")
    vals = np.tile(np.eye(max(rows, 4))[:rows, :4], (n, 1, 1)) + _values(data, (n, rows, 4), 0.05)
    if fault != "values":  # finite and within 1e30, else refused by name
        vals[~(np.abs(vals) <= 1e30)] = 1e30
    if rows == 4:
        vals[:, 3] = _values(data, (n, 4), 0.5)  # the bottom row is never read
    rays = _layout(_as(vals, dtype), layout)
    pose = _pose(data, fault)
    frame = _pick(data, "frame", [0, LAST_FRAME], [LAST_FRAME + 1, 2**64], fault)
    first = _pick(data, "first", [0, 2**64 - max(n, 1)], [2**64 - n + 1], fault)
    out_kind = _pick(data, "out", ["none", "fresh", "inplace"], ["shifted"], fault)
    kw = {"lidar_pose": pose, "frame": frame, "first_index": first}
    snap = _snapshot(rays)
    call = rays
    if out_kind == "fresh":
        kw["out"] = np.empty(rays.shape, "<f4" if rays.dtype in ("<f4", ">f4") else "<f8")
    elif out_kind == "inplace":
        call = rays.copy() if rays.dtype.isnative else rays
        kw["out"] = call
    elif out_kind == "shifted" and n:
        buf = np.tile(np.eye(max(rows, 4))[:rows, :4], (n + 1, 1, 1))
        call, kw["out"] = buf[:n], buf[1:]
        snap = _snapshot(call)
    names = ["ray_poses", "lidar_pose", "frame", "first_index", "out"]
    try:
        got = noise.perturb_rays(call, **kw)
    except ERRORS as exc:
        _names_a_parameter(exc, names)
        if out_kind != "inplace":
            _unchanged(snap, call)
        return
    event("accepted")
    if out_kind != "inplace":
        _unchanged(snap, call)
    ref = noise.perturb_rays(
        _plain(snap[0][0]), lidar_pose=_plain(pose), frame=frame, first_index=first
    )
    assert got.dtype == ref.dtype and got.tobytes() == ref.tobytes()
    assert np.all(np.isfinite(got[:, :3]))  # accepted rays are finite, and stay so


@SETTINGS
@given(data=st.data())
def test_fuzz_range_noise(data):
    fault = _fault(data, ["param", "dtype", "frame", "first", "out"])
    valid = {
        "mean": [0.0, 0.02, -1e30, 1e30],
        "stddev": [0.0, 0.01, 1e30],
        "min_range": [0.0, 0.1, 1e29],
        "max_range": [30.0, 1e30],
        "bias_mean": [0.0, 0.1, -1e30],
        "bias_stddev": [0.0, 0.05, 1e30],
        "precision": [0.0, 0.01, 5e-324, 1e-50, 1e30],
        "flip_bias_sign": [False, True],
    }
    invalid = {
        "mean": [1e31, np.nan],
        "stddev": [-1.0, np.inf],
        "min_range": [-0.1, 1e31],
        "max_range": [0.05, np.inf, 2e30],
        "bias_mean": [2e30, "0"],
        "bias_stddev": [-1e-9, 1j],
        "precision": [-1.0, 1e31],
        "flip_bias_sign": [1, None],
    }
    bad = data.draw(st.sampled_from(list(valid)), label="bad param") if fault == "param" else 0
    kw0 = {k: _pick(data, k, invalid[k] if k == bad else valid[k], [], None) for k in valid}
    names = list(valid)
    try:
        gz = RangeNoise(**kw0, seed=3)
    except ERRORS as exc:
        _names_a_parameter(exc, names)
        return
    shape = data.draw(st.sampled_from([(0,), (1,), (7,), (3, 5), (700,)]), label="shape")
    dtype = _pick(data, "dtype", GOOD_DTYPES, BAD_DTYPES, fault)
    layout = data.draw(st.sampled_from(LAYOUTS), label="layout")
    scan = _layout(_as(_values(data, shape), dtype), layout)
    size = int(np.prod(shape))
    frame = _pick(data, "frame", [0, LAST_FRAME], [LAST_FRAME + 1, 1.0], fault)
    first = _pick(data, "first", [0, 2**64 - max(size, 1)], [2**64 - size + 1], fault)
    out_kind = _pick(data, "out", ["none", "fresh", "inplace"], ["shifted"], fault)
    kw = {"frame": frame, "first_index": first, "threads": data.draw(st.sampled_from([1, 3]))}
    snap = _snapshot(scan)
    call = scan
    if out_kind == "fresh":
        kw["out"] = np.empty(shape, "<f4" if scan.dtype in ("<f4", ">f4") else "<f8")
    elif out_kind == "inplace":
        call = scan.copy() if scan.dtype.isnative else scan
        kw["out"] = call
    elif out_kind == "shifted" and size:
        buf = np.zeros(size + 1)
        call, kw["out"] = buf[:size], buf[1:]
        snap = _snapshot(call)
    try:
        got = gz.apply(call, **kw)
    except ERRORS as exc:
        _names_a_parameter(exc, ["ranges", "frame", "first_index", "out", "threads"])
        if out_kind != "inplace":
            _unchanged(snap, call)
        return
    event("accepted")
    if out_kind != "inplace":
        _unchanged(snap, call)
    kw.pop("out", None)
    ref = gz.apply(_plain(snap[0][0]), **kw)
    assert got.dtype == ref.dtype and got.tobytes() == ref.tobytes()
    x = np.asarray(snap[0][0], dtype=got.dtype)
    finite = np.isfinite(x)
    assert np.all(np.isfinite(got[finite]))
    assert np.all(got[finite] >= np.float32(gz.min_range) * (1 - 1e-6) - 1e-30)
    assert np.all(got[np.isnan(x)] == got.dtype.type(gz.max_range))
    assert np.array_equal(got[np.isinf(x)], x[np.isinf(x)])
    # apply_one gives the float64 value of the same beam
    if size and got.dtype == np.float64 and isinstance(frame, int):
        i = data.draw(st.integers(0, size - 1), label="beam")
        assert gz.apply_one(float(x.reshape(-1)[i]), frame, first + i) == got.reshape(-1)[i]


@SETTINGS
@given(
    value=st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(-(2**70), 2**70),
        st.sampled_from(
            [True, 1j, "5", None, np.float32(2.5), np.float16(1.0), np.int8(3), np.bool_(True)]
        ),
        st.sampled_from([np.array(5.0), np.datetime64(3, "s"), np.complex64(1.0), [5.0]]),
    ),
    frame=st.sampled_from([0, 3, LAST_FRAME, LAST_FRAME + 1, -1, 2.0, np.int64(4), True]),
    index=st.sampled_from([0, 9, 2**64 - 1, 2**64, -1, np.uint64(7), False]),
)
def test_fuzz_range_apply_one(value, frame, index):
    gz = RangeNoise(0.0, 0.05, 0.1, 30.0, bias_mean=0.1, seed=4)
    try:
        got = gz.apply_one(value, frame, index)
    except ERRORS as exc:
        _names_a_parameter(exc, ["range_m", "frame", "index"])
        return
    event("accepted")
    try:
        v = float(value)
    except OverflowError:  # an int beyond float64
        raise AssertionError(f"apply_one accepted {value!r}") from None
    ref = gz.apply(np.array([v]), frame=int(frame), first_index=int(index) if index else 0)
    if int(index) <= 2**64 - 1:
        assert got == ref[0] or (np.isnan(got) and np.isnan(ref[0]))
    assert np.isfinite(got) or not np.isfinite(v)
