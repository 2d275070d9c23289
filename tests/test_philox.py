"""Philox4x32-10 and the Box-Muller mapping, checked against an independent reference.

The raw Philox block is not exposed to Python, so this file carries its own reference
written from the paper (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
SC'11): first it is checked against the Random123 known-answer vectors, then the
generator's normals are checked against the Box-Muller mapping of csrc/normal.h applied
to the reference's words. A wrong word anywhere in the C Philox (any SIMD path in use)
would change the normals far beyond the tolerance, so this cross-checks the C Philox too.

Counter layout (csrc/philox.h): counter = (block lo, block hi, stream lo, stream hi),
key = (key lo, key hi). float64 normal j is output j % 2 of block j // 2; float32 normal
j is output j % 4 of block j // 4.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from fastnoise import GaussianNoiseGenerator

MASK32 = 0xFFFFFFFF
M0, M1 = 0xD2511F53, 0xCD9E8D57  # round multipliers
W0, W1 = 0x9E3779B9, 0xBB67AE85  # Weyl key increments
ROUNDS = 10

# Random123 kat_vectors, philox4x32_10: (counter, key, expected output)
KAT_VECTORS = [
    (
        (0x00000000, 0x00000000, 0x00000000, 0x00000000),
        (0x00000000, 0x00000000),
        (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8),
    ),
    (
        (0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF),
        (0xFFFFFFFF, 0xFFFFFFFF),
        (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD),
    ),
    (
        (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
        (0xA4093822, 0x299F31D0),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
    ),
]


# ---- reference Philox4x32-10 ------------------------------------------------------------


def round_keys(key: tuple[int, int]) -> list[tuple[int, int]]:
    """The key of each of the 10 rounds: the Weyl sequence k + r * (W0, W1) mod 2**32."""
    k0, k1 = key
    return [((k0 + r * W0) & MASK32, (k1 + r * W1) & MASK32) for r in range(ROUNDS)]


def philox_ref(counter: tuple[int, int, int, int], key: tuple[int, int]) -> tuple[int, ...]:
    """Philox4x32-10 on Python ints, straight from the paper's round function."""
    c0, c1, c2, c3 = counter
    for k0, k1 in round_keys(key):
        p0 = M0 * c0  # full 64-bit products: hi and lo words
        p1 = M1 * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & MASK32, (p0 >> 32) ^ c3 ^ k1, p0 & MASK32
    return c0, c1, c2, c3


def philox_inverse(words: tuple[int, int, int, int], key: tuple[int, int]) -> tuple[int, ...]:
    """The counter that Philox maps to ``words`` under ``key``: each round is a bijection
    (the lo words undo with the inverse multipliers mod 2**32, then the xors undo), so we
    can choose a block's words and ask the generator for exactly that block."""
    inv0, inv1 = pow(M0, -1, 1 << 32), pow(M1, -1, 1 << 32)
    n0, n1, n2, n3 = words
    for k0, k1 in reversed(round_keys(key)):
        c2 = (n1 * inv1) & MASK32
        c0 = (n3 * inv0) & MASK32
        c1 = n0 ^ ((M1 * c2) >> 32) ^ k0
        c3 = n2 ^ ((M0 * c0) >> 32) ^ k1
        n0, n1, n2, n3 = c0, c1, c2, c3
    return n0, n1, n2, n3


def philox_blocks(key: int, stream: int, first_block: int, n: int) -> list[np.ndarray]:
    """The four words (as uint64 arrays) of blocks first_block .. first_block + n - 1 of
    (key, stream): the same round function, vectorized over blocks with numpy."""
    block = np.arange(n, dtype=np.uint64) + np.uint64(first_block)
    m32 = np.uint64(MASK32)
    c0, c1 = block & m32, block >> np.uint64(32)
    c2 = np.full(n, stream & MASK32, dtype=np.uint64)
    c3 = np.full(n, stream >> 32, dtype=np.uint64)
    for k0, k1 in round_keys((key & MASK32, key >> 32)):
        p0 = c0 * np.uint64(M0)  # < 2**64: no overflow
        p1 = c2 * np.uint64(M1)
        c0, c1, c2, c3 = (
            (p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0),
            p1 & m32,
            (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1),
            p0 & m32,
        )
    return [c0, c1, c2, c3]


