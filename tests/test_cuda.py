"""fastnoise.cuda on a GPU: every kernel bit for bit against the CPU path.

Skipped without CuPy and a CUDA device (tools/gpu_check.py runs these and the
throughput table on a GPU machine); tests/test_cuda_host.py checks the same sources
without a GPU.
"""

from __future__ import annotations

import numpy as np
import pytest

import fastnoise as fn
import fastnoise.cuda as fcuda
from fastnoise.core.generator import fill_normals

if not fcuda.is_available():
    pytest.skip("needs CuPy and a CUDA device", allow_module_level=True)

import cupy as cp  # noqa: E402

FILLS = [
    (1, 0, 0, 1000),
    (0xDEADBEEF, 7, 13, 37),
    (2**64 - 1, 2**63 + 5, 2**40 + 9, 3001),
    (42, 3, 15, 1),
    (9, 9, 2**64 - 40, 40),
    (5, 1, 3, 1_000_003),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(("key", "stream", "first", "n"), FILLS)
def test_fill_normals_matches_cpu(dtype, key, stream, first, n):
    cpu = np.empty(n, dtype)
    fill_normals(key, stream, first, cpu, 0.5, 2.0)
    gpu = cp.full(n, cp.nan, dtype)
    fcuda.fill_normals(key, stream, first, gpu, 0.5, 2.0)
    assert cp.asnumpy(gpu).tobytes() == cpu.tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_normal_follows_the_generator(dtype):
    a = fn.GaussianNoiseGenerator(seed=11, stream=4)
    b = fn.GaussianNoiseGenerator(seed=11, stream=4)
    a.advance(5)
    b.advance(5)
    for shape in [(7,), (33, 17), (1, 1, 1025)]:
        cpu = a.normal(1.5, 0.25, shape, dtype=dtype)
        gpu = fcuda.normal(b, 1.5, 0.25, shape, dtype=dtype)
        assert gpu.shape == shape and gpu.dtype == dtype
        assert cp.asnumpy(gpu).tobytes() == cpu.tobytes()
        assert a.position == b.position


def test_out_and_foreign_arrays():
    torch = pytest.importorskip("torch")
    g = fn.GaussianNoiseGenerator(seed=3)
    t = torch.empty((64, 3), dtype=torch.float32, device="cuda")
    r = fcuda.standard_normal(g, out=t)
    assert r is t
    cpu = fn.GaussianNoiseGenerator(seed=3).standard_normal((64, 3), dtype=np.float32)
    assert t.cpu().numpy().tobytes() == cpu.tobytes()


def test_bad_input_is_refused_by_name():
    g = fn.GaussianNoiseGenerator(seed=3)
    with pytest.raises(TypeError, match="out="):
        fcuda.standard_normal(g, out=np.empty(4, np.float32))
    with pytest.raises(ValueError, match="out has shape"):
        fcuda.standard_normal(g, out=cp.empty((4, 4), np.float32)[:, ::2])
    with pytest.raises(ValueError, match="scale=-1"):
        fcuda.normal(g, 0.0, -1, 4)
    assert g.position == 0
