"""Large DvlSimulator.measure_many batches: the output is streamed to memory, the
memory of dropped results is recycled, and neither may change a bit."""

from __future__ import annotations

import gc
import pickle

import numpy as np
import pytest

from fastnoise.core import buffers
from fastnoise.models.dvl import config as dc
from fastnoise.models.dvl.simulator import MESSAGE_DTYPE, TRUTH_DTYPE, DvlSimulator

# More than 8 MiB of messages: the streamed (non-temporal) output path.
N = 90_001


def truth_array(n, seed=0):
    rng = np.random.default_rng(seed)
    t = np.zeros(n, TRUTH_DTYPE)
    t["roll"], t["pitch"] = rng.uniform(-30, 30, (2, n))
    t["yaw"] = rng.uniform(-180, 180, n)
    for f in ("surge", "sway", "heave", "water_speed"):
        t[f] = rng.normal(0, 1, n)
    t["depth"], t["altitude"] = rng.uniform(0, 50, (2, n))
    t["rpm"] = rng.uniform(0, 1500, n)
    t["yaw"][7] = 1e300  # the slow exact reduction in a streamed chunk
    t["roll"][N // 2] = np.nan
    return t


def sensors():
    return {
        name: dict(
            bias=spec.bias_range[1] / 2,
            noise_stddev=spec.noise_dev_range[1] / 2,
            anchor=-7.25,
            anchor_probability=0.05,
        )
        for name, spec in dc.SENSORS.items()
    }


def bits(a):
    return np.ascontiguousarray(a).view(np.uint64)


def small_batches(t, seed):
    """The same messages from batches too small to be streamed."""
    sim = DvlSimulator(sensors(), seed=seed)
    return np.concatenate([sim.measure_many(t[i : i + 5000]) for i in range(0, len(t), 5000)])


def test_streamed_batch_equals_small_batches_and_columns(simd_path):
    t = truth_array(N, seed=1)
    expected = small_batches(t, seed=2)
    got = DvlSimulator(sensors(), seed=2).measure_many(t)
    assert np.array_equal(bits(got), bits(expected))
    cols = {f: np.ascontiguousarray(t[f]) for f in dc.TRUTH_FIELDS}
    got = DvlSimulator(sensors(), seed=2).measure_many(cols)
    assert np.array_equal(bits(got), bits(expected))
    got = DvlSimulator(sensors(), seed=2).measure_many(t, threads=3)
    assert np.array_equal(bits(got), bits(expected))


def test_threads_each_stream_and_prefetch_their_span():
    """180,001 samples on two threads: each span (9.4 MB of messages, 7.2 MB of truth)
    takes the streamed output and the truth prefetch, starting mid-batch."""
    n = 2 * N - 1
    t = truth_array(n, seed=3)
    one = DvlSimulator(sensors(), seed=4).measure_many(t)
    two = DvlSimulator(sensors(), seed=4).measure_many(t, threads=2)
    assert np.array_equal(bits(two), bits(one))
    assert np.array_equal(bits(one), bits(small_batches(t, seed=4)))


def test_streamed_into_out_at_every_alignment(simd_path):
    """Records are 104 bytes: an out array may start anywhere mod 32 bytes."""
    t = truth_array(N, seed=3)
    expected = small_batches(t, seed=4)
    raw = np.empty(N * MESSAGE_DTYPE.itemsize + 64, np.uint8)
    base = (-raw.ctypes.data) % 32
    for shift in (0, 8, 16, 24):
        start = base + shift
        out = raw[start : start + N * MESSAGE_DTYPE.itemsize].view(MESSAGE_DTYPE)
        out[...] = np.zeros((), MESSAGE_DTYPE)
        got = DvlSimulator(sensors(), seed=4).measure_many(t, out=out)
        assert got is out
        assert np.array_equal(bits(out), bits(expected))


def test_streamed_wide_records():
    """Records wider than the ten truth fields (stride 11) on the streamed path."""
    t = truth_array(N, seed=5)
    wide = np.zeros(N, [(f, np.float64) for f in dc.TRUTH_FIELDS] + [("time", np.float64)])
    for f in dc.TRUTH_FIELDS:
        wide[f] = t[f]
    expected = small_batches(t, seed=6)
    got = DvlSimulator(sensors(), seed=6).measure_many(wide)
    assert np.array_equal(bits(got), bits(expected))


def test_recycled_memory_never_changes_a_live_result():
    t = truth_array(N, seed=7)
    sim = DvlSimulator(sensors(), seed=8)
    first = sim.measure_many(t)
    keep = first.copy()
    view = first["vn"][10:20]
    keep_view = view.copy()
    second = sim.measure_many(t)  # first is alive: new memory
    assert not np.shares_memory(first, second)
    assert np.array_equal(bits(first), bits(keep))
    del first
    gc.collect()
    third = sim.measure_many(t)  # first's memory is still held by the view
    assert np.array_equal(view, keep_view)
    assert not np.shares_memory(view, third)
    del view, second
    fourth = sim.measure_many(t[: N - 3])  # a dropped block serves a smaller batch
    fifth = sim.measure_many(t[:100])  # small batches use ordinary numpy memory
    assert fourth.dtype == MESSAGE_DTYPE and fourth.shape == (N - 3,)
    assert fourth.flags.c_contiguous and fourth.flags.writeable and fourth.flags.aligned
    # the whole sequence equals one fresh simulator's run
    ref = DvlSimulator(sensors(), seed=8)
    for got, part in ((keep, t), (None, t), (third, t), (fourth, t[: N - 3]), (fifth, t[:100])):
        exp = ref.measure_many(part)
        if got is not None:
            assert np.array_equal(bits(got), bits(exp))
    fourth["vn"][:] = 1.0  # results are ordinary writable arrays
    assert (fourth["vn"] == 1.0).all()


def test_recycled_results_pickle_and_outlive_the_simulator():
    t = truth_array(N, seed=9)
    sim = DvlSimulator(sensors(), seed=10)
    a = sim.measure_many(t)
    del sim
    gc.collect()
    c = pickle.loads(pickle.dumps(a))
    assert np.array_equal(bits(a), bits(c))
    assert np.array_equal(bits(a), bits(DvlSimulator(sensors(), seed=10).measure_many(t)))


@pytest.mark.needs_recycling
def test_blocks_over_the_recycling_cap():
    """Results over the cap are freed when dropped and leave the spare blocks alone."""
    from fastnoise.core import buffers as _buffers

    buffers.release_spare_memory()  # no spare block that could serve the big batch
    t = truth_array(N, seed=11)
    sim = DvlSimulator(sensors(), seed=12)
    ref = DvlSimulator(sensors(), seed=12)
    small = sim.measure_many(t[: N // 2])  # 4.7 MB: recycled
    assert np.array_equal(bits(small), bits(ref.measure_many(t[: N // 2])))
    del small
    old = _buffers._set_limits(5 << 20)
    try:
        spare = buffers.spare_memory()
        assert spare >= (N // 2) * MESSAGE_DTYPE.itemsize
        for _ in range(2):
            big = sim.measure_many(t)  # 9.4 MB: over the cap
            assert np.array_equal(bits(big), bits(ref.measure_many(t)))
            del big
            assert buffers.spare_memory() == spare  # freed, not kept
    finally:
        _buffers._set_limits(old)
    again = sim.measure_many(t[: N // 2])
    assert np.array_equal(bits(again), bits(ref.measure_many(t[: N // 2])))


def test_streamed_batch_stops_cleanly_at_a_too_large_truth_value():
    """A finite truth value beyond 1e300 late in a streamed batch: the kernel stops
    after that chunk (fencing its streamed stores), the call raises naming the field
    and index, the batch's samples are used, and the simulator goes on as if the
    batch had run."""
    t = truth_array(N, seed=13)
    t["heave"][N - 700] = 3e300
    sim = DvlSimulator(sensors(), seed=14)
    for k, threads in enumerate((1, 2)):
        out = np.zeros(N, MESSAGE_DTYPE)
        with pytest.raises(ValueError, match=rf"truth\['heave'\]\[{N - 700}\]"):
            sim.measure_many(t, out=out, threads=threads)
        ref = DvlSimulator(sensors(), seed=14)
        for s in ref.sensors.values():
            s.position = k * N
        # the chunks before the one that failed are the batch's messages
        assert np.array_equal(bits(out[: N // 2]), bits(ref.measure_many(t[: N // 2])))
    assert sim["dvl_heave"].position == 2 * N
    ref = DvlSimulator(sensors(), seed=14)
    for s in ref.sensors.values():
        s.position = 2 * N
    good = t[:100]
    assert np.array_equal(bits(sim.measure_many(good)), bits(ref.measure_many(good)))


def test_streamed_batch_into_its_own_truth_in_place():
    """A MESSAGE_DTYPE array as its own truth on the streamed path: each record is
    read before the (delayed, streamed) store of its chunk writes it."""
    t = truth_array(N, seed=16)
    expected = small_batches(t, seed=17)
    buf = np.zeros(N, MESSAGE_DTYPE)
    for f in dc.TRUTH_FIELDS:
        buf[f] = t[f]
    for threads in (1, 2):
        inplace = buf.copy()
        got = DvlSimulator(sensors(), seed=17).measure_many(inplace, out=inplace, threads=threads)
        assert got is inplace
        assert np.array_equal(bits(inplace), bits(expected))
