"""GaussianNoiseGenerator: the invariants the counter-keyed design promises, bit for bit,
and clear errors for bad input. Values themselves are checked in test_philox.py
(reference) and test_generator_stats.py (distribution)."""

from __future__ import annotations

import copy
import pickle
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastnoise import GaussianNoiseGenerator
from fastnoise.core.generator import fill_normals

F64, F32 = np.float64, np.float32


def same_bits(a, b) -> bool:
    """Bit-for-bit equality (== would also call -0.0 and 0.0 equal)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ---- one value at a time vs bulk -------------------------------------------------------


def test_n_generate_calls_equal_one_normal_call():
    g = GaussianNoiseGenerator(42)
    one_by_one = np.array([g.generate() for _ in range(1001)])
    assert same_bits(one_by_one, GaussianNoiseGenerator(42).normal(size=1001))


def test_generate_then_normal_continues_the_same_stream():
    """An odd number of generate() calls leaves the second value of a pair cached; the
    bulk call that follows must start with exactly that value."""
    g = GaussianNoiseGenerator(7)
    head = [g.generate() for _ in range(3)]
    tail = g.normal(size=10)
    assert same_bits(np.concatenate([head, tail]), GaussianNoiseGenerator(7).normal(size=13))


def test_size_none_returns_a_python_float_for_float64():
    g = GaussianNoiseGenerator(3)
    x = g.normal()
    assert type(x) is float
    assert x == GaussianNoiseGenerator(3).generate()


def test_size_none_returns_a_numpy_float32_for_float32():
    x = GaussianNoiseGenerator(3).normal(dtype=F32)
    assert isinstance(x, np.float32)
    assert same_bits(x, GaussianNoiseGenerator(3).normal(size=1, dtype=F32)[0])


def test_float32_single_draws_equal_one_fill():
    g = GaussianNoiseGenerator(11)
    singles = np.array([g.normal(dtype=F32) for _ in range(23)], dtype=F32)
    assert same_bits(singles, GaussianNoiseGenerator(11).normal(size=23, dtype=F32))


# ---- chunking, threads, shapes -----------------------------------------------------------


@pytest.mark.parametrize("dtype", [F64, F32])
def test_fill_split_into_chunks_equals_one_fill(dtype):
    # odd sizes, sizes below a block, and one larger than a 256-block kernel chunk
    chunks = [1, 2, 3, 5, 1, 7, 4, 1, 600, 13, 2, 1027, 3, 1]
    whole = GaussianNoiseGenerator(2024).normal(size=sum(chunks), dtype=dtype)
    g = GaussianNoiseGenerator(2024)
    parts = np.concatenate([g.normal(size=c, dtype=dtype) for c in chunks])
    assert same_bits(parts, whole)


@pytest.mark.parametrize("dtype", [F64, F32])
def test_random_chunkings_equal_one_fill(dtype):
    rng = np.random.default_rng(5)  # only to choose chunk sizes
    whole = GaussianNoiseGenerator(8).normal(size=5000, dtype=dtype)
    for _ in range(5):
        cuts = np.sort(rng.choice(np.arange(1, 5000), size=30, replace=False))
        g = GaussianNoiseGenerator(8)
        parts = [g.normal(size=int(n), dtype=dtype) for n in np.diff(np.r_[0, cuts, 5000])]
        assert same_bits(np.concatenate(parts), whole)


@settings(max_examples=60, deadline=None)
@given(
    chunks=st.lists(st.integers(0, 40), min_size=1, max_size=25),
    offset=st.integers(0, 2**40),
    as_f32=st.booleans(),
)
def test_any_chunking_at_any_position_equals_one_fill(chunks, offset, as_f32):
    dtype = F32 if as_f32 else F64
    whole = GaussianNoiseGenerator(3)
    whole.advance(offset)
    expected = whole.normal(size=sum(chunks), dtype=dtype)
    g = GaussianNoiseGenerator(3)
    g.advance(offset)
    got = np.concatenate([g.normal(size=c, dtype=dtype) for c in chunks])
    assert same_bits(got, expected)


@pytest.mark.parametrize("dtype", [F64, F32])
@pytest.mark.parametrize("offset", [0, 1, 3])
def test_thread_count_does_not_change_the_values(dtype, offset):
    """1.2e6 values split into 4 parts of > 65536 values (the smallest split); an odd
    offset makes the first part start inside a block."""
    n = 1_200_001
    results = []
    for threads in (1, 2, 4):
        g = GaussianNoiseGenerator(77)
        g.normal(size=offset, dtype=dtype)
        results.append(g.normal(size=n, dtype=dtype, threads=threads))
        assert g.position == offset + n
    assert same_bits(results[0], results[1])
    assert same_bits(results[0], results[2])


def test_fill_normals_threads_and_offsets_agree():
    flat1 = np.empty(300_003)
    flat4 = np.empty(300_003)
    fill_normals(123, 4, 5, flat1, 1.5, 2.0, 1)
    fill_normals(123, 4, 5, flat4, 1.5, 2.0, 4)
    assert same_bits(flat1, flat4)
    # a fill starting later reads the same numbers shifted: value j is fixed
    later = np.empty(1000)
    fill_normals(123, 4, 5 + 777, later, 1.5, 2.0, 1)
    assert same_bits(later, flat1[777:1777])


@pytest.mark.parametrize("dtype", [F64, F32])
def test_shape_only_changes_layout(dtype):
    a = GaussianNoiseGenerator(1).normal(size=(3, 5, 7), dtype=dtype)
    b = GaussianNoiseGenerator(1).normal(size=105, dtype=dtype)
    assert a.shape == (3, 5, 7) and a.dtype == dtype
    assert same_bits(a.ravel(), b)


@pytest.mark.parametrize("dtype", [F64, F32])
def test_out_is_filled_in_place_and_returned(dtype):
    out = np.full((4, 6), np.nan, dtype=dtype)
    res = GaussianNoiseGenerator(9).normal(out=out, dtype=dtype)
    assert res is out
    assert same_bits(out.ravel(), GaussianNoiseGenerator(9).normal(size=24, dtype=dtype))


def test_out_with_matching_size_is_accepted():
    out = np.empty(10)
    assert GaussianNoiseGenerator(9).normal(size=10, out=out) is out


def test_empty_size_draws_nothing():
    g = GaussianNoiseGenerator(9)
    assert g.normal(size=0).shape == (0,)
    assert same_bits(g.normal(size=4), GaussianNoiseGenerator(9).normal(size=4))


# ---- mean and stddev ---------------------------------------------------------------------


def exact_fma(a: float, b: float, c: float) -> float:
    """a * b + c rounded once (Python 3.11 has no math.fma): exact rationals, then
    int / int true division, which is correctly rounded."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def test_mean_and_stddev_scale_exactly():
    """A draw is fma(stddev, z, mean), one rounding (csrc/normal.h)."""
    z = GaussianNoiseGenerator(5).normal(size=999)
    scaled = GaussianNoiseGenerator(5).normal(size=999, loc=-3.25, scale=0.01)
    assert same_bits(scaled, np.array([exact_fma(0.01, v, -3.25) for v in z]))
    g = GaussianNoiseGenerator(5)
    assert g.generate(2.0, 0.3) == exact_fma(0.3, z[0], 2.0)


