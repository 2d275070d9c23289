"""The IMU fold of ``fastnoise.dask.imu_noise`` without a cluster: the bias-only entry
(``ImuNoise._advance_biases``, C ``fn_imu_advance_biases``) leaves exactly the state
the full kernel leaves, on every SIMD path; the dask graph keeps the output chunks
independent of each other; the synchronous scheduler gives ``apply``'s bits."""

import dask
import numpy as np
import pytest

da = pytest.importorskip("dask.array")

from fastnoise import dask as fdask  # noqa: E402
from fastnoise.models.imu.imu_noise import ImuNoise  # noqa: E402
from fastnoise.models.imu.triad import TriadNoise, wt901c  # noqa: E402

# every term on (white, turn-on, steady-state Gauss-Markov, random walk, linear step,
# G-sensitivity, saturation, quantization)
ALL_TERMS = TriadNoise(
    noise_stddev=2e-3,
    noise_density=(1e-3, 2e-3, 3e-3),
    bias=(0.01, -0.02, 0.03),
    turn_on_bias_mean=0.05,
    turn_on_bias_stddev=0.01,
    gauss_markov_stddev=3e-3,
    gauss_markov_correlation_time=(5.0, 0.7, 20.0),
    gauss_markov_steady_state=True,
    random_walk_density=(1e-3, 2e-4, 5e-3),
    scale_factor=(1e-3, -2e-3, 5e-4),
    misalignment=[[0, 1e-3, -2e-3], [5e-4, 0, 1e-3], [2e-3, -1e-3, 0]],
    g_sensitivity=1e-4,
    full_scale=3.0,
    bits=12,
)
# Gazebo's dynamic bias (the turn-on bias decays in the Gauss-Markov state) on some
# axes, its precision rounding, no random walk anywhere
GAZEBO = TriadNoise(
    noise_stddev=0.009,
    turn_on_bias_mean=(0.1, 0.2, 0.3),
    turn_on_bias_stddev=0.05,
    gauss_markov_stddev=(0.01, 0.0, 0.02),
    gauss_markov_correlation_time=(3.0, 0.0, 5.0),
    turn_on_bias_decays=True,
    resolution=(0.01, 0.0, 0.025),
    rounding="gazebo",
)
WALK_ONE_AXIS = TriadNoise(random_walk_density=(0.0, 3e-3, 0.0))


def _models():
    g, a = wt901c()
    yield "wt901c", {"gyro": g, "accel": a}
    yield "all_terms", {"gyro": ALL_TERMS, "accel": ALL_TERMS.replace(g_sensitivity=0.0)}
    yield "gazebo", {"gyro": GAZEBO, "accel": TriadNoise(noise_density=0.002)}
    yield "walk_one_axis", {"gyro": TriadNoise(noise_stddev=0.01), "accel": WALK_ONE_AXIS}


MODELS = dict(_models())


def _record(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 3)), rng.normal(size=(n, 3)) + [0.0, 0.0, 9.81]


def _moving(name, normal_dtype, seed=5):
    """A model whose biases already move (three samples applied at another step)."""
    m = ImuNoise(**MODELS[name], seed=seed, normal_dtype=normal_dtype)
    w, a = _record(3, seed=99)
    m.apply(w, a, 0.02)
    return m


@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(MODELS))
def test_advance_equals_apply_state(simd_path, name, normal_dtype):
    # lengths around the kernel's 512-sample chunk; constant and varying steps
    rng = np.random.default_rng(1)
    for n in (0, 1, 7, 511, 512, 513, 1500):
        for dt in (0.01, rng.choice([0.01, 0.02, 0.005], size=n)):
            m = _moving(name, normal_dtype)
            full = ImuNoise.from_state(m.state)
            fold = ImuNoise.from_state(m.state)
            full.apply(*_record(n), dt)
            fold._advance_biases(n, dt)
            assert fold.state == full.state, (n, dt)
    # the fold moved the biases (not a test of a model standing still)
    if name != "walk_one_axis":
        assert not np.array_equal(fold.gauss_markov_bias, m.gauss_markov_bias)


@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
def test_advance_after_each_chunk(simd_path, normal_dtype):
    """Fold over an uneven chunking: after every chunk, the state of the full kernel."""
    bounds = np.cumsum([0, 1, 1, 600, 7, 512, 80, 1, 300])
    w, a = _record(int(bounds[-1]))
    full = _moving("all_terms", normal_dtype)
    fold = ImuNoise.from_state(full.state)
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        full.apply(w[lo:hi], a[lo:hi], 0.01)
        fold._advance_biases(int(hi - lo), 0.01)
        assert fold.state == full.state
    assert full.sample_count == 3 + bounds[-1]


