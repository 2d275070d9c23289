"""The GPU path's sources, checked without a GPU.

The thread bodies of csrc/device/ are plain functions over the shared arithmetic
headers, so they also build as host C: compiled here with the system C compiler
(contraction off, as the GPU build) and run thread by thread in a loop, they must give
the CPU kernels' bits. NVRTC, when its library is installed (CI installs the
nvidia-cuda-nvrtc wheel), must compile kernels.cu, which has no standard headers
there. A GPU run of the same comparison is tests/test_cuda.py and tools/gpu_check.py.
"""

from __future__ import annotations

import ctypes
import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from _host_shim import host_shim

import fastnoise
import fastnoise.cuda as fcuda
from fastnoise.core.generator import fill_normals
from fastnoise.cuda import source_dir

ROOT = Path(__file__).resolve().parent.parent
u64, f32, f64 = ctypes.c_uint64, ctypes.c_float, ctypes.c_double


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    dll = host_shim(tmp_path_factory.mktemp("shim"))
    for suf, t in (("f64", f64), ("f32", f32)):
        fn = getattr(dll, f"fn_host_normal_{suf}")
        fn.argtypes = [u64, u64, u64, u64, t, t, ctypes.c_void_p]
        fn.restype = None
    return dll


# (key, stream, first, n): group-aligned and not, one value, the end of a stream
FILLS = [
    (1, 0, 0, 1000),
    (0xDEADBEEF, 7, 13, 37),
    (2**64 - 1, 2**63 + 5, 2**40 + 9, 301),
    (42, 3, 15, 1),
    (42, 3, 16, 16),
    (9, 9, 2**64 - 40, 40),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(("key", "stream", "first", "n"), FILLS)
@pytest.mark.parametrize(("mean", "stddev"), [(0.0, 1.0), (0.25, 3.5), (-2.0, 0.0)])
def test_normal_fill_matches_cpu(shim, dtype, key, stream, first, n, mean, stddev):
    cpu = np.empty(n, dtype)
    fill_normals(key, stream, first, cpu, mean, stddev)
    host = np.full(n, np.nan, dtype)
    fn = shim.fn_host_normal_f64 if dtype == np.float64 else shim.fn_host_normal_f32
    fn(key, stream, first, n, mean, stddev, host.ctypes.data)
    assert cpu.tobytes() == host.tobytes()


def test_normal_fill_writes_only_its_range(shim):
    # the first and last groups are shared with neighbouring fills: nothing outside
    # [first, first + n) may be written
    buf = np.full(64, -7.0, np.float64)
    shim.fn_host_normal_f64(5, 1, 21, 10, 0.0, 1.0, buf[8:].ctypes.data)
    assert np.all(buf[:8] == -7.0) and np.all(buf[18:] == -7.0)
    assert np.all(buf[8:18] != -7.0)


def _load_nvrtc_check():
    spec = importlib.util.spec_from_file_location(
        "nvrtc_check", ROOT / "tools" / "cuda" / "nvrtc_check.py"
    )
    if spec is None or spec.loader is None or not (ROOT / "tools").is_dir():
        pytest.skip("tools/cuda/nvrtc_check.py is not in this tree")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["nvrtc_check"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_nvrtc_compiles_the_kernels():
    mod = _load_nvrtc_check()
    lib = mod.find_nvrtc()
    if lib is None:
        pytest.skip("libnvrtc is not installed (pip install nvidia-cuda-nvrtc)")
    from fastnoise.cuda import COMPILE_OPTIONS, kernel_source

    src = source_dir()
    opts = [*COMPILE_OPTIONS, f"-I{src / 'device'}", f"-I{src}", "--gpu-architecture=compute_80"]
    ok, log, ptx = mod.compile_ptx(lib, kernel_source(), opts)
    assert ok, log
    assert "warning" not in log.lower(), log
    # The options that make the GPU compute the C code's bits, as PTX shows them:
    # every float add/sub/mul carries an explicit rounding mode (.rn; .rz where CUDA's
    # round() uses it), which ptxas never fuses into an fma (with --fmad=true they come
    # out bare and may be fused), and division and sqrt are the correctly rounded .rn
    # forms, never .approx.
    text = ptx.decode(errors="replace")
    ops = re.findall(r"\b((?:add|sub|mul|div|sqrt|fma)(?:\.[a-z0-9]+)*)\.f(?:32|64)\b", text)
    assert len(ops) > 50
    bad = sorted({op for op in ops if not re.search(r"\.r[nzmp]\b", op) or "approx" in op})
    assert not [op for op in ops if op.startswith(("div", "sqrt")) and ".rn" not in op]
    assert not bad, f"float operations without an explicit rounding mode: {bad}"
    for name in ("fn_cuda_normal_f64", "fn_cuda_normal_f32"):
        assert f".entry {name}(" in text


def test_small_integer_conversions_by_bit_pattern():
    # csrc/fnmath.h converts small integers to float on the GPU as (2^23 + u) - 2^23
    # and (1.5 * 2^23 + k) - 1.5 * 2^23 from bit patterns; over the ranges it is used
    # for (the 16-bit halves of a Philox word plus one, a binary exponent) and far
    # beyond, that equals the conversion the CPU uses, exactly.
    u = np.arange(0, 1 << 22, dtype=np.uint32)
    magic = (np.uint32(0x4B000000) | u).view(np.float32) - np.float32(2.0**23)
    assert np.array_equal(magic, u.astype(np.float32))
    k = np.arange(-(1 << 21), 1 << 21, dtype=np.int32)
    bits = (np.uint32(0x4B400000) + k.view(np.uint32)).view(np.float32)
    assert np.array_equal(bits - np.float32(1.5 * 2.0**23), k.astype(np.float32))


@pytest.mark.parametrize(
    ("call", "needs"),
    [
        (lambda m: fcuda.image_noise(m, None), "fastnoise.ImageNoise"),
        (lambda m: fcuda.lidar_noise(m, None), "fastnoise.LidarNoise"),
        (lambda m: fcuda.range_noise(m, None), "fastnoise.RangeNoise"),
        (lambda m: fcuda.normal(m, size=3), "fastnoise.GaussianNoiseGenerator"),
    ],
)
def test_gpu_functions_take_only_the_model_they_serve(call, needs):
    # the model is checked by its declared (registered) name before CuPy is touched,
    # so this runs without a GPU; a depth camera is not the camera model
    with pytest.raises(TypeError, match=rf"is not allowed: it must be a {needs}$"):
        call(fastnoise.DepthNoise(seed=1))


def test_the_rgbd_colour_variant_is_refused_on_the_gpu():
    # ImageNoise(variant="ogre2_rgbd") has no CUDA kernel: refused by name before CuPy
    # is touched, never run as another variant
    m = fastnoise.ImageNoise(0.0, 0.1, variant="ogre2_rgbd", seed=1)
    with pytest.raises(ValueError, match="variant='ogre2_rgbd' is not allowed on the GPU"):
        fcuda.image_noise(m, None)