def test_mean_and_stddev_scale_exactly_in_float32():
    """With stddev a power of two, stddev * z is exact in float32, so
    fmaf(stddev, z, mean) is float32 mean + stddev * z with its one rounding."""
    z = GaussianNoiseGenerator(5).normal(size=999, dtype=F32)
    scaled = GaussianNoiseGenerator(5).normal(size=999, loc=-3.25, scale=0.125, dtype=F32)
    assert same_bits(scaled, F32(-3.25) + F32(0.125) * z)


def test_zero_stddev_gives_the_mean_and_still_advances():
    g = GaussianNoiseGenerator(5)
    assert np.all(g.normal(size=10, loc=4.5, scale=0.0) == 4.5)
    assert same_bits(g.normal(size=3), GaussianNoiseGenerator(5).normal(size=13)[10:])


# ---- mixing dtypes -----------------------------------------------------------------------


def test_dtypes_share_one_position():
    """float64 and float32 read the same stream: value j is normal j in either dtype,
    so mixing them neither skips nor repeats an index (csrc/normal.h)."""
    ref64 = GaussianNoiseGenerator(31).normal(size=40)
    ref32 = GaussianNoiseGenerator(31).normal(size=40, dtype=F32)
    g = GaussianNoiseGenerator(31)
    assert same_bits(g.normal(size=3), ref64[:3])
    assert same_bits(g.normal(size=1, dtype=F32), ref32[3:4])
    assert g.position == 4
    assert same_bits(g.normal(size=2), ref64[4:6])
    assert same_bits(g.generate(), ref64[6])
    assert same_bits(g.normal(dtype=F32), ref32[7])
    assert same_bits(g.normal(size=20, dtype=F32), ref32[8:28])
    assert same_bits(g.normal(size=5), ref64[28:33])
    assert g.position == 33


