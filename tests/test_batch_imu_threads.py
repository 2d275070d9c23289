"""``ImuNoise(num_envs=N).step(..., threads=k)`` (issue 24): every environment is
checked first, then ranges of environments are stepped on the thread pool. Each
write of a step is local to its environment, so the outputs and the states must be
the same bits for every ``threads``, and a refusal must still leave every
environment untouched."""

import numpy as np
import pytest

from fastnoise.models.imu import ImuNoise, TriadNoise, imu_noise

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
    bits=16,
    full_scale=100.0,
)
# a scale factor and G-sensitivity take the per-env (linear) step, not the shared row
LINEAR = TriadNoise(noise_density=1e-3, scale_factor=(1e-3, -2e-3, 0.0), g_sensitivity=1e-4)
THREADS = (1, 2, 3, 7)
N = 23  # not a multiple of any split: parts of unequal length


@pytest.fixture
def small_parts(monkeypatch):
    """One env per part is enough to split, so a small batch runs on several threads
    (the default keeps parts of at least imu_noise._MIN_ENVS_PER_THREAD envs)."""
    monkeypatch.setattr(imu_noise, "_MIN_ENVS_PER_THREAD", 1)


def _rows(t, n, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(t, n, 3)), rng.normal(0.0, 9.0, size=(t, n, 3))


def _models(n, **kw):
    """One batch per entry of THREADS, plus the single-call reference (None)."""
    return {k: ImuNoise(seed=5, num_envs=n, **kw) for k in (None, *THREADS)}


def _assert_same(models):
    ref = models[None].state
    for k, m in models.items():
        assert m.state == ref, k


def _run(models, w, a, dts):
    """Step every batch through rows w[j], a[j] with step dts[j] (a float or (n,)) and
    assert that every threads= gives the reference's bits, output and state."""
    for j, dt in enumerate(dts):
        want = models[None].step(w[j], a[j], dt)
        for k in THREADS:
            got = models[k].step(w[j], a[j], dt, threads=k)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]), (j, k)
    _assert_same(models)


@pytest.mark.usefixtures("small_parts")
@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
@pytest.mark.parametrize("triads", [(GYRO, ACCEL), (LINEAR, ACCEL)], ids=["shared", "linear"])
def test_any_thread_count_gives_the_single_call_bits(triads, normal_dtype):
    models = _models(N, gyro=triads[0], accel=triads[1], normal_dtype=normal_dtype)
    w, a = _rows(50, N, 1)  # 50 samples: across three refills of the cached normals
    _run(models, w, a, [0.01] * 50)
    # per-env steps (the per-env path), then a new common step (new coefficients)
    dts = np.random.default_rng(2).uniform(0.005, 0.02, size=(20, N))
    _run(models, w, a, list(dts))
    _run(models, w, a, [0.004] * 20)


@pytest.mark.usefixtures("small_parts")
@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
def test_per_env_parameters_and_partial_resets(normal_dtype):
    nd = np.linspace(1e-3, 5e-3, N)[:, None] * np.array([1.0, 2.0, 3.0])
    kw = dict(
        gyro={"noise_density": nd, "random_walk_density": 1e-4},
        accel_bits=np.arange(N) % 9 + 8,
        accel_full_scale=50.0,
        accel_noise_stddev=0.1,
        normal_dtype=normal_dtype,
    )
    models = _models(N, **kw)
    w, a = _rows(40, N, 3)
    _run(models, w, a, [0.01] * 40)
    for m in models.values():  # envs out of phase: some at count 0, others at 40
        m.reset([0, 4, 5, 22])
    assert list(models[7].sample_count[:6]) == [0, 40, 40, 40, 0, 0]
    _run(models, w, a, [0.01] * 37)
    mask = np.arange(N) % 3 == 1
    for m in models.values():
        m.reset(mask)
    _run(models, w, a, [0.02] * 25)


def test_a_full_size_batch_splits_by_default():
    # the default smallest part (about a thousand envs): threads=4 gives 3 parts here
    models = {k: ImuNoise(GYRO, ACCEL, seed=9, num_envs=4000) for k in (None, 4)}
    w, a = _rows(20, 4000, 4)
    for j in range(20):
        want = models[None].step(w[j], a[j], 0.01)
        got = models[4].step(w[j], a[j], 0.01, threads=4)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]), j
    assert models[4].state == models[None].state


@pytest.mark.usefixtures("small_parts")
@pytest.mark.parametrize("threads", [2, 7])
def test_in_place_and_out_arrays(threads):
    models = _models(N, gyro=GYRO, accel=ACCEL)
    w, a = _rows(1, N, 6)
    want = models[None].step(w[0], a[0], 0.01)
    ww, aa = w[0].copy(), a[0].copy()
    got = models[threads].step(ww, aa, 0.01, out_omega=ww, out_accel=aa, threads=threads)
    assert got[0] is ww and got[1] is aa
    assert np.array_equal(ww, want[0]) and np.array_equal(aa, want[1])


@pytest.mark.usefixtures("small_parts")
@pytest.mark.parametrize("threads", [1, 2, 7])
def test_a_refusal_steps_no_environment(threads):
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    twin = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    w, a = _rows(3, N, 8)
    for j in range(2):  # the shared row is in use
        batch.step(w[j], a[j], 0.01, threads=threads)
        twin.step(w[j], a[j], 0.01)
    bad = a[2].copy()
    bad[N - 1, 2] = -1e305  # the last env: every env before it passes its checks
    before = [x.copy() for x in (w[2], bad)]
    with pytest.raises(ValueError, match=rf"environment {N - 1}: accel\[2\]=-1e\+305"):
        batch.step(w[2], bad, 0.01, threads=threads)
    assert batch.state == twin.state
    assert np.array_equal(w[2], before[0]) and np.array_equal(bad, before[1])
    got = batch.step(w[2], a[2], 0.01, threads=threads)
    want = twin.step(w[2], a[2], 0.01)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


@pytest.mark.parametrize(
    ("bad", "err"),
    [
        (0, ValueError),
        (-2, ValueError),
        (1 << 16, ValueError),
        (2.0, TypeError),
        (True, TypeError),
        ("2", TypeError),
    ],
)
@pytest.mark.parametrize("num_envs", [None, 4])
def test_bad_threads_are_refused_by_name(bad, err, num_envs):
    m = ImuNoise(GYRO, ACCEL, seed=1, num_envs=num_envs)
    twin = ImuNoise(GYRO, ACCEL, seed=1, num_envs=num_envs)
    shape = (3,) if num_envs is None else (num_envs, 3)
    with pytest.raises(err, match=r"threads="):
        m.step(np.zeros(shape), np.zeros(shape), 0.01, threads=bad)
    assert m.state == twin.state


def test_threads_is_keyword_only_and_a_single_model_takes_it():
    m = ImuNoise(GYRO, ACCEL, seed=1)
    twin = ImuNoise(GYRO, ACCEL, seed=1)
    with pytest.raises(TypeError):
        m.step(np.zeros(3), np.zeros(3), 0.01, None, None, 2)
    got = m.step(np.ones(3), np.ones(3), 0.01, threads=3)
    want = twin.step(np.ones(3), np.ones(3), 0.01)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
