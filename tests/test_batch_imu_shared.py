"""The shared-row step of a batched ImuNoise (csrc/imu_batch_kern.c): when every
environment has the same coefficients (no per-environment parameter, no scale,
misalignment or G-sensitivity, one step dt), a step reads them once for all envs.
Env i must still be the single model built with ``env=i``, bit for bit, through
every switch between that path and the per-env one (dt changes, per-env steps,
partial resets, states set from outside, refusals)."""

import numpy as np
import pytest

from fastnoise.core import simd
from fastnoise.models.imu import ImuNoise, TriadNoise

N = 6
# every term that the shared row carries: white, Gauss-Markov, random walk, turn-on
# (a per-env offset), saturation and quantization
GYRO = TriadNoise(
    noise_density=1e-3,
    gauss_markov_stddev=2e-3,
    gauss_markov_correlation_time=5.0,
    random_walk_density=1e-4,
    turn_on_bias_stddev=0.01,
)
ACCEL = TriadNoise(
    noise_stddev=0.02,
    random_walk_density=1e-3,
    gauss_markov_stddev=0.01,
    gauss_markov_correlation_time=50.0,
    gauss_markov_steady_state=True,
    bits=16,
    full_scale=100.0,
)
GAZEBO = TriadNoise(noise_stddev=0.01, resolution=1e-3, rounding="gazebo")


def _inputs(t, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(t, N, 3)), rng.normal(0.0, 9.0, size=(t, N, 3))


def _check(batch, singles, w, a, dts):
    """Steps batch and singles through rows w[k], a[k] with steps dts[k] (a float, or
    (N,) per env) and asserts every env's bits, every step."""
    for k, dt in enumerate(dts):
        bw, ba = batch.step(w[k], a[k], dt)
        d = np.broadcast_to(np.asarray(dt, float), (N,))
        for i, m in enumerate(singles):
            sw, sa = m.step(w[k, i], a[k, i], float(d[i]))
            assert np.array_equal(bw[i], sw) and np.array_equal(ba[i], sa), (k, i)


@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
@pytest.mark.parametrize("triads", [(GYRO, ACCEL), (GAZEBO, GAZEBO), ({}, ACCEL)])
def test_shared_steps_equal_single_models(triads, normal_dtype):
    g, acc = triads
    batch = ImuNoise(g, acc, seed=11, num_envs=N, normal_dtype=normal_dtype)
    singles = [ImuNoise(g, acc, seed=11, env=i, normal_dtype=normal_dtype) for i in range(N)]
    w, a = _inputs(40)  # 40 samples: across two refills of the cached normals
    _check(batch, singles, w, a, [0.01] * 40)


@pytest.mark.parametrize("path", ["scalar", "avx2", "avx512"])
def test_every_simd_path_gives_the_same_bits(path):
    if path not in simd.simd_paths_available():
        pytest.skip(f"{path} is not available on this CPU")
    w, a = _inputs(20)
    before = simd.simd_path()
    outs = {}
    try:
        for p in ("scalar", path):
            simd.set_simd_path(p)
            m = ImuNoise(GYRO, ACCEL, seed=3, num_envs=N)
            outs[p] = [m.step(w[k], a[k], 0.005) for k in range(20)]
    finally:
        simd.set_simd_path(before)
    for x, y in zip(outs["scalar"], outs[path], strict=True):
        assert np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])


def test_switches_between_the_shared_and_the_per_env_path():
    batch = ImuNoise(GYRO, ACCEL, seed=5, num_envs=N)
    singles = [ImuNoise(GYRO, ACCEL, seed=5, env=i) for i in range(N)]
    per_env = np.linspace(0.004, 0.006, N)
    same = np.full(N, 0.01)  # per-env steps that happen to be equal
    dts = [0.01] * 5 + [0.02] * 3 + [per_env] * 2 + [0.01] * 4 + [same] * 2 + [0.01] * 20
    w, a = _inputs(len(dts), seed=1)
    _check(batch, singles, w, a, dts)