# ---- reference Box-Muller (float64 arithmetic, numpy's libm) ---------------------------


def rotate(r, quarter_turns, f):
    """(r cos 2 pi t, r sin 2 pi t) for t = quarter_turns / 4 + f, |f| <= 1/8: the
    quarter turns are an exact rotation, so only the small angle 2 pi f is rounded."""
    s, c = np.sin(2.0 * np.pi * f), np.cos(2.0 * np.pi * f)
    q = np.asarray(quarter_turns) % 4
    cos_t = np.choose(q, [c, -s, -c, s])
    sin_t = np.choose(q, [s, c, -s, -c])
    return r * cos_t, r * sin_t


def box_muller_f64_ref(x0, x1, x2, x3):
    """The float64 pair of a block (csrc/normal.h): 52-bit uniforms a1 = x0:x1 >> 12,
    a2 = x2:x3 >> 12; u1 = 1 - a1 / 2**52 in (0, 1], turns t = a2 / 2**52 in [0, 1)."""
    a1 = ((x0 << np.uint64(20)) | (x1 >> np.uint64(12))).astype(np.int64)
    a2 = ((x2 << np.uint64(20)) | (x3 >> np.uint64(12))).astype(np.int64)
    u1 = 1.0 - a1 * 2.0**-52  # exact
    r = np.sqrt(-2.0 * np.log(u1))
    q = (a2 + (1 << 49)) >> 50  # nearest quarter turn, 0..4
    f = (a2 - (q << 50)) * 2.0**-52  # exact
    return rotate(r, q, f), r


def box_muller_f32_ref(xa, xb):
    """A float32 pair from two words (csrc/normal.h), in float64: 24-bit uniforms
    a1 = xa >> 8, a2 = xb >> 8; u1 = (a1 + 1) / 2**24 in (0, 1], t = a2 / 2**24."""
    a1 = (xa >> np.uint64(8)).astype(np.int64)
    a2 = (xb >> np.uint64(8)).astype(np.int64)
    r = np.sqrt(-2.0 * np.log((a1 + 1) * 2.0**-24))
    q = (a2 + (1 << 21)) >> 22
    f = (a2 - (q << 22)) * 2.0**-24
    return rotate(r, q, f), r


def reference_f64(key: int, stream: int, first: int, n: int):
    """float64 normals first .. first + n - 1 of (key, stream), and each one's radius."""
    b0 = first // 2
    nb = (first + n + 1) // 2 - b0
    (z0, z1), r = box_muller_f64_ref(*philox_blocks(key, stream, b0, nb))
    z = np.stack([z0, z1], axis=1).ravel()
    radius = np.repeat(r, 2)
    skip = first - 2 * b0
    return z[skip : skip + n], radius[skip : skip + n]


def reference_f32(key: int, stream: int, first: int, n: int):
    """float32 normals first .. first + n - 1 of (key, stream) computed in float64."""
    b0 = first // 4
    nb = (first + n + 3) // 4 - b0
    x0, x1, x2, x3 = philox_blocks(key, stream, b0, nb)
    (z0, z1), ra = box_muller_f32_ref(x0, x1)
    (z2, z3), rb = box_muller_f32_ref(x2, x3)
    z = np.stack([z0, z1, z2, z3], axis=1).ravel()
    radius = np.stack([ra, ra, rb, rb], axis=1).ravel()
    skip = first - 4 * b0
    return z[skip : skip + n], radius[skip : skip + n]


def generator_at(key: int, stream: int, position: int, dtype: str) -> GaussianNoiseGenerator:
    """A generator placed at any (key, stream, position) through its state."""
    g = GaussianNoiseGenerator(0)
    state = g.state
    state.update(key=key, stream=stream, position=position, dtype=dtype)
    g.state = state
    return g


# Tolerances. float64: the C log, sin and cos are a few ulp, as is numpy's libm, so
# the two computations agree to a few 1e-16 of the radius r = |(z0, z1)|; 1e-15 r leaves
# a factor ~3 margin. The radius (not |z|) is the scale because the angle error is
# absolute: near a zero of cos, |z| is tiny but its error is still ~1e-16 r.
# float32: one float32 ulp is 6e-8 relative; log, sqrt, sin/cos and the products add a
# few ulp each, so 1e-6 r (~17 ulp) is a comfortable bound that a wrong word or a wrong
# bit construction (errors of order r) still fails by five orders of magnitude.
TOL_F64 = 1e-15
TOL_F32 = 1e-6