def test_dtype_follows_out_when_not_given():
    out = np.empty(7, dtype=F32)
    assert GaussianNoiseGenerator(4).normal(out=out) is out
    assert same_bits(out, GaussianNoiseGenerator(4).normal(size=7, dtype=F32))


# ---- copies, pickles, state, reset -------------------------------------------------------


def advanced_generator() -> GaussianNoiseGenerator:
    g = GaussianNoiseGenerator(555, stream=3)
    g.normal(size=10)
    g.generate()  # odd position: the second value of a pair is cached
    return g


@pytest.mark.parametrize(
    "duplicate",
    [
        lambda g: g.copy(),
        copy.copy,
        copy.deepcopy,
        lambda g: pickle.loads(pickle.dumps(g)),
        lambda g: pickle.loads(pickle.dumps(g, protocol=pickle.HIGHEST_PROTOCOL)),
    ],
    ids=["copy", "copy.copy", "deepcopy", "pickle", "pickle-highest"],
)
def test_duplicates_continue_exactly_as_the_original(duplicate):
    g = advanced_generator()
    d = duplicate(g)
    assert d is not g and d == g
    assert same_bits([d.generate() for _ in range(5)], [g.generate() for _ in range(5)])
    assert same_bits(d.normal(size=77, dtype=F32), g.normal(size=77, dtype=F32))
    assert same_bits(d.normal(size=33), g.normal(size=33))
    # and they are independent: drawing from one does not move the other
    d.normal(size=5)
    assert d != g


def test_state_round_trip_continues_exactly():
    g = advanced_generator()
    state = g.state
    expected = g.normal(size=50)
    other = GaussianNoiseGenerator(1)
    other.state = state
    assert same_bits(other.normal(size=50), expected)
    assert other.key == g.key and other.stream == g.stream


def test_state_is_plain_data_and_setting_it_does_not_modify_it():
    g = advanced_generator()
    state = g.state
    snapshot = copy.deepcopy(state)
    GaussianNoiseGenerator(0).state = state
    assert state == snapshot
    assert pickle.loads(pickle.dumps(state)) == state


def test_state_round_trip_across_a_dtype_switch():
    g = GaussianNoiseGenerator(2)
    g.normal(size=5, dtype=F32)
    h = GaussianNoiseGenerator(3)
    h.state = g.state
    assert same_bits(h.normal(size=7), g.normal(size=7))


def test_reset_reproduces_the_first_output():
    g = GaussianNoiseGenerator(19, stream=4)
    first = g.normal(size=25)
    g.generate()
    g.normal(size=8, dtype=F32)
    g.reset()
    assert g.position == 0
    assert same_bits(g.normal(size=25), first)
    g.reset()
    assert g.generate() == first[0]


