"""fastnoise: fast, reproducible sensor-noise models with a C core.

Every random number is a pure function of (seed, stream, index), so results are the
same across runs, copies, threads, chunkings and SIMD paths.
"""

from fastnoise.camera import ImageNoise
from fastnoise.generator import (
    GaussianNoiseGenerator,
    set_simd_path,
    simd_path,
    simd_paths_available,
)
from fastnoise.rigid_body import RigidBodySimulator
from fastnoise.sensor_simulator import SensorSimulator

__version__ = "0.1.0"

__all__ = [
    "GaussianNoiseGenerator",
    "ImageNoise",
    "RigidBodySimulator",
    "SensorSimulator",
    "set_simd_path",
    "simd_path",
    "simd_paths_available",
]