# ---- the reference itself ----------------------------------------------------------------


@pytest.mark.parametrize(("counter", "key", "expected"), KAT_VECTORS)
def test_reference_philox_matches_random123_kat(counter, key, expected):
    assert philox_ref(counter, key) == expected


@pytest.mark.parametrize(("counter", "key", "expected"), KAT_VECTORS)
def test_vectorized_reference_matches_random123_kat(counter, key, expected):
    words = philox_blocks(
        key[0] | (key[1] << 32), counter[2] | (counter[3] << 32), counter[0] | (counter[1] << 32), 1
    )
    assert tuple(int(w[0]) for w in words) == expected


@pytest.mark.parametrize(("counter", "key", "expected"), KAT_VECTORS)
def test_philox_inverse_recovers_kat_counter(counter, key, expected):
    assert philox_inverse(expected, key) == counter


# ---- the generator against the reference -------------------------------------------------


def assert_close_to_reference(z, ref, radius, tol):
    err = np.abs(np.asarray(z, dtype=np.float64) - ref)
    worst = int(np.argmax(err / radius))
    assert np.all(err <= tol * radius), (
        f"index {worst}: got {z[worst]!r}, reference {ref[worst]!r}, "
        f"error {err[worst] / radius[worst]:.3g} of the radius"
    )


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 12345])
@pytest.mark.parametrize("stream", [0, 7, 2**64 - 1])
def test_float64_normals_match_reference(seed, stream):
    g = GaussianNoiseGenerator(seed, stream=stream)
    n = 3001  # > 256 blocks (one kernel chunk) and odd, so the last block is partial
    z = g.normal(n)
    ref, radius = reference_f64(g.key, g.stream, 0, n)
    assert_close_to_reference(z, ref, radius, TOL_F64)


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 12345])
@pytest.mark.parametrize("stream", [0, 7, 2**64 - 1])
def test_float32_normals_match_reference(seed, stream):
    g = GaussianNoiseGenerator(seed, stream=stream)
    n = 4099
    z = g.normal(n, dtype=np.float32)
    ref, radius = reference_f32(g.key, g.stream, 0, n)
    assert_close_to_reference(z, ref, radius, TOL_F32)


def test_generate_matches_reference():
    g = GaussianNoiseGenerator(99, stream=3)
    z = np.array([g.generate() for _ in range(101)])
    ref, radius = reference_f64(g.key, g.stream, 0, 101)
    assert_close_to_reference(z, ref, radius, TOL_F64)


@pytest.mark.parametrize(("dtype", "per_block"), [("float64", 2), ("float32", 4)])
def test_block_counter_carries_into_high_word(dtype, per_block):
    """Blocks 2**32 - 100 .. 2**32 + 99: the low counter word wraps and the high word
    must take the carry (the vectorized Philox loops treat this boundary specially)."""
    key, stream = 0x0123456789ABCDEF, 0xFEDCBA9876543210
    first = (2**32 - 100) * per_block + 1  # odd start: a partial first block too
    n = 200 * per_block
    z = generator_at(key, stream, first, dtype).normal(n, dtype=dtype)
    ref_fn, tol = (reference_f64, TOL_F64) if dtype == "float64" else (reference_f32, TOL_F32)
    ref, radius = ref_fn(key, stream, first, n)
    assert_close_to_reference(z, ref, radius, tol)


def test_last_blocks_a_float64_position_reaches():
    """The position is a uint64 counted in values, so float64 reaches blocks < 2**63:
    the last of them (high counter word 0x7FFFFFFF) are still the reference's blocks."""
    key, stream = 0xFFFFFFFFFFFFFFFF, 12
    first = (2**63 - 8) * 2
    z = generator_at(key, stream, first, "float64").normal(16)
    ref, radius = reference_f64(key, stream, first, 16)
    assert_close_to_reference(z, ref, radius, TOL_F64)


# ---- exact points of the mapping, reached by inverting Philox ---------------------------