def test_reset_drops_the_cached_value():
    g = GaussianNoiseGenerator(19)
    a = g.generate()
    g.reset()
    assert g.generate() == a


def test_advance_skips_values():
    ref = GaussianNoiseGenerator(6).normal(size=40)
    g = GaussianNoiseGenerator(6)
    g.generate()
    g.advance(17)
    assert same_bits(g.normal(size=5), ref[18:23])


# ---- seeds, streams, spawning ------------------------------------------------------------


def test_equal_seeds_give_equal_generators():
    a, b = GaussianNoiseGenerator(1234, stream=5), GaussianNoiseGenerator(1234, stream=5)
    assert a == b and a.key == b.key
    assert same_bits(a.normal(size=100), b.normal(size=100))


def test_seed_sequence_and_int_seed_agree():
    a = GaussianNoiseGenerator(np.random.SeedSequence(1234))
    assert same_bits(a.normal(size=10), GaussianNoiseGenerator(1234).normal(size=10))


@pytest.mark.parametrize(("seed_b", "stream_b"), [(1235, 0), (1234, 1), (0, 0)])
def test_different_seeds_or_streams_differ(seed_b, stream_b):
    a = GaussianNoiseGenerator(1234, stream=0).normal(size=100)
    b = GaussianNoiseGenerator(seed_b, stream=stream_b).normal(size=100)
    assert not np.any(a == b)  # 100 continuous values: a coincidence has probability ~0


def test_seed_none_records_entropy_that_reproduces_the_run():
    g = GaussianNoiseGenerator()
    h = GaussianNoiseGenerator(None)
    assert g.seed.entropy != h.seed.entropy  # fresh entropy each time
    again = GaussianNoiseGenerator(g.seed.entropy)
    assert again.key == g.key
    assert same_bits(again.normal(size=20), g.normal(size=20))


def test_spawn_children_are_distinct_and_reproducible():
    kids = GaussianNoiseGenerator(100).spawn(4)
    again = GaussianNoiseGenerator(100).spawn(4)
    assert len(kids) == 4 and len({k.key for k in kids}) == 4
    assert GaussianNoiseGenerator(100).key not in {k.key for k in kids}
    draws = [k.normal(size=50) for k in kids]
    for k, d in zip(again, draws, strict=True):
        assert same_bits(k.normal(size=50), d)
    for i in range(4):
        for j in range(i + 1, 4):
            assert not np.any(draws[i] == draws[j])


def test_spawn_twice_gives_new_children_and_copies_spawn_the_same():
    g = GaussianNoiseGenerator(100)
    first = g.spawn(2)
    c = g.copy()
    second, second_copy = g.spawn(2), c.spawn(2)
    assert {k.key for k in first}.isdisjoint(k.key for k in second)
    assert [k.key for k in second] == [k.key for k in second_copy]


def test_spawn_does_not_move_the_parent():
    g = GaussianNoiseGenerator(100)
    g.spawn(3)
    assert same_bits(g.normal(size=10), GaussianNoiseGenerator(100).normal(size=10))


def test_check_numerics_is_true_for_a_healthy_generator():
    g = GaussianNoiseGenerator(1)
    assert g.check_numerics()
    g.generate()
    g.normal(size=3, dtype=F32)
    assert g.check_numerics()


def test_large_stream_ids_are_accepted():
    g = GaussianNoiseGenerator(1, stream=2**64 - 1)
    assert g.stream == 2**64 - 1
    assert np.all(np.isfinite(g.normal(size=10)))


# ---- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("stddev", [-1.0, -1e-300, np.nan, np.inf, -np.inf])
def test_bad_stddev_is_rejected_by_normal(stddev):
    with pytest.raises(ValueError, match="scale"):
        GaussianNoiseGenerator(0).normal(size=3, scale=stddev)


