"""Each Gazebo lidar's own rule for a NaN true range (issue #25): ``RangeNoise``'s
``nan_range`` switch, ``from_gazebo(nan_range=...)`` and ``load_sensors(lidar_nan=
"gazebo")``, checked against gz-sensors' source (gazebosim/gz-sensors at 9ba02f24):

- ``src/CpuLidarSensor.cc`` ``SetRaycastResults``: ``range = rMin + fraction *
  rayLength``; ``range < rMin`` -> -inf, ``range > rMax`` -> +inf (a NaN fraction fails
  both tests and stays NaN); then, with a noise model, ``if (std::isfinite(range))``
  noise and ``clamp(range, RangeMin(), RangeMax())``: a NaN is neither noised nor
  clamped, and the message takes ``ranges[i]`` as it is.
- ``src/Lidar.cc`` ``Lidar::Clamp``: NaN -> ``RangeMax()``; finite -> ``[min, max]``;
  +-inf kept. ``ApplyNoise`` (only with a noise model) noises and clamps every beam;
  ``PublishLidarScan`` (which ``GpuLidarSensor::Update`` runs, with or without a noise
  model) clamps every beam again.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import fastnoise as fn
from fastnoise.io.sdf import load_sensors

MIN, MAX = 0.08, 10.0
NAN, INF = math.nan, math.inf


def _cpu_set_raycast_results(fractions, noisy):
    """CpuLidarSensor::SetRaycastResults, line for line, with ``noisy`` standing in for
    ``noises[LIDAR_NOISE]->Apply`` (the draws: fastnoise's own, checked elsewhere)."""
    out = []
    for i, f in enumerate(fractions):
        if math.isinf(f):
            r = INF
        else:
            r = MIN + f * (MAX - MIN)
            if r < MIN:
                r = -INF
            elif r > MAX:
                r = INF
        if math.isfinite(r):
            r = min(max(noisy(r, i), MIN), MAX)
        out.append(r)
    return out


def _lidar_clamp(r):
    """Lidar::Clamp."""
    if math.isnan(r):
        return MAX
    return min(max(r, MIN), MAX) if math.isfinite(r) else r


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_cpu_lidar_keeps_a_nan_true_range(dtype):
    fractions = [0.0, 0.25, NAN, 1.0, -0.5, 1.5, INF, NAN, 0.999]
    truth = np.array([MIN + f * (MAX - MIN) for f in fractions], dtype)
    truth[np.isinf(np.array(fractions))] = INF
    m = fn.RangeNoise.from_gazebo(MIN, MAX, mean=0.01, stddev=0.05, nan_range="keep", seed=4)
    got = m.apply(truth, frame=7)
    # Apply(range) is fastnoise's beam i of frame 7 (the default model's finite beams)
    ref = fn.RangeNoise.from_gazebo(MIN, MAX, mean=0.01, stddev=0.05, seed=4)
    each = ref.apply(truth, frame=7)
    want = _cpu_set_raycast_results(fractions, lambda r, i: float(each[i]))
    np.testing.assert_array_equal(got, np.array(want, dtype))
    assert np.isnan(got[[2, 7]]).all() and (got[[4, 5, 6]] == [-INF, INF, INF]).all()
    # the default rule differs only there: NaN -> max_range
    assert (each[[2, 7]] == MAX).all()
    mask = ~np.isnan(truth)
    np.testing.assert_array_equal(got[mask], each[mask])
    assert m.apply_one(NAN, frame=7, index=2) is not None and math.isnan(
        m.apply_one(NAN, frame=7, index=2)
    )


def test_gpu_lidar_without_noise_model_still_clamps_nan():
    # no noise model (stddev 0 and mean 0: Lidar::Load builds none), as GpuLidarSensor
    # publishes: ApplyNoise does nothing, PublishLidarScan runs Lidar::Clamp
    rays = [NAN, 0.5, MIN, MAX, -INF, INF, 3.25, NAN]  # gz-rendering: +-inf outside
    m = fn.RangeNoise.from_gazebo(MIN, MAX, stddev=0.0, nan_range="max", seed=1)
    assert not m.enabled
    got = m.apply(np.array(rays))
    np.testing.assert_array_equal(got, [_lidar_clamp(r) for r in rays])
    assert [m.apply_one(r) for r in rays] == [_lidar_clamp(r) for r in rays]
    # fastnoise's default without a model passes NaN unchanged
    plain = fn.RangeNoise.from_gazebo(MIN, MAX, stddev=0.0, seed=1).apply(np.array(rays))
    assert np.isnan(plain[[0, 7]]).all()


def test_gpu_lidar_with_noise_nan_is_max_either_way():
    x = np.array([NAN, 1.0, 2.0, NAN])
    kw = dict(mean=0.0, stddev=0.02, seed=9)
    a = fn.RangeNoise.from_gazebo(MIN, MAX, nan_range="max", **kw).apply(x, frame=3)
    b = fn.RangeNoise.from_gazebo(MIN, MAX, **kw).apply(x, frame=3)
    np.testing.assert_array_equal(a, b)
    assert (a[[0, 3]] == MAX).all()


@pytest.mark.parametrize("rule", ["max", "keep"])
def test_batch_env_is_the_single_model(rule):
    x = np.array([[NAN, 1.0, 40.0], [2.0, NAN, -1.0]])
    kw = dict(inf_outside_limits=True, nan_range=rule)
    batch = fn.RangeNoise(0.0, 0.03, MIN, MAX, seed=5, num_envs=2, **kw)
    got = batch.apply(x, frame=4)
    for e in range(2):
        one = fn.RangeNoise(0.0, 0.03, MIN, MAX, seed=5, env=e, **kw)
        np.testing.assert_array_equal(got[e], one.apply(x[e], frame=4))
    assert np.isnan(got[0, 0]) == (rule == "keep") and np.isnan(got[1, 1]) == (rule == "keep")


def test_the_switch_is_kept_and_checked():
    m = fn.RangeNoise(0.0, 0.01, MIN, MAX, nan_range="keep", seed=2)
    assert m.nan_range == "keep" and "nan_range='keep'" in repr(m)
    assert m.state["params"]["nan_range"] == "keep"
    again = type(m).from_state(m.state)
    assert again.nan_range == "keep" and math.isnan(again.apply_one(NAN))
    assert fn.RangeNoise(0.0, 0.01, MIN, MAX).nan_range is None
    with pytest.raises(ValueError, match=r"nan_range='clamp' is not allowed.*'max', 'keep'"):
        fn.RangeNoise(0.0, 0.01, MIN, MAX, nan_range="clamp")


def test_cuda_refuses_a_rule_its_kernel_lacks():
    from fastnoise.cuda import range_noise

    m = fn.RangeNoise(0.0, 0.01, MIN, MAX, nan_range="max", seed=2)
    with pytest.raises(ValueError, match=r"model.nan_range='max' is not allowed on the GPU"):
        range_noise(m, np.zeros(3))


_SDF = """<sdf version="1.9"><world name="w"><model name="m"><link name="l">
<sensor name="cpu" type="ray"><ray><range><min>0.08</min><max>10</max></range>
<noise><type>gaussian</type><mean>0</mean><stddev>0.01</stddev></noise></ray></sensor>
<sensor name="gpu" type="gpu_lidar"><lidar><range><min>0.08</min><max>10</max></range>
<noise><type>gaussian</type><mean>0</mean><stddev>0.01</stddev></noise></lidar></sensor>
</link></model></world></sdf>"""


def test_load_sensors_gives_each_lidar_its_rule():
    exact = load_sensors(_SDF, seed=3, lidar_nan="gazebo")
    assert exact["cpu"].params["range"]["nan_range"] == "keep"
    assert exact["gpu"].params["range"]["nan_range"] == "max"
    assert math.isnan(exact["cpu"].model.apply_one(NAN))
    assert exact["gpu"].model.apply_one(NAN) == MAX
    default = load_sensors(_SDF, seed=3)
    assert all("nan_range" not in s.params["range"] for s in default.values())
    assert default["cpu"].model.apply_one(NAN) == MAX
    # the switch changes nothing else: same seeds, same bits for every other range
    x = np.linspace(0.0, 12.0, 50)
    for name in ("cpu", "gpu"):
        np.testing.assert_array_equal(
            exact[name].model.apply(x, frame=0), default[name].model.apply(x, frame=0)
        )
    with pytest.raises(ValueError, match=r"lidar_nan='exact' is not allowed"):
        load_sensors(_SDF, lidar_nan="exact")
