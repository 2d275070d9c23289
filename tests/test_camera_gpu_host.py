"""The GPU camera kernel's arithmetic (csrc/device/camera_dev.h over csrc/camera_pixel.h),
built as host C, against the CPU kernel: the same bits for every dtype, variant,
linear-light setting and layout. No GPU needed (tests/test_cuda.py runs it on one).
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from _host_shim import host_shim

from fastnoise.models.camera.image_noise import ImageNoise

u64, i32, i64, f64 = ctypes.c_uint64, ctypes.c_int32, ctypes.c_int64, ctypes.c_double
CODES = {np.uint8: 0, np.uint16: 1, np.float32: 2, np.float64: 3}


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    dll = host_shim(tmp_path_factory.mktemp("shim"))
    dll.fn_host_camera.argtypes = [u64, u64, u64, u64, f64, f64, i32, i32, i32, i32]
    dll.fn_host_camera.argtypes += [u64, u64, u64, ctypes.c_void_p, i64, i64, i64]
    dll.fn_host_camera.argtypes += [ctypes.c_void_p, i64, i64, i64]
    dll.fn_host_camera.restype = None
    return dll


def host_apply(shim, noise, img, frame):
    h, w = img.shape[:2]
    c = img.shape[2] if img.ndim == 3 else 1
    out = np.zeros_like(img)
    st_in = (*img.strides[:2], img.strides[2] if img.ndim == 3 else 0)
    st_out = (*out.strides[:2], out.strides[2] if out.ndim == 3 else 0)
    code = CODES[img.dtype.type]
    args = [noise.key, frame, 0, w, noise.mean, noise.stddev, int(noise.per_channel)]
    args += [int(noise.variant == "ogre2"), int(noise.linear_light), code, w, h, c]
    shim.fn_host_camera(*args, img.ctypes.data, *st_in, out.ctypes.data, *st_out)
    return out


def image(rng, dtype, shape):
    if dtype in (np.uint8, np.uint16):
        return rng.integers(0, np.iinfo(dtype).max + 1, shape).astype(dtype)
    return rng.uniform(-0.05, 1.05, shape).astype(dtype)


@pytest.mark.parametrize("dtype", list(CODES))
@pytest.mark.parametrize("variant", ["gazebo", "ogre2"])
@pytest.mark.parametrize("linear_light", [False, True])
@pytest.mark.parametrize("per_channel", [False, True])
def test_gpu_thread_bodies_give_the_cpu_bits(shim, dtype, variant, linear_light, per_channel):
    rng = np.random.default_rng(5)
    for shape in ((13, 37), (9, 41, 3), (7, 23, 4)):
        img = image(rng, dtype, shape)
        for mean, sd in ((0.01, 0.08), (0.0, 0.007), (-0.2, 0.6), (1e30, 1e30)):
            noise = ImageNoise(
                mean, sd, per_channel=per_channel, variant=variant, seed=3,
                linear_light=linear_light,
            )  # fmt: skip
            cpu = noise.apply(img, frame=11)
            host = host_apply(shim, noise, img, 11)
            assert cpu.tobytes() == host.tobytes(), (shape, mean, sd)