@pytest.mark.parametrize("stddev", [-1.0, np.nan, np.inf])
def test_bad_stddev_is_rejected_by_generate(stddev):
    with pytest.raises(ValueError, match="stddev"):
        GaussianNoiseGenerator(0).generate(0.0, stddev)


@pytest.mark.parametrize("mean", [np.nan, np.inf, -np.inf])
def test_non_finite_mean_is_rejected(mean):
    with pytest.raises(ValueError, match="loc"):
        GaussianNoiseGenerator(0).normal(size=3, loc=mean)
    with pytest.raises(ValueError, match="mean"):
        GaussianNoiseGenerator(0).generate(mean, 1.0)


def test_bad_input_leaves_the_position_alone():
    g = GaussianNoiseGenerator(0)
    with pytest.raises(ValueError):
        g.normal(size=3, scale=-1.0)
    with pytest.raises(ValueError):
        g.generate(np.nan)
    assert g.position == 0


@pytest.mark.parametrize("dtype", [np.int64, int, np.complex128, complex, np.float16, "bogus"])
def test_wrong_dtype_is_rejected(dtype):
    with pytest.raises(TypeError, match="dtype"):
        GaussianNoiseGenerator(0).normal(size=3, dtype=dtype)


def test_out_with_wrong_shape_is_rejected():
    with pytest.raises(ValueError, match="out"):
        GaussianNoiseGenerator(0).normal(size=5, out=np.empty(4))
    with pytest.raises(ValueError, match="out"):
        GaussianNoiseGenerator(0).normal(size=(2, 3), out=np.empty((3, 2)))


@pytest.mark.parametrize("dtype", [F32, F64])
def test_out_with_a_dtype_other_than_requested_is_rejected(dtype):
    other = F64 if dtype == F32 else F32
    with pytest.raises(TypeError, match="out"):
        GaussianNoiseGenerator(0).normal(size=4, dtype=dtype, out=np.empty(4, dtype=other))


@pytest.mark.parametrize("bad_dtype", [np.int64, np.complex128, np.float16])
def test_out_of_a_non_float_dtype_is_rejected(bad_dtype):
    with pytest.raises(TypeError, match="dtype"):
        GaussianNoiseGenerator(0).normal(size=4, out=np.zeros(4, dtype=bad_dtype))


def test_non_contiguous_out_is_rejected_and_untouched():
    base = np.zeros(10)
    with pytest.raises(ValueError, match="out"):
        GaussianNoiseGenerator(0).normal(size=5, out=base[::2])
    assert np.all(base == 0.0)
    with pytest.raises(ValueError, match="out"):
        GaussianNoiseGenerator(0).normal(out=np.zeros((4, 4)).T)


def test_read_only_out_is_rejected():
    out = np.zeros(4)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out"):
        GaussianNoiseGenerator(0).normal(size=4, out=out)


def test_out_that_is_not_an_array_is_rejected():
    with pytest.raises(TypeError, match="out"):
        GaussianNoiseGenerator(0).normal(size=4, out=[0.0] * 4)


@pytest.mark.parametrize("seed", [-1, -(2**70)])
def test_negative_seed_is_rejected(seed):
    with pytest.raises(ValueError, match="seed"):
        GaussianNoiseGenerator(seed)


@pytest.mark.parametrize("seed", [True, False, np.True_, 1.5, "42", [1, 2]])
def test_non_integer_seed_is_rejected(seed):
    with pytest.raises(TypeError, match="seed"):
        GaussianNoiseGenerator(seed)


@pytest.mark.parametrize("stream", [-1, 2**64, 2**70])
def test_stream_out_of_range_is_rejected(stream):
    with pytest.raises(ValueError, match="stream"):
        GaussianNoiseGenerator(0, stream=stream)