def test_partial_reset_puts_envs_out_of_phase():
    batch = ImuNoise(GYRO, ACCEL, seed=9, num_envs=N)
    singles = [ImuNoise(GYRO, ACCEL, seed=9, env=i) for i in range(N)]
    w, a = _inputs(60, seed=2)
    _check(batch, singles, w[:7], a[:7], [0.01] * 7)
    batch.reset(env_ids=[1, 4])  # envs 1 and 4 restart: their spans differ from the rest
    for i in (1, 4):
        singles[i].reset()
    _check(batch, singles, w[7:30], a[7:30], [0.01] * 23)
    batch.reset(env_ids=np.arange(N) % 2 == 0)
    for i in range(0, N, 2):
        singles[i].reset()
    _check(batch, singles, w[30:], a[30:], [0.01] * 30)


def test_per_env_parameters_keep_the_per_env_path():
    sigma = np.linspace(1e-3, 2e-3, N)[:, None] * np.ones(3)  # (N, 3): one row per env
    batch = ImuNoise({"noise_density": sigma}, ACCEL, seed=4, num_envs=N)
    singles = [ImuNoise({"noise_density": s}, ACCEL, seed=4, env=i) for i, s in enumerate(sigma)]
    w, a = _inputs(20, seed=3)
    _check(batch, singles, w, a, [0.01] * 20)


def test_in_place_and_out_arrays_on_the_shared_path():
    batch = ImuNoise(GYRO, ACCEL, seed=8, num_envs=N)
    twin = ImuNoise(GYRO, ACCEL, seed=8, num_envs=N)
    w, a = _inputs(3, seed=4)
    for k in range(3):
        ww, aa = w[k].copy(), a[k].copy()
        got = batch.step(ww, aa, 0.01, out_omega=ww, out_accel=aa)
        want = twin.step(w[k], a[k], 0.01)
        assert got[0] is ww and got[1] is aa
        assert np.array_equal(ww, want[0]) and np.array_equal(aa, want[1])


def test_refusals_after_shared_steps_name_the_env_and_change_nothing():
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    twin = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    w, a = _inputs(12, seed=5)
    for k in range(10):  # shared-row steps
        batch.step(w[k], a[k], 0.01)
        twin.step(w[k], a[k], 0.01)
    bad = a[10].copy()
    bad[4, 2] = 1e305
    with pytest.raises(ValueError, match=r"environment 4: accel\[2\]=1e\+305"):
        batch.step(w[10], bad, 0.01)
    assert batch.state == twin.state
    got, want = batch.step(w[11], a[11], 0.01), twin.step(w[11], a[11], 0.01)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_the_count_bound_holds_across_shared_steps():
    # env 2 two samples short of the 2^64 - 1 limit: two more shared-row steps pass,
    # the third is refused by name, and nothing changes
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    w, a = _inputs(6, seed=6)
    for k in range(3):
        batch.step(w[k], a[k], 0.01)
    state = batch.state
    env = state["position"]["envs"][2]
    count = 2**64 - 3
    env["stream_positions"] = [[count if p else 0 for p in row] for row in env["stream_positions"]]
    env["sample_count"] = count
    batch.state = state
    for k in (3, 4):
        batch.step(w[k], a[k], 0.01)
    before = batch.state
    assert before["position"]["envs"][2]["sample_count"] == 2**64 - 1
    with pytest.raises(OverflowError, match="environment 2: sample_count"):
        batch.step(w[5], a[5], 0.01)
    assert batch.state == before


def test_a_refused_step_size_after_shared_steps_changes_nothing():
    g = TriadNoise(noise_density=1e150)  # white sigma N / sqrt(dt) overflows for tiny dt
    batch = ImuNoise(g, ACCEL, seed=7, num_envs=N)
    twin = ImuNoise(g, ACCEL, seed=7, num_envs=N)
    w, a = _inputs(4, seed=7)
    for k in range(2):
        batch.step(w[k], a[k], 0.01)
        twin.step(w[k], a[k], 0.01)
    before = batch.state
    with pytest.raises(ValueError, match="environment 0"):
        batch.step(w[2], a[2], 1e-301)
    assert batch.state == before
    got, want = batch.step(w[3], a[3], 0.01), twin.step(w[3], a[3], 0.01)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
