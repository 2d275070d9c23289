"""The stream registry: csrc/streams.h and fastnoise.core.streams say the same, every
model of the registry that draws is listed with its declared key tags, a key tag used
by two models is declared shared (with the reason) by the one that joins it, and the declared
sharings do what they say: range and lidar draw disjoint streams of one key, depth
draws the camera's own normal of each pixel."""

import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

import fastnoise as fn
from fastnoise.core import registry
from fastnoise.core.generator import fill_normals
from fastnoise.core.seeding import model_tag
from fastnoise.core.streams import RESERVED_TAGS, STREAMS, c_constants, table_markdown

HEADER = Path(__file__).resolve().parents[1] / "csrc" / "streams.h"


def _header_constants():
    out = {}
    for m in re.finditer(
        r"^#define FN_STREAM_(\w+)\s+(0x[0-9A-Fa-f]+|\d+)u?l*", HEADER.read_text(), re.M
    ):
        out[m.group(1)] = int(m.group(2), 0)
    return out


def _builtins():
    """The declarations fastnoise itself registers (plugins and test models aside)."""
    return [
        d for d in registry.models() if d.cls is None or d.cls.__module__.startswith("fastnoise.")
    ]


def _users():
    """``{key tag: [names of the registered models that key with it]}``."""
    users = defaultdict(list)
    for d in registry.models():
        for tag in d.tags:
            users[tag].append(d.name)
    return users


def test_header_and_table_agree():
    assert _header_constants() == c_constants()


def test_the_table_lists_every_registered_model_that_draws():
    listed = {s.model for s in STREAMS} - {"suite"}
    # "suite" is no model: it is the derivation of fastnoise.io.suite.suite's per-topic seeds
    draws = {d.name for d in _builtins() if d.cls is not None and d.cls.stochastic}
    assert draws == listed
    assert {d.name for d in _builtins() if d.tags} <= listed


@pytest.mark.parametrize(
    "decl", [d for d in _builtins() if d.cls is not None], ids=lambda d: d.name
)
def test_the_table_keys_each_model_with_its_declared_tags(decl):
    rows = [s for s in STREAMS if s.model == decl.name]
    if not decl.cls.stochastic:
        assert rows == [] and decl.tags == ()
        return
    tags = {s.key_tag for s in rows}
    if not decl.tags:  # the key is the seed's own (the canonical stream)
        assert tags == {None}
    else:
        assert tags == set(decl.tags), f"{decl.name}: table {tags}, declared {decl.tags}"


def _undeclared_sharings():
    """``[(tag, names)]`` of key tags used by several models of which more than one
    does not declare the sharing: the tag's first owner may be silent, every model
    that joins it says why in its ``shared_tags``."""
    out = []
    for tag, names in _users().items():
        silent = [n for n in names if not str(registry.get(n).shared_tags.get(tag, "")).strip()]
        if len(names) > 1 and len(silent) > 1:
            out.append((tag, sorted(silent)))
    return out


def test_a_key_tag_of_two_models_is_declared_shared_with_a_reason():
    assert _undeclared_sharings() == [], (
        "a key tag is used by two models and not declared in shared_tags: declare why "
        "(the streams stay apart, or are the same on purpose)"
    )


def test_a_model_that_takes_another_models_tag_unannounced_is_found():
    from dataclasses import replace

    from toy_model import ToyNoise

    class _LidarToy(ToyNoise):
        model_name = "toy_lidar"
        declaration = replace(ToyNoise.declaration, name="toy_lidar", tags=("lidar",))

    registry.register(_LidarToy)
    try:
        assert _undeclared_sharings() == [("lidar", ["lidar", "toy_lidar"])]
    finally:
        registry.unregister("toy_lidar")


def test_a_declared_sharing_is_real():
    users = _users()
    for d in registry.models():
        for tag, reason in d.shared_tags.items():
            assert tag in d.tags, f"{d.name} shares {tag!r}, which is not its tag"
            assert len(users[tag]) >= 2, f"{d.name} shares {tag!r} with no other model"
            assert isinstance(reason, str) and reason.strip()


def test_the_known_sharings_are_declared():
    users = _users()
    assert sorted(users["lidar"]) == ["lidar", "range"]
    assert sorted(users["camera"]) == ["camera", "depth"]
    assert sorted(users["dvl"]) == ["augmented_white_noise", "dvl_simulator"]


def test_key_tags_are_distinct_and_reserved_tags_unused():
    used = set(_users())
    assert {s.key_tag for s in STREAMS if s.key_tag} - {"suite"} <= used
    assert not used & set(RESERVED_TAGS)
    tags = [model_tag(t) for t in (*used, *RESERVED_TAGS)]
    assert len(set(tags)) == len(tags)