@pytest.mark.parametrize("threads", [0, -2])
def test_bad_thread_count_is_rejected(threads):
    with pytest.raises(ValueError, match="threads"):
        GaussianNoiseGenerator(0).normal(size=10, threads=threads)
    with pytest.raises(ValueError, match="threads"):
        fill_normals(0, 0, 0, np.empty(10), 0.0, 1.0, threads)


@pytest.mark.parametrize("n", [-1, -100])
def test_negative_counts_are_rejected(n):
    with pytest.raises(ValueError, match="n="):
        GaussianNoiseGenerator(0).spawn(n)
    with pytest.raises(ValueError, match="n="):
        GaussianNoiseGenerator(0).advance(n)


def _state_with(path, value):
    """A valid state with the entry at ``path`` (keys, outermost first) replaced."""
    state = GaussianNoiseGenerator(0).state
    d = state
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value
    return state


def _state_without(*path):
    state = GaussianNoiseGenerator(0).state
    d = state
    for k in path[:-1]:
        d = d[k]
    del d[path[-1]]
    return state


@pytest.mark.parametrize(
    ("state", "error", "names"),
    [
        ([1, 2, 3], TypeError, "state"),
        (_state_with(("model",), "imu"), ValueError, "model"),
        (_state_with(("version",), 2), ValueError, "version"),
        (_state_with(("params", "stream"), 2**64), ValueError, "stream"),
        (_state_with(("position", "position"), -5), ValueError, "position"),
        (_state_with(("position", "position"), 2**64), ValueError, "position"),
        (_state_with(("seed_seq", "pool_size"), 10**6), ValueError, "pool_size"),
        (_state_without("position", "position"), ValueError, "position"),
        (_state_without("seed_seq"), ValueError, "seed_seq"),
        (_state_with(("position", "cache"), 1), ValueError, "cache"),
    ],
    ids=[
        "not-a-dict",
        "other-model",
        "unknown-version",
        "big-stream",
        "negative-position",
        "position-2**64",
        "huge-pool",
        "missing-position",
        "missing-seed_seq",
        "extra-entry",
    ],
)
def test_bad_state_is_rejected_and_changes_nothing(state, error, names):
    g = advanced_generator()
    before = g.state
    with pytest.raises(error, match=names):
        g.state = state
    assert g.state == before
    assert same_bits(g.normal(size=5), advanced_generator().normal(size=5))


# ---- types are checked, not coerced -------------------------------------------------------


@pytest.mark.parametrize("stream", [1.5, True, "3"])
def test_non_integer_stream_is_rejected(stream):
    with pytest.raises(TypeError, match="stream"):
        GaussianNoiseGenerator(0, stream=stream)


def test_non_integer_thread_count_is_rejected():
    with pytest.raises(TypeError, match="threads"):
        GaussianNoiseGenerator(0).normal(size=10, threads=1.5)


@pytest.mark.parametrize(
    ("threads", "error"), [("2", TypeError), (0, ValueError), (-1, ValueError)]
)
def test_thread_count_is_checked_without_a_size_too(threads, error):
    """Issue 27: with size=None (one value drawn) threads was not looked at."""
    g = GaussianNoiseGenerator(0)
    with pytest.raises(error) as sized:
        g.normal(size=10, threads=threads)
    for call in (
        lambda: g.normal(threads=threads),
        lambda: g.normal(1.0, 2.0, threads=threads),
        lambda: g.standard_normal(threads=threads),
        lambda: g.normal(threads=threads, dtype=np.float32),
    ):
        with pytest.raises(error) as one:
            call()
        assert str(one.value) == str(sized.value)
    assert g.position == 0  # nothing drawn


