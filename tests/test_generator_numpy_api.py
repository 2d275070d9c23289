"""normal(loc, scale, size) and standard_normal(size) with numpy.random.Generator's
meaning, the trap of the old argument order closed, and broadcasting of array loc and
scale as fma(scale, z, loc) element by element."""

from fractions import Fraction

import numpy as np
import pytest

from fastnoise import GaussianNoiseGenerator

F32 = np.float32


def _to_f32(q):
    """A Fraction rounded once to float32 (nearest, ties to even)."""
    lo = F32(float(q))
    # float(q) rounds to float64 first; fix a double rounding by checking neighbours
    cands = [np.nextafter(lo, F32(-np.inf)), lo, np.nextafter(lo, F32(np.inf))]
    return min(cands, key=lambda c: (abs(Fraction(float(c)) - q), int(c.view(np.uint32)) & 1))


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("n", [0, 1, 100])
def test_a_lone_integer_raises_and_explains_the_new_order(n):
    g = GaussianNoiseGenerator(0)
    with pytest.raises(TypeError, match=r"first argument is loc.*size="):
        g.normal(n)
    assert g.position == 0  # nothing drawn


def test_numpy_positional_order_is_loc_scale_size():
    a = GaussianNoiseGenerator(1).normal(5, 0.1, 4)
    b = GaussianNoiseGenerator(1).normal(loc=5.0, scale=0.1, size=4)
    assert a.shape == (4,) and same_bits(a, b)
    assert abs(a.mean() - 5.0) < 0.5
    # the old trap: normal(0, 1, 100) gave an empty array
    assert GaussianNoiseGenerator(1).normal(0, 1, 100).shape == (100,)


def test_explicit_scale_with_an_integer_loc_is_one_value_as_in_numpy():
    g = GaussianNoiseGenerator(2)
    x = g.normal(5, 1.0)
    assert isinstance(x, float)
    assert x == 5.0 + GaussianNoiseGenerator(2).standard_normal()


def test_standard_normal_is_normal_0_1():
    for dt in (np.float64, F32):
        a = GaussianNoiseGenerator(3).standard_normal((2, 3), dtype=dt)
        b = GaussianNoiseGenerator(3).normal(0.0, 1.0, (2, 3), dtype=dt)
        assert same_bits(a, b)


@pytest.mark.parametrize("dtype", [np.float64, F32])
def test_broadcast_loc_and_scale_are_an_elementwise_fma(dtype):
    loc = np.array([[0.0], [10.0], [-5.0]])
    scale = np.array([0.5, 1.0, 2.0, 0.0])
    got = GaussianNoiseGenerator(4).normal(loc, scale, dtype=dtype)
    assert got.shape == (3, 4) and got.dtype == dtype
    z = GaussianNoiseGenerator(4).standard_normal((3, 4), dtype=dtype)
    want = np.empty_like(z)
    for i in range(3):
        for j in range(4):
            # fma: the exact product plus the exact sum, rounded once to the dtype
            exact = Fraction(float(scale[j])) * Fraction(float(z[i, j])) + Fraction(loc[i, 0])
            want[i, j] = dtype(float(exact)) if dtype is np.float64 else _to_f32(exact)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got[:, 3], loc[:, 0].astype(dtype))  # scale 0: exactly loc


def test_equal_array_parameters_give_the_scalar_bits():
    a = GaussianNoiseGenerator(5).normal(np.full(7, 2.5), np.full(7, 0.25))
    b = GaussianNoiseGenerator(5).normal(2.5, 0.25, 7)
    assert same_bits(a, b)


def test_size_broadcasts_with_array_parameters():
    out = GaussianNoiseGenerator(6).normal([0.0, 100.0], 1.0, size=(5, 2))
    assert out.shape == (5, 2)
    assert np.all(out[:, 1] > 90)
    with pytest.raises(ValueError, match="broadcast"):
        GaussianNoiseGenerator(6).normal([0.0, 1.0, 2.0], 1.0, size=(5, 2))


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"size": 2.0}, TypeError, "size"),
        ({"size": True}, TypeError, "size"),
        ({"size": (2, 1.5)}, TypeError, "size"),
        ({"size": "3"}, TypeError, "size"),
        ({"loc": True, "size": 2}, TypeError, "loc"),
        ({"scale": [1.0, -1.0]}, ValueError, "scale"),
        ({"loc": [0.0, np.nan]}, ValueError, "loc"),
        ({"loc": [1 + 2j]}, TypeError, "loc"),
        ({"loc": ["a"]}, TypeError, "loc"),
        ({"size": 3, "dtype": np.int32}, TypeError, "dtype"),
        ({"out": [0.0, 0.0]}, TypeError, "out"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs, error, name):
    g = GaussianNoiseGenerator(7)
    with pytest.raises(error, match=name):
        g.normal(**kwargs)
    assert g.position == 0


def test_old_keywords_are_not_silently_accepted():
    with pytest.raises(TypeError, match="mean"):
        GaussianNoiseGenerator(0).normal(size=3, mean=1.0)
    with pytest.raises(TypeError, match="stddev"):
        GaussianNoiseGenerator(0).normal(size=3, stddev=1.0)


@pytest.mark.parametrize("bad", [True, "1.0", None, 1j])
def test_generate_refuses_non_real_arguments(bad):
    g = GaussianNoiseGenerator(0)
    with pytest.raises(TypeError):
        g.generate(0.0, bad)
    with pytest.raises(TypeError):
        g.generate(bad, 1.0)
    assert g.position == 0
