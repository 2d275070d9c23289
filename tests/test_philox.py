"""Philox4x32-10 and the Box-Muller mapping, checked against an independent reference.

The raw Philox block is not exposed to Python, so this file carries its own reference
written from the paper (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
SC'11): first it is checked against the Random123 known-answer vectors, then the
generator's normals are checked against the Box-Muller mapping of csrc/normal.h applied
to the reference's words. A wrong word anywhere in the C Philox (any SIMD path in use)
would change the normals far beyond the tolerance, so this cross-checks the C Philox too.

Counter layout (csrc/philox.h): counter = (block lo, block hi, stream lo, stream hi),
key = (key lo, key hi). Canonical stream (csrc/normal.h), the same for both dtypes:
pair 2i is words (w0, w1) of block i and pair 2i + 1 is (w2, w3); normal 16g + k is
r c of pair 8g + k for k < 8 and r s of pair 8g + k - 8 for k >= 8.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from fastnoise import GaussianNoiseGenerator
from fastnoise.core.generator import generator_at_key

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


# ---- reference Box-Muller ----------------------------------------------------------------
# Radius word wa: u1 = (wa + 1) / 2**32 in (0, 1], r = sqrt(-2 ln u1).
# Angle word wb: f = (int32)(wb << 3) / 2**34 turns in [-1/8, 1/8), (c, s) = (cos, sin)
# of 2 pi f, swapped if bit 29 is set, c negated if bit 31 is set, s if bit 30 is.
# Computed in float64 with numpy's libm; only the documented inputs (u1 and f) are
# built in float32 for the float32 stream, exactly as the C builds them.


def radius_f64_ref(wa):
    u1 = (wa.astype(np.float64) + 1.0) * 2.0**-32  # exact: wa + 1 <= 2**32
    return np.sqrt(-2.0 * np.log(u1))


def u1_f32_ref(wa):
    """u1 of the float32 stream: (wa + 1) / 2**32 rounded once to float32."""
    return ((wa.astype(np.float64) + 1.0) * 2.0**-32).astype(np.float32)


def radius_f32_ref(wa):
    return np.sqrt(-2.0 * np.log(u1_f32_ref(wa).astype(np.float64)))


def turns_ref(wb, dtype):
    """f in turns: exact in float64; float32 rounds the int32 to 24 bits first."""
    k = ((wb << np.uint64(3)) & np.uint64(MASK32)).astype(np.uint32).view(np.int32)
    if dtype == "float32":
        return (k.astype(np.float32) * np.float32(2.0**-34)).astype(np.float64)
    return k * 2.0**-34


def direction_ref(wb, dtype):
    f = turns_ref(wb, dtype)
    c, s = np.cos(2.0 * np.pi * f), np.sin(2.0 * np.pi * f)
    swap = ((wb >> np.uint64(29)) & np.uint64(1)).astype(bool)
    c, s = np.where(swap, s, c), np.where(swap, c, s)
    c = np.where((wb >> np.uint64(31)) & np.uint64(1), -c, c)
    s = np.where((wb >> np.uint64(30)) & np.uint64(1), -s, s)
    return c, s


def reference(key: int, stream: int, first: int, n: int, dtype: str = "float64"):
    """Normals first .. first + n - 1 of (key, stream) computed in float64, and the
    radius of the pair each one comes from."""
    g0, g1 = first // 16, (first + n + 15) // 16
    w0, w1, w2, w3 = philox_blocks(key, stream, 4 * g0, 4 * (g1 - g0))
    wa = np.stack([w0, w2], axis=1).ravel()  # pair order
    wb = np.stack([w1, w3], axis=1).ravel()
    r = radius_f64_ref(wa) if dtype == "float64" else radius_f32_ref(wa)
    c, s = direction_ref(wb, dtype)
    shape = (g1 - g0, 8)
    z = np.concatenate([(r * c).reshape(shape), (r * s).reshape(shape)], axis=1).ravel()
    radius = np.concatenate([r.reshape(shape)] * 2, axis=1).ravel()
    skip = first - 16 * g0
    return z[skip : skip + n], radius[skip : skip + n]


def generator_at(key: int, stream: int, position: int) -> GaussianNoiseGenerator:
    """A generator placed at any (key, stream, position) through its state."""
    return generator_at_key(key, stream, position)


# Tolerances. float64: the C log, sin and cos are within a few ulp, as is numpy's
# libm, so the two agree to a few 1e-16 of the radius r of the pair; 1e-15 r leaves a
# margin of ~3 (measured worst: 3e-16 r). The radius (not |z|) is the scale because the
# angle error is absolute: near a zero of cos, |z| is tiny but its error is still
# ~1e-16 r. float32: one ulp is 6e-8 relative; log, sqrt, sin/cos and the products add a
# few each, so 1e-6 r (~17 ulp) bounds them (measured worst: 2e-7 r), while a wrong word
# or bit construction gives errors of order r, five orders of magnitude above.
TOL = {"float64": 1e-15, "float32": 1e-6}


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


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("seed", [0, 1, 2**63 + 12345])
@pytest.mark.parametrize("stream", [0, 7, 2**64 - 1])
def test_normals_match_reference(seed, stream, dtype):
    g = GaussianNoiseGenerator(seed, stream=stream)
    n = 5003  # > 256 blocks (one kernel chunk) and not a multiple of 16
    z = g.normal(size=n, dtype=dtype)
    ref, radius = reference(g.key, g.stream, 0, n, dtype)
    assert_close_to_reference(z, ref, radius, TOL[dtype])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_single_draws_match_reference(dtype):
    g = GaussianNoiseGenerator(99, stream=3)
    if dtype == "float64":
        z = np.array([g.generate() for _ in range(41)])
    else:
        z = np.array([g.normal(dtype=np.float32) for _ in range(41)])
    ref, radius = reference(g.key, g.stream, 0, 41, dtype)
    assert_close_to_reference(z, ref, radius, TOL[dtype])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_block_counter_carries_into_high_word(dtype):
    """Blocks 2**32 - 100 .. 2**32 + 99: the low counter word wraps and the high word
    must take the carry (the vectorized Philox loops add block numbers in lanes)."""
    key, stream = 0x0123456789ABCDEF, 0xFEDCBA9876543210
    first = (2**32 - 100) * 4 + 5  # not group-aligned: partial groups at both ends
    n = 800
    z = generator_at(key, stream, first).normal(size=n, dtype=dtype)
    ref, radius = reference(key, stream, first, n, dtype)
    assert_close_to_reference(z, ref, radius, TOL[dtype])


def test_last_blocks_a_position_reaches():
    """The position is a uint64 counted in values (4 per block), so blocks < 2**62 are
    reachable: the last of them are still the reference's blocks."""
    key, stream = 0xFFFFFFFFFFFFFFFF, 12
    first = 2**64 - 64
    z = generator_at(key, stream, first).normal(size=63)
    ref, radius = reference(key, stream, first, 63)
    assert_close_to_reference(z, ref, radius, TOL["float64"])