_F32_MAX = float(np.finfo(np.float32).max)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"loc": 1e39}, "loc"),
        ({"loc": -1e39}, "loc"),
        ({"scale": 1e39}, "scale"),
        ({"loc": 1e39, "size": 5}, "loc"),
        ({"scale": 1e300, "size": (2, 2)}, "scale"),
        ({"loc": [0.0, 1e39], "size": 2}, "loc"),
        ({"scale": np.array([1.0, 2e38, 4e38])}, "scale"),
    ],
)
def test_float32_refuses_what_float32_cannot_hold(kwargs, name):
    """Issue 27: these returned inf. The refusal names the parameter, the value and the
    float32 limit, and draws nothing."""
    g = GaussianNoiseGenerator(0)
    bad = float(np.max(np.abs(np.atleast_1d(kwargs[name]))))
    with pytest.raises(
        ValueError,
        match=rf"{name}.*{re.escape(repr(bad))}.*dtype=float32.*{re.escape(repr(_F32_MAX))}",
    ) as e:
        g.normal(**kwargs, dtype=np.float32)
    assert "not allowed" in str(e.value)
    with pytest.raises(ValueError, match=name):
        g.normal(**kwargs, out=np.empty(kwargs.get("size", 3), np.float32))
    assert g.position == 0
    g.normal(**kwargs)  # float64 holds them: drawn as before
    batch = GaussianNoiseGenerator(0, num_envs=2)
    if np.ndim(kwargs[name]) == 0:
        with pytest.raises(
            ValueError, match=rf"{name}=-?{re.escape(repr(bad))} is not allowed with dtype"
        ):
            batch.normal(**kwargs, dtype=np.float32)


def test_float32_takes_every_value_it_can_hold():
    """The float32 limit itself, and a float64 just above it that rounds to it, draw as
    before (fma(0, z, loc) = loc exactly); a large scale float32 holds is taken."""
    g = GaussianNoiseGenerator(0)
    above = np.nextafter(_F32_MAX, np.inf)  # float32 rounds it down to the limit
    assert np.float32(above) == np.float32(_F32_MAX)
    for loc in (_F32_MAX, -_F32_MAX, above):
        got = g.normal(loc, 0.0, size=3, dtype=np.float32)
        assert np.array_equal(got, np.full(3, np.float32(loc)))
    ref = GaussianNoiseGenerator(0).normal(0.0, 1.0, size=4, dtype=np.float32)
    got = GaussianNoiseGenerator(0).normal(0.0, 1e30, size=4, dtype=np.float32)
    assert np.array_equal(got, ref * np.float32(1e30))  # fma(s, z, 0) = s * z


@pytest.mark.parametrize(
    ("path", "value", "names"),
    [
        (("params", "stream"), "abc", "stream"),
        (("position", "position"), 1.5, "position"),
        (("seed_seq",), "x", "seed_seq"),
        (("version",), True, "version"),
    ],
    ids=["stream-str", "position-float", "seed_seq-str", "version-bool"],
)
def test_state_entries_of_wrong_type_are_rejected_by_name(path, value, names):
    with pytest.raises((TypeError, ValueError), match=names):
        GaussianNoiseGenerator(0).state = _state_with(path, value)


# ---- the type stub covers the public API --------------------------------------------------


def _stub_names():
    import ast
    from pathlib import Path

    stub = Path(__file__).resolve().parents[1] / "src" / "fastnoise" / "core" / "generator.pyi"
    tree = ast.parse(stub.read_text())
    top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    members = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    base = ast.parse((stub.parent / "model.pyi").read_text())
    model = next(n for n in base.body if isinstance(n, ast.ClassDef) and n.name == "Model")
    members |= {n.name for n in model.body if isinstance(n, ast.FunctionDef)}
    members |= {
        n.target.id
        for n in model.body
        if isinstance(n, ast.AnnAssign | ast.Assign)
        and isinstance(getattr(n, "target", None), ast.Name)
    }
    return top, members


def test_stub_lists_every_public_name():
    import fastnoise.core.generator as mod

    top, members = _stub_names()
    public = {
        name
        for name, obj in vars(mod).items()
        if not name.startswith("_") and getattr(obj, "__module__", None) == mod.__name__
    }
    assert public == top
    methods = {n for n in dir(GaussianNoiseGenerator) if not n.startswith("_")}
    assert methods <= members
