"""Limits of the inputs (issue 27, item 3): suite files nested deeper than
MAX_SUITE_DEPTH levels and Allan inputs whose sums leave float64 are refused with a
message saying what is allowed; values just inside the limits are taken."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fastnoise.analysis import fit_noise, oadev
from fastnoise.io.suite import load_suite
from fastnoise.io.suite.suite import MAX_SUITE_DEPTH

ENTRY = '"seed": 1, "files": {"*": {"model": "lidar"}}'


@pytest.mark.parametrize("depth", [MAX_SUITE_DEPTH, 100, 100_000])
def test_a_suite_nested_too_deep_is_refused_by_name(tmp_path, depth):
    path = tmp_path / "s.json"
    path.write_text("{" + ENTRY + ', "x": ' + "[" * depth + "]" * depth + "}")
    with pytest.raises(ValueError, match=rf"s.json: .*at most {MAX_SUITE_DEPTH}") as err:
        load_suite(path)
    assert "\n" not in str(err.value)


def test_a_suite_just_inside_the_depth_limit_reaches_the_entry_checks(tmp_path):
    path = tmp_path / "s.json"
    depth = MAX_SUITE_DEPTH - 1  # the top-level table counts as one level
    path.write_text("{" + ENTRY + ', "x": ' + "[" * depth + "]" * depth + "}")
    with pytest.raises(ValueError) as err:
        load_suite(path)
    assert "levels" not in str(err.value)  # refused for the unknown key, not its depth
    json.loads(path.read_text())  # and it is valid JSON


def test_a_deep_toml_suite_is_refused_by_name(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("seed = 1\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ValueError, match=r"s.toml: nested too deeply to be read"):
        load_suite(path)


@pytest.mark.parametrize("scale", [1e154, 1e200, 1e300])
def test_allan_inputs_that_overflow_float64_are_refused(scale):
    y = np.random.default_rng(4).normal(0.0, 1.0, (4000, 2)) * scale
    y[:, 0] /= scale  # column 0 is fine: column 1 is named
    for call in (lambda: oadev(y, 100.0), lambda: fit_noise(y, 100.0)):
        with pytest.raises(
            ValueError, match=r"data column 1 is not allowed: its samples are too large"
        ):
            call()


def test_large_but_representable_inputs_still_work():
    y = np.random.default_rng(4).normal(0.0, 1.0, 4000)
    small = oadev(y, 100.0)
    big = oadev(y * 1e140, 100.0)
    np.testing.assert_allclose(big.adev, small.adev * 1e140, rtol=1e-12)
    np.testing.assert_array_equal(big.alpha, small.alpha)


def test_carla_drops_float32_points_whose_squared_distance_overflows():
    """The documented rule: |p|^2 in the cloud's dtype; float32 drops beyond
    sqrt(FLT_MAX) ~ 1.8e19 m, float64 keeps them up to ~1.3e154 m."""
    from fastnoise import CarlaLidarNoise

    quiet = CarlaLidarNoise(
        dropoff_general_rate=0.0, dropoff_zero_intensity=0.0, atmosphere_attenuation_rate=0.0
    )
    edge = float(np.sqrt(np.finfo(np.float32).max))
    for d, f4_kept in ((edge * 0.99, 1), (edge * 1.01, 0)):
        for dtype, kept in ((np.float32, f4_kept), (np.float64, 1)):
            cloud = np.array([[0.0, d, 0.0, 1.0]], dtype=dtype)
            assert quiet.apply(cloud, frame=0).points.shape[0] == kept, (d, dtype)
    far = np.array([[1.2e154, 0, 0, 1], [1.4e154, 0, 0, 1]], dtype=np.float64)
    assert quiet.apply(far, frame=0).points.shape[0] == 1
