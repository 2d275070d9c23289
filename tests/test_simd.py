"""Every SIMD path gives the bits of the scalar path (the kernels use only correctly
rounded operations in a fixed order, and no contraction), forced both at run time
(set_simd_path) and at import (FASTNOISE_SIMD)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from fastnoise import GaussianNoiseGenerator
from fastnoise.core import simd
from fastnoise.core.generator import fill_normals

PATHS = simd.simd_paths_available()


@pytest.fixture
def restore_simd_path():
    before = simd.simd_path()
    yield
    simd.set_simd_path(before)


def draw_everything(n: int) -> list[np.ndarray]:
    """A mix of calls that reaches every kernel: whole blocks past several 256-block
    chunks, partial blocks at both ends, both dtypes, a non-unit mean/stddev, a
    threaded fill and a fill across the 2**32 block boundary."""
    g = GaussianNoiseGenerator(2718, stream=9)
    out = [
        g.normal(size=n),
        np.array([g.generate() for _ in range(5)]),
        g.normal(size=n + 3, dtype=np.float32),
        g.normal(size=n - 1, loc=1.5, scale=0.25),
        g.normal(size=n + 1, loc=-2.0, scale=3.0, dtype=np.float32),
        g.normal(size=300_001, threads=2),
    ]
    for dt in (np.float64, np.float32):
        flat = np.empty(4000, dtype=dt)  # 4 normals per block: blocks 2**32 - 500 onwards
        fill_normals(g.key, 1, (2**32 - 500) * 4 + 1, flat, 0.0, 1.0, 1)
        out.append(flat)
    return out


def test_scalar_path_is_always_available():
    assert PATHS[0] == "scalar"
    assert simd.simd_path() in PATHS


@pytest.mark.parametrize("path", PATHS)
def test_set_simd_path_selects_it(path, restore_simd_path):
    assert simd.set_simd_path(path) == path
    assert simd.simd_path() == path


def test_unknown_simd_path_is_rejected(restore_simd_path):
    with pytest.raises(ValueError, match="name"):
        simd.set_simd_path("sse9")


def test_path_above_the_cpu_is_capped(restore_simd_path):
    assert simd.set_simd_path("avx512") == PATHS[-1]


@pytest.mark.parametrize("path", PATHS[1:] or [pytest.param("none", marks=pytest.mark.skip)])
def test_every_simd_path_gives_the_scalar_bits(path, restore_simd_path):
    simd.set_simd_path("scalar")
    scalar = draw_everything(20_011)
    simd.set_simd_path(path)
    vector = draw_everything(20_011)
    for a, b in zip(scalar, vector, strict=True):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_environment_variable_forces_the_scalar_path():
    """A fresh interpreter with FASTNOISE_SIMD=scalar runs the scalar path at import,
    and its values are bit for bit those of this process (whatever path it uses)."""
    code = (
        "import sys, fastnoise, numpy as np\n"
        "from fastnoise.core.simd import simd_path\n"
        "g = fastnoise.GaussianNoiseGenerator(2718, stream=9)\n"
        "a = np.concatenate([g.normal(size=10001), g.normal(size=10003, dtype=np.float32)])\n"
        "sys.stdout.write(simd_path() + ' ' + a.tobytes().hex())\n"
    )
    env = dict(os.environ, FASTNOISE_SIMD="scalar")
    res = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    path, hexbits = res.stdout.split()
    assert path == "scalar"
    g = GaussianNoiseGenerator(2718, stream=9)
    here = np.concatenate([g.normal(size=10001), g.normal(size=10003, dtype=np.float32)])
    assert bytes.fromhex(hexbits) == here.tobytes()


def test_unknown_simd_request_warns_and_uses_the_best_path():
    import subprocess
    import sys

    env = dict(os.environ, FASTNOISE_SIMD="sse9")
    code = "import warnings; warnings.simplefilter('error'); import fastnoise"
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert res.returncode != 0 and "FASTNOISE_SIMD='sse9'" in res.stderr
