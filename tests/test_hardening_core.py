"""Hardening of the shared core: the array-intake path, the end of a stream, and the
thread pool across fork."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from fastnoise import GaussianNoiseGenerator
from fastnoise.core import arrays
from fastnoise.core.generator import fill_normals, generator_at_key

# ---- fill_normals writes only into what it may ---------------------------------------


@pytest.mark.parametrize(
    ("flat", "error", "name"),
    [
        (np.zeros(8, np.int8), TypeError, "flat"),
        (np.zeros(8, ">f8"), TypeError, "flat"),
        (np.zeros(16)[::-2], ValueError, "flat"),
        (np.zeros(16)[::2], ValueError, "flat"),
        ([0.0] * 4, TypeError, "flat"),
    ],
    ids=["int8", "big-endian", "negative-stride", "strided", "list"],
)
def test_fill_normals_refuses_arrays_it_would_overrun(flat, error, name):
    with pytest.raises(error, match=name):
        fill_normals(1, 0, 0, flat)


def test_fill_normals_refuses_read_only_arrays_and_leaves_them_alone():
    a = np.zeros(8)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        fill_normals(1, 0, 0, a)
    assert not a.any()


@pytest.mark.parametrize("arg", ["key", "stream", "first"])
@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, True])
def test_fill_normals_counters_are_checked_by_name(arg, bad):
    kwargs = {"key": 1, "stream": 0, "first": 0, arg: bad}
    with pytest.raises((TypeError, ValueError), match=arg):
        fill_normals(flat=np.zeros(4), **kwargs)


# ---- a stream never wraps to its start -----------------------------------------------


def test_generate_at_the_last_position_refuses_instead_of_wrapping():
    g = generator_at_key(5, 0, 2**64 - 2)
    last = g.generate()
    assert g.position == 2**64 - 1
    with pytest.raises(OverflowError, match="end of the stream"):
        g.generate()
    assert g.position == 2**64 - 1
    assert last == generator_at_key(5, 0, 2**64 - 2).generate()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fill_up_to_the_end_refuses_one_more(dtype):
    g = generator_at_key(5, 0, 2**64 - 10)
    g.standard_normal(9, dtype=dtype)
    assert g.position == 2**64 - 1
    with pytest.raises(OverflowError):
        g.standard_normal(1, dtype=dtype)
    with pytest.raises(OverflowError):
        g.standard_normal(dtype=dtype)
    with pytest.raises(OverflowError):
        g.advance(1)
    assert g.position == 2**64 - 1


# ---- the thread pool survives fork ---------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_child_forked_after_threads_finishes():
    code = textwrap.dedent(
        """
        import os, sys
        import numpy as np
        from fastnoise import GaussianNoiseGenerator
        g = GaussianNoiseGenerator(1)
        a = g.standard_normal(1 << 20, threads=2)
        pid = os.fork()
        if pid == 0:
            b = GaussianNoiseGenerator(1).standard_normal(1 << 20, threads=2)
            os._exit(0 if np.array_equal(a, b) else 3)
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
        """
    )
    r = subprocess.run([sys.executable, "-c", code], timeout=120, capture_output=True)
    assert r.returncode == 0, r.stderr.decode()[-2000:]


# ---- the intake helpers --------------------------------------------------------------


def test_intake_copies_big_endian_and_unaligned_and_never_modifies():
    be = np.arange(6, dtype=">f8").reshape(2, 3)
    got = arrays.intake("x", be, np.float64, last_dim=3)
    assert got.dtype.isnative and np.array_equal(got, be) and got is not be
    raw = np.zeros(8 * 7 + 1, np.uint8)[1:].view(np.float64)  # unaligned
    raw[:] = np.arange(7)
    got = arrays.intake("x", raw, np.float64)
    assert got.flags.aligned and np.array_equal(got, np.arange(7.0))
    native = np.ones((4, 3))
    assert arrays.intake("x", native, np.float64) is native


@pytest.mark.parametrize(
    "value",
    [
        np.array([True]),
        np.array([1j]),
        np.array(["a"]),
        np.array([None], object),
        np.array(["2020-01-01"], "datetime64[D]"),
    ],
)
def test_intake_refuses_non_real_dtypes_by_name(value):
    with pytest.raises(TypeError, match="points"):
        arrays.intake("points", value, np.float64)


def test_partial_overlap_is_refused_and_in_place_is_allowed():
    a = np.zeros(10)
    arrays.no_partial_overlap({"out": a}, {"x": a})
    with pytest.raises(ValueError, match="out overlaps x"):
        arrays.no_partial_overlap({"out": a[1:]}, {"x": a[:-1]})
    with pytest.raises(ValueError, match="out overlaps out2"):
        arrays.no_partial_overlap({"out": a, "out2": a}, {})
    arrays.no_partial_overlap({"out": a[:5]}, {"x": a[5:]})


def test_generator_state_survives_unchanged_after_refusals():
    g = GaussianNoiseGenerator(3)
    g.standard_normal(5)
    before = g.state
    for bad in ([1.0], "x", np.zeros(3, np.int16)):
        with pytest.raises((TypeError, ValueError)):
            g.normal(0.0, 1.0, 3, out=bad)
    assert g.state == before


@pytest.mark.parametrize("n", [2**32, 2**63, -1])
def test_a_seed_state_with_an_impossible_child_count_is_refused_by_name(n):
    g = GaussianNoiseGenerator(1)
    state = g.state
    state["seed_seq"] = {**state["seed_seq"], "n_children_spawned": n}
    with pytest.raises(ValueError, match="n_children_spawned"):
        g.state = state


@pytest.mark.parametrize("seed", [2**128, 2**200])
def test_a_seed_that_no_state_could_record_is_refused(seed):
    with pytest.raises(ValueError, match="seed"):
        GaussianNoiseGenerator(seed)


def test_the_largest_seed_round_trips_through_state():
    g = GaussianNoiseGenerator(2**128 - 1)
    assert GaussianNoiseGenerator.from_state(g.state) == g


@pytest.mark.parametrize(
    "value",
    [
        np.timedelta64(3, "s"),
        np.datetime64("2020-01-01"),
        np.complex128(1.0),
        np.bool_(True),
        np.str_("1.0"),
    ],
)
def test_numpy_scalars_that_are_no_real_number_are_refused_by_name(value):
    from fastnoise.core import validate

    with pytest.raises(TypeError, match="dt="):
        validate.finite("dt", value)
    with pytest.raises(TypeError, match="n="):
        validate.integer("n", value, 0, 10)