def test_markdown_table_lists_every_stream():
    text = table_markdown()
    assert text.count("\n") == len(STREAMS) + 1
    for s in STREAMS:
        assert s.draws in text


# ---- lidar and range: one key, disjoint streams -------------------------------------


def _kinds(model):
    """The stream kinds (the ``frame << 2 | kind`` low bits) the table gives ``model``."""
    return {v for s in STREAMS if s.model == model for n, v in s.c_names if "FRAME" not in n}


def test_lidar_and_range_take_disjoint_stream_kinds():
    header = _header_constants()
    lidar, rng = _kinds("lidar"), _kinds("range")
    names = ("LIDAR_RAY_ANGULAR", "LIDAR_HITPOINT_ANGULAR", "LIDAR_DISTANCE")
    assert lidar == {header[k] for k in names}
    assert rng == {header["LIDAR_RANGE"]}
    assert not lidar & rng
    assert all(0 <= k < 4 for k in lidar | rng)  # two bits below the frame
    assert {s.stream.split("|")[0].strip() for s in STREAMS if s.key_tag == "lidar"} == {
        "frame << 2"
    }


def _normals(key, stream, n, dtype=np.float32):
    z = np.empty(n, dtype)
    fill_normals(key, stream, 0, z, 0.0, 1.0, 1)
    return z


def test_range_draws_only_its_own_stream_of_the_lidar_key():
    seed, frame, n = 123, 5, 257
    (kind,) = _kinds("range")
    rng = fn.RangeNoise(mean=0.0, stddev=1.0, min_range=0.0, max_range=1e6, seed=seed)
    lidar = fn.LidarNoise(distance_noise_stddev_base=1.0, seed=seed)
    assert rng.key == lidar.key  # one key: the sharing is real
    noise = rng.apply(np.full(n, 100.0), frame=frame) - 100.0
    assert np.array_equal(noise, _normals(rng.key, frame << 2 | kind, n).astype(np.float64))
    for k in _kinds("lidar"):
        assert not np.any(noise == _normals(rng.key, frame << 2 | k, n))
    # the lidar's distance noise is its own stream kind of the same key
    (dist,) = (v for s in STREAMS for name, v in s.c_names if name == "LIDAR_DISTANCE")
    res = lidar.apply(np.tile([0.0, 0.0, 100.0], (n, 1)), frame=frame)
    assert np.array_equal(res.distances - 100.0, _normals(lidar.key, frame << 2 | dist, n))


def test_the_range_bias_frame_is_closed_to_the_lidar():
    bits = c_constants()["LIDAR_FRAME_BITS"]
    last = 2**bits - 1
    with pytest.raises(ValueError, match="frame"):
        fn.LidarNoise(seed=1).apply(np.zeros((2, 3)), frame=last)
    (kind,) = _kinds("range")
    r = fn.RangeNoise(
        mean=0.0,
        stddev=0.0,
        min_range=0.0,
        max_range=10.0,
        bias_stddev=1.0,
        flip_bias_sign=False,
        seed=123,
    )
    assert r.bias == _normals(r.key, last << 2 | kind, 1, np.float64)[0]


# ---- camera and depth: one normal per pixel -------------------------------------------


@pytest.mark.parametrize("frame", [0, 3, 2**40])
def test_depth_noise_is_the_camera_normal_of_each_pixel(frame):
    seed, s, h, w = 7, 0.01, 9, 11
    cam = fn.ImageNoise(0.0, s, seed=seed)
    depth = fn.DepthNoise(0.0, s, seed=seed)
    assert cam.key == depth.key
    gray = np.full((h, w), 0.5)
    z_cam = (cam.apply(gray, frame=frame) - 0.5) / s
    assert np.all(np.abs(z_cam * s) < 0.5)  # no pixel clamped to [0, 1]
    d = np.linspace(1.0, 20.0, h * w).reshape(h, w)
    z_depth = (depth.apply(d, frame=frame) - d) / s
    np.testing.assert_allclose(z_depth, z_cam, rtol=0, atol=1e-9)
    # one normal per pixel: every colour channel of that pixel has it too
    rgb = cam.apply(np.full((h, w, 3), 0.5), frame=frame)
    for c in range(3):
        np.testing.assert_allclose((rgb[..., c] - 0.5) / s, z_cam, rtol=0, atol=1e-9)
    # and it is a pixel's own normal, not a shared constant: another seed differs
    other = (fn.DepthNoise(0.0, s, seed=seed + 1).apply(d, frame=frame) - d) / s
    assert np.all(np.abs(other - z_cam) > 1e-6)
