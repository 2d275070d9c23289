"""fastnoise.cuda on a GPU: every kernel bit for bit against the CPU path.

Skipped without CuPy and a CUDA device (tools/gpu_check.py runs these and the
throughput table on a GPU machine); tests/test_cuda_host.py checks the same sources
without a GPU.
"""

from __future__ import annotations

import zlib

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


CAMERA_SHAPES = [(37, 53), (37, 53, 1), (21, 1100, 3), (19, 33, 4)]
CAMERA_DTYPES = [np.uint8, np.uint16, np.float32, np.float64]


def _image(rng, shape, dtype):
    if np.dtype(dtype).kind == "u":
        return rng.integers(0, np.iinfo(dtype).max + 1, size=shape, dtype=dtype)
    img = rng.random(shape).astype(dtype)
    img.reshape(-1)[::97] = np.nan
    return img


@pytest.mark.parametrize("dtype", CAMERA_DTYPES)
@pytest.mark.parametrize("shape", CAMERA_SHAPES)
@pytest.mark.parametrize(
    ("variant", "linear_light", "per_channel"),
    [("gazebo", False, False), ("gazebo", False, True), ("gazebo", True, True),
     ("ogre2", None, False), ("ogre2", False, True)],
)  # fmt: skip
def test_image_noise_matches_cpu(dtype, shape, variant, linear_light, per_channel):
    rng = np.random.default_rng(zlib.crc32(repr((shape, np.dtype(dtype).name)).encode()))
    img = _image(rng, shape, dtype)
    kw = {"variant": variant, "linear_light": linear_light, "per_channel": per_channel}
    cpu_model = fn.ImageNoise(mean=0.01, stddev=0.2, seed=5, **kw)
    gpu_model = fn.ImageNoise(mean=0.01, stddev=0.2, seed=5, **kw)
    for frame in (None, 2**40 + 3, None):
        cpu = cpu_model.apply(img, frame=frame)
        gpu = fcuda.image_noise(gpu_model, cp.asarray(img), frame=frame)
        assert cp.asnumpy(gpu).tobytes() == cpu.tobytes()
    assert cpu_model.frame == gpu_model.frame == 2


def test_image_noise_tiles_strides_and_in_place():
    rng = np.random.default_rng(1)
    m = fn.ImageNoise(stddev=0.05, per_channel=True, seed=9)
    full = _image(rng, (40, 2500, 3), np.uint8)
    whole = m.apply(full, frame=7)
    # a tile of a wider frame, a reversed view, a view with a channel step, in place
    tile = fcuda.image_noise(
        m,
        cp.asarray(full[10:30, 1200:2300]),
        frame=7,
        row_offset=10,
        col_offset=1200,
        full_width=2500,
    )
    assert cp.asnumpy(tile).tobytes() == whole[10:30, 1200:2300].tobytes()
    flipped = cp.asarray(full)[::-1, ::-2]
    cpu = m.apply(full[::-1, ::-2], frame=8)
    assert cp.asnumpy(fcuda.image_noise(m, flipped, frame=8)).tobytes() == cpu.tobytes()
    dev = cp.asarray(full)
    r = fcuda.image_noise(m, dev, frame=7, out=dev)
    assert r is dev and cp.asnumpy(dev).tobytes() == whole.tobytes()
    with pytest.raises(ValueError, match="shares memory"):
        fcuda.image_noise(m, dev[:, 1:], frame=7, out=dev[:, :-1])


def test_image_noise_on_a_torch_tensor():
    torch = pytest.importorskip("torch")
    m = fn.ImageNoise(stddev=0.02, seed=4)
    img = np.random.default_rng(2).integers(0, 256, (64, 96, 3), dtype=np.uint8)
    t = torch.from_numpy(img).cuda()
    r = fcuda.image_noise(m, t, frame=3)
    assert isinstance(r, torch.Tensor) and r.is_cuda
    assert r.cpu().numpy().tobytes() == m.apply(img, frame=3).tobytes()


LIDAR_MODELS = [
    {"hitpoint_angular_noise_mean": 0.01, "hitpoint_angular_noise_stddev": 0.02,
     "distance_noise_mean": 0.05, "distance_noise_stddev_base": 0.02,
     "distance_noise_stddev_rise_per_meter": 0.001},
    {"hitpoint_angular_noise_mean": 2.0, "hitpoint_angular_noise_stddev": 0.5},
]  # fmt: skip
POSE = np.array([[0.0, -1.0, 0.0, 1.5], [1.0, 0.0, 0.0, -2.0], [0.0, 0.0, 1.0, 0.25]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("kw", LIDAR_MODELS)
@pytest.mark.parametrize("pose", [None, POSE])
def test_lidar_noise_matches_cpu(dtype, kw, pose):
    rng = np.random.default_rng(3)
    n = 100_003
    pts = rng.normal(0.0, 30.0, (n, 3)).astype(dtype)
    pts[::29] = np.nan
    dist = (np.linalg.norm(pts.astype(np.float64), axis=1) + 0.7).astype(dtype)
    mask = rng.random(n) > 0.05
    m = fn.LidarNoise(**kw, seed=21)
    for given in (False, True):
        extra = {"distances": dist, "hit_mask": mask} if given else {}
        dev = {k: cp.asarray(v) for k, v in extra.items()}
        cpu = m.apply(pts, lidar_pose=pose, frame=77, first_index=5, return_local=True, **extra)
        gpu = fcuda.lidar_noise(m, cp.asarray(pts), lidar_pose=pose, frame=77, first_index=5,
                                return_local=True, **dev)  # fmt: skip
        for a, b in zip(gpu, cpu, strict=True):
            assert cp.asnumpy(a).tobytes() == np.asarray(b).tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_range_noise_matches_cpu(dtype):
    rng = np.random.default_rng(5)
    r = rng.uniform(-1.0, 40.0, (64, 1801)).astype(dtype)
    r[:, ::7] = np.nan
    r[:, ::11] = np.inf
    m = fn.RangeNoise(0.01, 0.02, 0.5, 30.0, bias_mean=0.1, bias_stddev=0.05,
                      precision=0.01, seed=3)  # fmt: skip
    for frame, first in ((0, 0), (2**62 - 2, 2**63 + 3)):
        cpu = m.apply(r, frame=frame, first_index=first)
        gpu = fcuda.range_noise(m, cp.asarray(r), frame=frame, first_index=first)
        assert cp.asnumpy(gpu).tobytes() == cpu.tobytes()
    dev = cp.asarray(r)
    assert fcuda.range_noise(m, dev, frame=3, out=dev) is dev
    assert cp.asnumpy(dev).tobytes() == m.apply(r, frame=3).tobytes()