def test_float32_and_float64_share_the_stream():
    """Value j of either dtype comes from the same words, so they agree to float32
    accuracy: 1e-6 r from the float32 arithmetic, plus the rounding of u1 to float
    (2**-24 relative at most, moving r**2 = -2 ln u1 by <= 2**-23 and r by
    <= 2**-24 / r, doubled here). Checked for u1 >= 1/4 (r <= 1.66); below, float32's
    u1 is coarser than documented: see test_float32_tail_follows_float64."""
    z64 = GaussianNoiseGenerator(5).normal(size=20_000)
    z32 = GaussianNoiseGenerator(5).normal(size=20_000, dtype=np.float32).astype(np.float64)
    _, r = reference(GaussianNoiseGenerator(5).key, 0, 0, 20_000)
    bulk = r <= math.sqrt(-2.0 * math.log(0.25))
    err = np.abs(z32 - z64)[bulk]
    assert np.all(err <= 1e-6 * r[bulk] + 2.0**-23 / r[bulk])
    assert np.count_nonzero(bulk) > 14_000  # P(u1 >= 1/4) = 3/4


# ---- exact points of the mapping, reached by inverting Philox ---------------------------


def pair_normals(wa: int, wb: int, dtype: str) -> tuple[float, float]:
    """(r c, r s) of a pair whose words are exactly (wa, wb): they are made words w0, w1
    of a block by inverting Philox. The position is a uint64 in values, so only blocks
    < 2**62 are reachable: try keys until the counter's block is one of them (a quarter
    of keys qualify)."""
    for key in range(0x243F6A8885A308D3, 0x243F6A8885A308D3 + 200):
        c0, c1, c2, c3 = philox_inverse((wa, wb, 0, 0), (key & MASK32, key >> 32))
        if c1 < 2**30:
            break
    else:
        raise AssertionError("no key put the block in reach")
    block = c0 | (c1 << 32)
    pair = 2 * block  # words (w0, w1): the block's first pair
    first = 16 * (pair // 8) + pair % 8  # its r c; its r s is 8 values later
    z = generator_at(key, c2 | (c3 << 32), first).normal(size=9, dtype=dtype)
    return float(z[0]), float(z[8])


R_MAX = math.sqrt(-2.0 * math.log(2.0**-32))  # sqrt(64 ln 2) = 6.6604...
REL = {"float64": 1e-15, "float32": 2e-7}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_extreme_radius_is_the_documented_bound(dtype):
    # wa = 0 gives the smallest u1 = 2**-32; wb = 0 the angle 0: (r c, r s) = (r_max, 0)
    zc, zs = pair_normals(0, 0, dtype)
    assert zc == pytest.approx(R_MAX, rel=REL[dtype])
    assert zs == 0.0
    assert R_MAX < 6.661  # the docstring's "6.66" is this value rounded down


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_u1_equal_one_gives_exact_zero(dtype):
    # wa = 2**32 - 1 gives u1 = 1: ln 1 = 0 exactly, so both values are exactly zero
    assert pair_normals(0xFFFFFFFF, 0x12345678, dtype) == (0.0, 0.0)


R_QUARTER = math.sqrt(-2.0 * math.log(0.25))  # wa = 2**30 - 1: u1 = 1/4 exactly


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize(
    ("wb", "expected"),
    [
        (0x00000000, (1.0, 0.0)),  # angle 0
        (0x20000000, (0.0, 1.0)),  # swapped
        (0x80000000, (-1.0, 0.0)),  # c negated
        (0x40000000, (1.0, 0.0)),  # s negated (s = -0.0)
        (0xE0000000, (0.0, -1.0)),  # swapped, then both negated
    ],
)
def test_symmetry_bits_are_exact(wb, expected, dtype):
    """With a zero angle the swap and sign bits give exactly +-r and 0."""
    zc, zs = pair_normals(0x3FFFFFFF, wb, dtype)
    assert zc == pytest.approx(expected[0] * R_QUARTER, rel=REL[dtype], abs=0.0)
    assert zs == pytest.approx(expected[1] * R_QUARTER, rel=REL[dtype], abs=0.0)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_smallest_angle_is_minus_an_eighth_turn(dtype):
    # (int32)(wb << 3) = -2**31: f = -1/8 turn, cos = -sin = 1 / sqrt 2
    zc, zs = pair_normals(0x3FFFFFFF, 0x10000000, dtype)
    assert zc == pytest.approx(R_QUARTER / math.sqrt(2.0), rel=REL[dtype])
    assert zs == pytest.approx(-R_QUARTER / math.sqrt(2.0), rel=REL[dtype])


def test_float32_tail_follows_float64():
    """wa = 100: u1 = 101 / 2**32, r = 5.93. float32 should agree with float64 to float32
    accuracy, as normal.h documents ("u1 rounded to float")."""
    z64, _ = pair_normals(100, 0, "float64")
    z32, _ = pair_normals(100, 0, "float32")
    assert z64 == pytest.approx(math.sqrt(-2.0 * math.log(101 * 2.0**-32)), rel=1e-15)
    assert z32 == pytest.approx(z64, rel=1e-6)
