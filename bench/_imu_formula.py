"""The IMU noise formula a numpy user writes without fastnoise: the baseline that
bench_imu.py (one IMU) and bench_batch.py (4096 environments) both time.

Axes are gyro x, y, z (rad/s) then accel x, y, z (m/s^2). Per axis and sample, with
step dt (s) and unit normals z:

    gm <- alpha gm + drive z_gm          alpha = exp(-dt / tau), drive = sigma_b sqrt(1 - alpha^2)
    rw <- rw + walk z_rw                 walk = K sqrt(dt)
    y  = true + white z_w + gm + rw      white = N / sqrt(dt)
    y  = round(clip(y, -fs, fs) / lsb) lsb   (only where a full scale and bits are given)

(the densities are single-sided, as ImuNoise's). The module is not a test file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np


def coefficients(gyro: Mapping[str, float], accel: Mapping[str, float], dt: float) -> dict:
    """Per-axis (6,) arrays for step ``dt`` (s) from ImuNoise-style field dicts:
    ``white`` (unit/sample), ``alpha`` (1), ``drive`` and ``walk`` (unit/sample),
    ``full_scale`` (unit, inf for none) and ``lsb`` (unit, 0 for none)."""
    p = [gyro] * 3 + [accel] * 3
    white = np.array([q.get("noise_density", 0.0) / math.sqrt(dt) for q in p])
    tau = [q.get("gauss_markov_correlation_time", 0.0) for q in p]
    alpha = np.array([math.exp(-dt / t) if t > 0 else 0.0 for t in tau])
    drive = np.array([q.get("gauss_markov_stddev", 0.0) for q in p]) * np.sqrt(1 - alpha**2)
    walk = np.array([q.get("random_walk_density", 0.0) * math.sqrt(dt) for q in p])
    fs = np.array([q.get("full_scale", math.inf) for q in p])
    bits = [q.get("bits") for q in p]
    lsb = np.array([2 * f / 2.0**b if b else 0.0 for f, b in zip(fs, bits, strict=True)])
    return dict(white=white, alpha=alpha, drive=drive, walk=walk, full_scale=fs, lsb=lsb)


class NumpyImu:
    """The formula above over a leading batch shape: ``NumpyImu(c, (N,), rng).step``
    takes true values (N, 6) and returns the measured (N, 6) (``()`` for one IMU, (6,)).
    Written as a careful numpy user would: one ``standard_normal`` draw per term into a
    preallocated buffer and in-place updates (no temporaries of the batch size)."""

    def __init__(self, c: dict, shape: tuple[int, ...], rng: np.random.Generator) -> None:
        self.c = c
        self.rng = rng
        full = (*shape, 6)
        self.gm = np.zeros(full)
        self.rw = np.zeros(full)
        self.z = np.empty(full)
        self.out = np.empty(full)
        self.saturate = bool(np.isfinite(c["full_scale"]).any())
        self.quantize = bool((c["lsb"] > 0).any())
        if self.quantize and not (c["lsb"] > 0).all():
            raise ValueError("lsb: give bits on every axis or on none")

    def step(self, true: np.ndarray) -> np.ndarray:
        c, z, out = self.c, self.z, self.out
        self.rng.standard_normal(out=z)
        np.multiply(self.gm, c["alpha"], out=self.gm)
        np.multiply(z, c["drive"], out=z)
        self.gm += z
        self.rng.standard_normal(out=z)
        np.multiply(z, c["walk"], out=z)
        self.rw += z
        self.rng.standard_normal(out=z)
        np.multiply(z, c["white"], out=out)
        out += true
        out += self.gm
        out += self.rw
        if self.saturate:
            np.clip(out, -c["full_scale"], c["full_scale"], out=out)
        if self.quantize:
            out /= c["lsb"]
            np.round(out, out=out)
            out *= c["lsb"]
        return out
