"""The result type of ``ImuNoise.apply`` (``fastnoise.models.imu.imu_noise``): a whole
recording's two outputs, by name. ``ImuNoise.step`` (one sample) keeps its plain tuple:
there a NamedTuple would cost about as much as the step itself."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class ImuSamples(NamedTuple):
    """Result of ``ImuNoise.apply``; unpacks as ``omega, accel = noise.apply(...)``.

    omega : (N, 3) float64 measured angular velocity, rad/s (``out_omega`` when given).
    accel : (N, 3) float64 measured linear acceleration, m/s^2 (``out_accel`` when
        given).
    """

    omega: np.ndarray
    accel: np.ndarray
