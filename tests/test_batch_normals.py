"""The batch's refilled normals (csrc/imu_batch_fill_kern.c, issue 24): every SIMD path
gives a batch whose env i is, bit for bit, the single model ``env=i`` computed on the scalar
path; terms that are off, both normal dtypes, refills across many groups, resets and
``dt`` changes in the middle of a cached group, and the checks' cached verdicts."""

import numpy as np
import pytest

from fastnoise.core import simd
from fastnoise.models.imu import ImuNoise, TriadNoise

N = 7  # an odd count of environments
# the gyro has every term; the accelerometer has no random walk (its streams are off),
# so an env draws 15 of the 18 streams (the refill zeroes the other three slots)
GYRO = TriadNoise(
    noise_density=1e-3,
    gauss_markov_stddev=2e-3,
    gauss_markov_correlation_time=5.0,
    random_walk_density=1e-4,
    turn_on_bias_stddev=0.01,
)
ACCEL = TriadNoise(noise_stddev=0.02, gauss_markov_stddev=0.01, gauss_markov_correlation_time=50.0)
STEPS = 70  # past four refills of the 16-sample cache


def _inputs(k):
    rng = np.random.default_rng(k)
    return rng.normal(size=(N, 3)), rng.normal(0.0, 9.0, size=(N, 3))


def _dt(k):
    # a step that changes at sample 5 of a group, and per-env steps now and then
    return 0.01 if k < 21 else (0.02 if k % 7 else np.linspace(1e-3, 5e-3, N))


def _reference(normal_dtype):
    """Outputs of the single models on the scalar path, sample by sample."""
    before = simd.simd_path()
    simd.set_simd_path("scalar")
    try:
        singles = [
            ImuNoise(GYRO, ACCEL, seed=11, env=i, normal_dtype=normal_dtype) for i in range(N)
        ]
        outs = []
        for k in range(STEPS):
            if k == 37:  # env 2 reset mid-group
                singles[2].reset()
            w, a = _inputs(k)
            dt = np.broadcast_to(_dt(k), (N,))
            outs.append([singles[i].step(w[i], a[i], float(dt[i])) for i in range(N)])
        return outs
    finally:
        simd.set_simd_path(before)


@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
def test_batch_on_every_simd_path_equals_scalar_single_models(simd_path, normal_dtype):
    want = _reference(normal_dtype)
    batch = ImuNoise(GYRO, ACCEL, seed=11, num_envs=N, normal_dtype=normal_dtype)
    for k in range(STEPS):
        if k == 37:
            batch.reset(env_ids=[2])
        w, a = _inputs(k)
        bw, ba = batch.step(w, a, _dt(k))
        for i in range(N):
            assert np.array_equal(bw[i], want[k][i][0]), (simd_path, k, i)
            assert np.array_equal(ba[i], want[k][i][1]), (simd_path, k, i)


def test_checks_still_refuse_after_the_cached_verdict():
    """The check pass reuses the last step's verdict on the bias states; a refusal that
    comes from the inputs is still found, names the env, and changes nothing."""
    batch = ImuNoise(GYRO, ACCEL, seed=11, num_envs=N)
    for k in range(3):
        batch.step(*_inputs(k), 0.01)
    state = batch.state
    w, a = _inputs(3)
    w[4, 1] = 1e305  # beyond the largest accepted true value
    with pytest.raises(ValueError, match=r"environment 4: omega\[1\]=1e\+305"):
        batch.step(w, a, 0.01)
    assert batch.state == state
    again = ImuNoise.from_state(state)
    bw, _ = batch.step(*_inputs(3), 0.01)
    cw, _ = again.step(*_inputs(3), 0.01)
    assert np.array_equal(bw, cw)


def _moved(state, position, far):
    """``state`` with ``position`` (one model's) moved to sample ``far``: every stream
    whose term is on (position > 0 after a first step) stands at ``far``."""
    position["sample_count"] = far
    position["stream_positions"] = [
        [far if p else 0 for p in row] for row in position["stream_positions"]
    ]
    return state


@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
def test_refills_far_into_the_streams_equal_the_single_model(simd_path, normal_dtype):
    """Samples past 2^36: the Philox block counter's high word is nonzero (the batch
    refill builds the counters of its own lanes), and env 1 of the batch still gives the
    single model's bits across three refills while envs 0 and 2 stay near the start."""
    far = 2**36 + 13  # mid-group, so the first refill is a partial group
    zeros = np.zeros((3, 3))
    batch = ImuNoise(GYRO, ACCEL, seed=5, num_envs=3, normal_dtype=normal_dtype)
    batch.step(zeros, zeros, 0.01)
    state = batch.state
    batch = ImuNoise.from_state(_moved(state, state["position"]["envs"][1], far))
    single = ImuNoise(GYRO, ACCEL, seed=5, env=1, normal_dtype=normal_dtype)
    single.step(zeros[0], zeros[0], 0.01)
    state = single.state
    single = ImuNoise.from_state(_moved(state, state["position"], far))
    rng = np.random.default_rng(3)
    for k in range(40):
        w, a = rng.normal(size=(3, 3)), rng.normal(0.0, 9.0, size=(3, 3))
        bw, ba = batch.step(w, a, 0.01)
        sw, sa = single.step(w[1], a[1], 0.01)
        assert np.array_equal(bw[1], sw) and np.array_equal(ba[1], sa), (simd_path, k)
    assert list(batch.sample_count) == [41, far + 40, 41]