def normals_of_block_words(words, dtype):
    """The normals of a block whose Philox words are exactly ``words``. The position is
    a uint64 in values, so only blocks < 2**62 are reachable: try keys until the inverse
    counter's block is one of them (a quarter of keys qualify)."""
    per_block = 2 if dtype == "float64" else 4
    for key in range(0x243F6A8885A308D3, 0x243F6A8885A308D3 + 200):
        c0, c1, c2, c3 = philox_inverse(words, (key & MASK32, key >> 32))
        if c1 < 2**30:
            break
    else:
        raise AssertionError("no key put the block in reach")
    g = generator_at(key, c2 | (c3 << 32), (c0 | (c1 << 32)) * per_block, dtype)
    return g.normal(per_block, dtype=dtype)


R_MAX_F64 = math.sqrt(-2.0 * math.log(2.0**-52))  # sqrt(104 ln 2) = 8.4904...
R_MAX_F32 = math.sqrt(-2.0 * math.log(2.0**-24))  # sqrt(48 ln 2) = 5.7681...


def test_float64_extreme_radius_is_the_documented_bound():
    # a1 = 2**52 - 1 (u1 = 2**-52, the smallest), a2 = 0 (angle 0): z0 = r_max, z1 = 0
    z = normals_of_block_words((0xFFFFFFFF, 0xFFFFF000, 0, 0), "float64")
    assert z[0] == pytest.approx(R_MAX_F64, rel=1e-15)
    assert z[1] == 0.0
    # the low 12 bits of x1 and x3 are not used: setting them changes nothing
    assert np.array_equal(normals_of_block_words((0xFFFFFFFF, 0xFFFFFFFF, 0, 0xFFF), "float64"), z)


def test_float32_extreme_radius_is_the_documented_bound():
    # a1 = 0 (u1 = 2**-24, the smallest) for both pairs; second pair at half a turn
    z = normals_of_block_words((0x000000FF, 0, 0, 0x80000000), "float32")
    assert z[0] == pytest.approx(R_MAX_F32, rel=2e-7)
    assert z[2] == pytest.approx(-R_MAX_F32, rel=2e-7)
    assert z[1] == 0.0 and z[3] == 0.0
    assert abs(float(z[0])) <= 5.77  # the documented float32 bound


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_u1_equal_one_gives_exact_zero(dtype):
    # the largest a1 gives u1 = 1: ln 1 = 0 exactly, so both values are exactly zero
    if dtype == "float64":
        words = (0, 0, 0x12345678, 0x9ABCDEF0)  # a1 = 0 -> u1 = 1 - 0
    else:
        words = (0xFFFFFF00, 0x12345678, 0xFFFFFFFF, 0x9ABCDEF0)  # a1 = 2**24 - 1
    z = normals_of_block_words(words, dtype)
    assert np.all(z == 0.0)


@pytest.mark.parametrize(
    ("turn_word", "expected"),
    [
        (0x00000000, (1.0, 0.0)),  # t = 0
        (0x40000000, (0.0, 1.0)),  # t = 1/4
        (0x80000000, (-1.0, 0.0)),  # t = 1/2
        (0xC0000000, (0.0, -1.0)),  # t = 3/4
    ],
)
def test_quarter_turns_are_exact(turn_word, expected):
    """At whole quarter turns cos and sin are exactly 0 or +-1 and the values are
    exactly +-r or 0. u1 = 1/4 (a1 = 3 * 2**50), so r = sqrt(4 ln 2)."""
    r = math.sqrt(-2.0 * math.log(0.25))
    z = normals_of_block_words((0xC0000000, 0, turn_word, 0), "float64")
    assert z[0] == pytest.approx(expected[0] * r, rel=1e-15, abs=0.0)
    assert z[1] == pytest.approx(expected[1] * r, rel=1e-15, abs=0.0)


def test_eighth_turn_has_equal_cos_and_sin():
    r = math.sqrt(-2.0 * math.log(0.25))
    z = normals_of_block_words((0xC0000000, 0, 0x20000000, 0), "float64")  # t = 1/8
    assert z[0] == pytest.approx(r / math.sqrt(2.0), rel=1e-15)
    assert z[1] == pytest.approx(r / math.sqrt(2.0), rel=1e-15)