def test_advance_negative_zero_states():
    # a walk state of -0 on axes without a walk: the kernel runs the walk chain once
    # (turning -0 into +0) and then leaves it; the fold must give the same bits
    m = ImuNoise(**MODELS["gazebo"], seed=2)
    st = m.state
    st["position"]["random_walk"] = [[-0.0] * 3, [-0.0] * 3]
    st["position"]["gauss_markov"] = [[-0.0] * 3, [-0.0] * 3]
    assert np.signbit(ImuNoise.from_state(st).random_walk_bias).all()
    for n in (1, 600):
        full, fold = ImuNoise.from_state(st), ImuNoise.from_state(st)
        full.apply(*_record(n), 0.01)
        fold._advance_biases(n, 0.01)
        assert fold.state == full.state
        assert np.array_equal(np.signbit(fold.random_walk_bias), np.signbit(full.random_walk_bias))
        assert not np.signbit(fold.random_walk_bias).any()


def test_advance_refusals_change_nothing():
    m = _moving("all_terms", "float32")
    before = m.state
    with pytest.raises(ValueError, match="n=-1"):
        m._advance_biases(-1, 0.01)
    with pytest.raises(ValueError, match="dt"):
        m._advance_biases(5, 0.0)
    with pytest.raises(ValueError, match=r"dt has shape \(4,\)"):
        m._advance_biases(5, np.full(4, 0.01))
    assert m.state == before
    # the sample count at its end: refused with apply's own words
    st = m.state
    st["position"]["sample_count"] = 2**64 - 3
    full, fold = ImuNoise.from_state(st), ImuNoise.from_state(st)
    with pytest.raises(OverflowError) as want:
        full.apply(*_record(5), 0.01)
    with pytest.raises(OverflowError) as got:
        fold._advance_biases(5, 0.01)
    assert str(got.value) == str(want.value)
    assert fold.state == st
    fold._advance_biases(2, 0.01)  # the last 2 samples there is room for
    full.apply(*_record(2), 0.01)
    assert fold.state == full.state


# ---- the dask graph -------------------------------------------------------------------


def _ancestors(dsk, key):
    seen, todo = set(), [key]
    while todo:
        for dep in dask.core.get_dependencies(dsk, todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def _name(key):
    return (key[0] if isinstance(key, tuple) else key).rsplit("-", 1)[0]


def test_graph_output_chunks_independent():
    n_chunks = 6
    w, a = _record(6 * 10)
    o, acc, st = fdask.imu_noise(
        da.from_array(w, chunks=(10, 3)),
        da.from_array(a, chunks=(10, 3)),
        0.01,
        _moving("all_terms", "float32"),
        return_state=True,
    )
    dsk = dict(o.__dask_graph__())
    keys = list(dask.core.flatten(o.__dask_keys__()))
    assert len(keys) == n_chunks
    fold_of_chunk = []
    for i, key in enumerate(keys):
        anc = _ancestors(dsk, key)
        outputs = [k for k in anc if _name(k) == "_imu_outputs"]
        folds = {k for k in anc if _name(k) == "_imu_advance"}
        # one full computation per output chunk (its own), none of another chunk
        assert len(outputs) == 1
        # its start state: i steps of the fold (the bias recurrences of chunks 0..i-1)
        assert len(folds) == i
        direct = dask.core.get_dependencies(dsk, outputs[0])
        starts = [k for k in direct if _name(k) == "_imu_advance"]
        if i:
            fold_anc = {k for k in _ancestors(dsk, starts[0]) if _name(k) == "_imu_advance"}
            assert len(starts) == 1 and fold_anc | set(starts) == folds
        fold_of_chunk.append(outputs[0])
    assert len(set(fold_of_chunk)) == n_chunks
    # the fold never waits for an output or for the data
    sdsk = dict(st.__dask_graph__())
    fold_anc = _ancestors(sdsk, st.key)
    assert not [k for k in fold_anc if _name(k) in ("_imu_outputs", "array")]
    assert len([k for k in fold_anc | {st.key} if _name(k) == "_imu_advance"]) == n_chunks


@pytest.mark.parametrize("chunks", [1, (5, 1, 700, 3, 91), 512, 800])
def test_sync_scheduler_every_path(simd_path, chunks):
    w, a = _record(100 if chunks == 1 else 800, seed=3)  # 100 tasks of 1 sample
    model = _moving("all_terms", "float32")
    seq = ImuNoise.from_state(model.state)
    want_w, want_a = seq.apply(w, a, 0.01)
    c = (chunks, 3) if isinstance(chunks, int) else (chunks, (3,))
    o, acc, st = fdask.imu_noise(
        da.from_array(w, chunks=c), da.from_array(a, chunks=c), 0.01, model, return_state=True
    )
    got_w, got_a, got_st = dask.compute(o, acc, st, scheduler="sync")
    assert np.array_equal(got_w, want_w) and np.array_equal(got_a, want_a)
    assert got_st == seq.state
    assert model.sample_count == 3  # the model itself is not advanced


def test_imu_noise_bad_input():
    w = da.zeros((10, 3), chunks=5)
    m = ImuNoise(seed=1)
    with pytest.raises(ValueError, match="dt=0"):
        fdask.imu_noise(w, w, 0.0, m)
    with pytest.raises(ValueError, match=r"\(10, 2\)"):
        fdask.imu_noise(w, w[:, :2], 0.01, m)
