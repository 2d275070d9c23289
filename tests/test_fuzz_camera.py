"""Property tests (hypothesis) of ImageNoise's public calls.

Images range over shapes (empty, one pixel, grey and colour, more than a kernel
chunk), dtypes (the four supported ones, big-endian, float16, ints, bool, complex,
object), layouts (negative strides, transposed, every other pixel, unaligned,
read-only), special values (NaN, +-inf, -0.0, subnormals, 1e308), parameters at and
beyond their bounds, frames and row offsets near 2**64 and aliasing outputs. The
property: the call either raises ValueError, TypeError or OverflowError naming one
of its parameters (and changes nothing: neither the inputs nor the frame counter),
or returns exactly the bits of the same call on a plain C-contiguous native-endian
copy, with every float pixel finite and in [0, 1] wherever the input pixel is
finite; the image is never modified unless passed as ``out``, and a call without
``frame`` advances the counter by one.

``FASTNOISE_FUZZ_EXAMPLES`` sets the examples per test (default 60).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fastnoise.models.camera.image_noise import ImageNoise  # noqa: E402

EXAMPLES = int(os.environ.get("FASTNOISE_FUZZ_EXAMPLES", "60"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ERRORS = (ValueError, TypeError, OverflowError)
GOOD_DTYPES = ["u1", "<u2", ">u2", "<f4", ">f4", "<f8", ">f8"]
BAD_DTYPES = ["<f2", "<i4", "?", "<c8", "O", "M8[s]"]
LAYOUTS = ["c", "c", "reversed", "transposed", "strided", "unaligned", "readonly"]
SPECIAL = np.array([0.0, -0.0, 1.0, 0.5, 5e-324, 1e-310, 2.0, -1.0, 1e308, np.nan, np.inf, -np.inf])
PARAMS = {  # name: (valid, beyond the bounds)
    "mean": ([0.0, 0.1, -0.3, 1e30, -1e30, 5e-324], [1e39, 1.1e30, np.nan, True, "0"]),
    "stddev": ([0.0, 0.007, 0.5, 1e30, 5e-324], [-0.1, 1e31, np.inf, 1j]),
    "per_channel": ([False, True], [1, None]),
    "variant": (["gazebo", "ogre2"], ["ogre", 2]),
    "linear_light": ([None, False, True], [1, "yes"]),
}


def _pick(data, label, valid, invalid, fault):
    return data.draw(st.sampled_from(invalid if fault == label else valid), label=label)


def _image(data, shape, dtype):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    dt = np.dtype(dtype)
    if dt.kind in "ui":
        hi = 255 if dt.itemsize == 1 else 65535
        return rng.integers(0, hi + 1, shape).astype(dt)
    v = rng.uniform(-0.2, 1.2, shape)
    if v.size and data.draw(st.booleans(), label="specials"):
        mask = rng.uniform(size=shape) < 0.2
        v[mask] = rng.choice(SPECIAL, size=int(mask.sum()))
    with np.errstate(all="ignore"):
        if dt.kind == "M":
            return np.nan_to_num(v, posinf=0, neginf=0).astype("i8").astype(dt)
        if dt.kind == "b":
            return v > 0.5
        return v.astype(dt)


def _layout(a, layout):
    if layout == "reversed":
        return np.ascontiguousarray(a[::-1, ::-1])[::-1, ::-1]
    if layout == "transposed":
        return np.ascontiguousarray(np.swapaxes(a, 0, 1)).swapaxes(0, 1)
    if layout == "strided":
        big = np.zeros((a.shape[0], 2 * a.shape[1]) + a.shape[2:], a.dtype)
        big[:, ::2] = a
        return big[:, ::2]
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
    dt = a.dtype.newbyteorder("=") if a.dtype.kind in "uif" else a.dtype
    return np.array(a, dtype=dt, order="C", copy=True)


@SETTINGS
@given(data=st.data())
def test_fuzz_image_noise_apply(data):
    faults = ["param", "dtype", "shape", "frame", "row_offset", "out", "threads"]
    fault = data.draw(st.sampled_from([None] * len(faults) + faults), label="fault")
    bad = data.draw(st.sampled_from(list(PARAMS)), label="bad param") if fault == "param" else 0
    kw0 = {
        k: data.draw(st.sampled_from(inv if k == bad else ok), label=k)
        for k, (ok, inv) in PARAMS.items()
    }
    try:
        noise = ImageNoise(**kw0, seed=7)
    except ERRORS as exc:
        event(f"refused: {type(exc).__name__}")
        assert any(k in str(exc) for k in PARAMS), str(exc)
        return
    h = data.draw(st.sampled_from([0, 1, 3, 17]), label="h")
    w = data.draw(st.sampled_from([0, 1, 5, 600]), label="w")
    c = _pick(data, "shape", [None, 1, 3, 4], [2, 5], fault)
    shape = (h, w) if c is None else (h, w, c)
    dtype = _pick(data, "dtype", GOOD_DTYPES, BAD_DTYPES, fault)
    image = _layout(_image(data, shape, dtype), data.draw(st.sampled_from(LAYOUTS), label="lay"))
    per = min(c or 1, 3) if kw0["per_channel"] else 1
    top = (2**64 - 1) // max(w * per, 1) - h
    row_offset = _pick(data, "row_offset", [0, 2, top], [top + 1, -1, 1.5], fault)
    frame = _pick(data, "frame", [None, None, 0, 2**64 - 1], [2**64, -1, 2.0, True], fault)
    counter = _pick(data, "counter", [0, 5, 2**64 - 2], [], None)
    if fault == "frame" and data.draw(st.booleans(), label="counter at its end"):
        frame, counter = None, 2**64 - 1
    noise.frame = counter
    threads = _pick(data, "threads", [1, 3], [0, 1.0], fault)
    out_kind = _pick(data, "out", ["none", "fresh", "inplace"], ["shifted", "self", "be"], fault)
    native = image.dtype.newbyteorder("=") if image.dtype.kind in "uif" else image.dtype
    call, out = image, None
    if out_kind == "fresh":
        out = np.zeros(shape, native)[::-1]  # negative strides are fine for out
    elif out_kind == "inplace":
        call = out = image.copy() if image.dtype.isnative else image
    elif out_kind == "shifted" and h > 1:
        buf = np.zeros((h + 1,) + shape[1:], native)
        call, out = buf[:h], buf[1:]
    elif out_kind == "self" and h > 1 and w > 1:
        out = np.lib.stride_tricks.as_strided(
            np.zeros(shape, native),
            strides=(0,) + np.zeros(shape, native).strides[1:],
            writeable=True,
        )
    elif out_kind == "be":
        out = np.zeros(shape, native.newbyteorder(">") if native.itemsize > 1 else "f8")
    snap = call.copy(), call.tobytes()
    kw = {"frame": frame, "out": out, "threads": threads, "row_offset": row_offset}
    try:
        got = noise.apply(call, **kw)
    except ERRORS as exc:
        event(f"refused: {type(exc).__name__}")
        names = ["image", "frame", "out", "threads", "row_offset"]
        assert any(k in str(exc) for k in names), f"{exc!s} names none of {names}"
        assert call.tobytes() == snap[1] and noise.frame == counter
        return
    event("accepted")
    assert noise.frame == counter + (frame is None)
    if out_kind != "inplace":
        assert call.tobytes() == snap[1], "the image was modified"
    if out is not None:
        assert got is out
    f = counter if frame is None else frame
    ref = noise.apply(_plain(snap[0]), frame=f, row_offset=row_offset)
    assert got.dtype == ref.dtype and got.dtype.isnative
    assert np.ascontiguousarray(got).tobytes() == ref.tobytes()
    x = _plain(snap[0])
    if got.dtype.kind == "f":
        colour = (slice(None), slice(None)) + ((slice(0, 3),) if x.ndim == 3 else ())
        fin = np.isfinite(x[colour])
        y = got[colour][fin]
        assert np.all(np.isfinite(y)) and np.all((y >= 0) & (y <= 1))
        assert np.all(np.isnan(got[colour][np.isnan(x[colour])]))
    if x.ndim == 3 and x.shape[2] == 4:
        assert got[..., 3].tobytes() == x[..., 3].tobytes()  # alpha untouched


@SETTINGS
@given(
    value=st.one_of(
        st.integers(-(2**65), 2**65),
        st.sampled_from(
            [2**64 - 1, 2**64, True, 1.0, "3", None, np.uint64(2**64 - 1), np.int8(-1)]
        ),
    )
)
def test_fuzz_image_noise_frame_counter(value):
    noise = ImageNoise(seed=8)
    noise.frame = 11
    try:
        noise.frame = value
    except ERRORS as exc:
        assert "frame" in str(exc)
        assert noise.frame == 11
        return
    assert noise.frame == int(value)
    state = noise.state
    assert ImageNoise.from_state(state).frame == int(value)
    img = np.full((2, 3), 0.5, np.float32)
    if int(value) == 2**64 - 1:
        with pytest.raises(OverflowError, match="frame"):
            noise.apply(img)
        assert noise.frame == 2**64 - 1
    else:
        noise.apply(img)
        assert noise.frame == int(value) + 1
