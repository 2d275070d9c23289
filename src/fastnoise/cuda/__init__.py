# mypy: disable-error-code="import-not-found, import-untyped"
"""fastnoise on the GPU: the CPU's exact bits for device arrays.

The kernels are compiled at run time (NVRTC, through CuPy) from the same C headers as
the CPU kernels, with contraction off and correctly rounded sqrt and division, so
every value equals the CPU's bit for bit: the same keys, frames and indices give the
same noise on either side. Arrays stay on the device: CuPy arrays, and anything with
``__cuda_array_interface__`` or CUDA DLPack (PyTorch CUDA tensors, ...), without copies.

Needs CuPy (``pip install 'fastnoise[cuda12]'`` or ``'fastnoise[cuda13]'``, by your
driver's CUDA major version, or your own CuPy) and an NVIDIA GPU. Without them this
module imports, :func:`is_available` is False and the functions raise ImportError.
"""

from __future__ import annotations

from fastnoise.cuda._camera import image_noise
from fastnoise.cuda._compile import COMPILE_OPTIONS, kernel_source, source_dir
from fastnoise.cuda._lidar import GpuNoisyPoints, lidar_noise, range_noise
from fastnoise.cuda._normal import fill_normals, normal, standard_normal


def is_available() -> bool:
    """True when CuPy imports and sees at least one CUDA device."""
    try:
        import cupy
    except ImportError:
        return False
    try:
        return bool(cupy.cuda.runtime.getDeviceCount() > 0)
    except Exception:  # CuPy without a driver raises its own CUDARuntimeError
        return False


__all__ = [
    "COMPILE_OPTIONS",
    "GpuNoisyPoints",
    "fill_normals",
    "image_noise",
    "is_available",
    "kernel_source",
    "lidar_noise",
    "normal",
    "range_noise",
    "source_dir",
    "standard_normal",
]
