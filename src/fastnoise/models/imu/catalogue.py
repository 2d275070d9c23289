"""A catalogue of real IMUs: each entry holds the datasheet figures it is built from,
in the datasheet's units, and the document they come from (name, number, revision).
``ImuNoise.preset(name)`` builds one, :func:`presets` lists them and :func:`preset_triads`
gives the (gyro, accel) :class:`TriadNoise` pair.

Every figure is the datasheet's *typical* value (datasheets print no per-part spread
for noise), and every figure was checked against a copy of the cited document (issue
#26); ``notes`` says where in it each one stands. A figure that could not be found in
the document is left out rather than guessed, so some presets lack a term (see
``notes``): the ADIS16470 has no accelerometer white noise, and only the MPU-6050 has
ADC quantization (``bits``). Two parts of the catalogue's first draft were dropped: the
BNO085, whose datasheet (1000-3927) prints no noise density at all (it refers to the
raw sensors' own data sheet), and the BMI088, whose noise figures could not be
confirmed in its data sheet (BST-BMI088-DS001).

The entries go through :func:`~fastnoise.models.imu.datasheet.datasheet_triads`,
whose docstring gives the unit mapping. The full-scale setting is the largest the part
offers (the one flight controllers and VIO rigs run); change ``full_scale``/``bits`` with
``TriadNoise.replace`` for another. Where a datasheet prints no bias instability the
preset has no Gauss-Markov term; ``gauss_markov_correlation_time`` is 100 s throughout
(datasheets do not print it), so the bias's Allan peak sits at 189 s.

``"wt901c"`` is :func:`fastnoise.models.imu.triad.wt901c`: the WitMotion WT901C figures
of the ROS 2 sensor pipeline document (per-sample sigmas at 100 Hz, not datasheet
densities), unchanged, so its output bits are those of ``wt901c()``.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any

from fastnoise.models.imu.datasheet import datasheet_triads
from fastnoise.models.imu.triad import TriadNoise, wt901c

__all__ = ["CATALOGUE", "Preset", "preset_triads", "presets"]


@dataclass(frozen=True)
class Preset:
    """One catalogue entry.

    Attributes
    ----------
    name : str
        Registry-style key (lower case, e.g. ``"icm42688p"``).
    part : str
        Maker and part.
    source : str
        The datasheet: title, document number and revision.
    figures : mapping
        Keyword arguments of ``datasheet_triads`` (datasheet units), each cited in
        ``notes``; empty for ``wt901c``.
    notes : str
        Where each figure stands in the document, and what was chosen.
    """

    name: str
    part: str
    source: str
    figures: types.MappingProxyType[str, Any]
    notes: str


def _p(name: str, part: str, source: str, notes: str, **figures: Any) -> Preset:
    return Preset(name, part, source, types.MappingProxyType(figures), notes)


#: The catalogue, by name.
CATALOGUE: types.MappingProxyType[str, Preset] = types.MappingProxyType(
    {
        p.name: p
        for p in (
            _p(
                "adis16470",
                "Analog Devices ADIS16470",
                "ADIS16470 Wide Dynamic Range, Miniature MEMS IMU, data sheet Rev. C "
                "(copyright 2017-2019)",
                "Features list on page 1 (typ.): gyroscope +/-2000 deg/s dynamic range, "
                "8 deg/h in-run bias stability, 0.008 deg/s/sqrt(Hz) rms rate noise "
                "density; accelerometer +/-40 g dynamic range, 13 ug in-run bias "
                "stability. Not used: the angle and velocity random walks and the "
                "accelerometer noise density of the specification table, and the output "
                "word length, which could not be confirmed; so the accelerometer has no "
                "white-noise term and neither sensor is quantized.",
                gyro_noise_density=0.008,
                gyro_in_run_bias_stability=8.0,
                gyro_range=2000.0,
                accel_in_run_bias_stability=13.0,
                accel_range=40.0,
            ),
            _p(
                "icm42688p",
                "TDK InvenSense ICM-42688-P",
                "ICM-42688-P Datasheet, High Precision 6-Axis MEMS MotionTracking Device, "
                "document DS-000347, revision 1.7",
                "Features list on page 1 (typ., low-noise mode): gyroscope noise "
                "2.8 mdps/sqrt(Hz), user-selectable full scale up to +/-2000 deg/s; "
                "accelerometer noise 70 ug/sqrt(Hz), full scale up to +/-16 g. No bias "
                "instability is printed there. The register word length was not "
                "confirmed (page 1 gives only the 19-bit gyroscope / 18-bit "
                "accelerometer FIFO format), so the preset is not quantized.",
                gyro_noise_density=0.0028,
                gyro_range=2000.0,
                accel_noise_density=70.0,
                accel_range=16.0,
            ),
            _p(
                "mpu6050",
                "TDK InvenSense MPU-6050",
                "MPU-6000 and MPU-6050 Product Specification, PS-MPU-6000A-00, "
                "revision 3.4 (2013-08-19)",
                "Section 6.1, Gyroscope Specifications (typ., 25 C): rate noise spectral "
                "density 0.005 deg/s/sqrt(Hz) at 10 Hz (noise rows stated for "
                "FS_SEL=0), full scale +/-2000 deg/s at FS_SEL=3, 16-bit ADC word. "
                "Section 6.2, Accelerometer Specifications (typ.): noise power spectral "
                "density 400 ug/sqrt(Hz) at 10 Hz, AFS_SEL=0 and ODR 1 kHz; full scale "
                "+/-16 g at AFS_SEL=3, 16-bit ADC word. The densities are applied at the "
                "largest full scale unchanged.",
                gyro_noise_density=0.005,
                gyro_range=2000.0,
                gyro_bits=16,
                accel_noise_density=400.0,
                accel_range=16.0,
                accel_bits=16,
            ),
            _p(
                "wt901c",
                "WitMotion WT901C (MPU-9250 inside)",
                "the ROS 2 sensor pipeline document (fastnoise's source document 002) and "
                "the WT901C noise nodes behind it; see fastnoise.models.imu.triad.wt901c",
                "Per-sample sigmas at 100 Hz and Gauss-Markov biases, 16-bit ADCs over "
                "+/-2000 deg/s and +/-16 g (g = 9.81): exactly wt901c().",
            ),
        )
    }
)


def _name(name: object) -> Preset:
    if not isinstance(name, str):
        raise TypeError(f"name={name!r} is not allowed: it must be a str, one of {presets()}")
    key = name.lower().replace("-", "").replace("_", "")
    if key not in CATALOGUE:
        raise ValueError(f"name={name!r} is not allowed: use one of {presets()}")
    return CATALOGUE[key]


def presets() -> list[str]:
    """The catalogue's names, sorted (``ImuNoise.preset(name)`` takes each)."""
    return sorted(CATALOGUE)


def preset_triads(name: str) -> tuple[TriadNoise, TriadNoise]:
    """(gyro, accel) :class:`TriadNoise` of the catalogue's entry ``name`` (case, ``-``
    and ``_`` ignored: ``"ICM-42688-P"`` is ``"icm42688p"``), rad/s and m/s^2."""
    p = _name(name)
    if p.name == "wt901c":
        return wt901c()
    return datasheet_triads(**p.figures)
