"""A catalogue of real IMUs: each entry holds the datasheet figures it is built from,
in the datasheet's units, and the document they come from (name, number, revision).
``ImuNoise.preset(name)`` builds one, :func:`presets` lists them and :func:`preset_triads`
gives the (gyro, accel) :class:`TriadNoise` pair.

Every figure is the datasheet's *typical* value (datasheets print no per-part spread
for noise). The entries go through :func:`~fastnoise.models.imu.datasheet.datasheet_triads`,
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
        Registry-style key (lower case, e.g. ``"bmi088"``).
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
                "ADIS16470 Wide Dynamic Range Miniature MEMS IMU, data sheet Rev. C",
                "Table 1 (specifications, typ.): gyroscope in-run bias stability 8 deg/h, "
                "angle random walk 0.34 deg/sqrt(h), range +/-2000 deg/s; accelerometer "
                "in-run bias stability 13 ug, velocity random walk 0.037 m/s/sqrt(h), "
                "range +/-40 g. Output: 32-bit (16-bit word plus its 16-bit extension).",
                gyro_in_run_bias_stability=8.0,
                gyro_arw=0.34,
                gyro_range=2000.0,
                gyro_bits=32,
                accel_in_run_bias_stability=13.0,
                accel_vrw=0.037,
                accel_range=40.0,
                accel_bits=32,
            ),
            _p(
                "bmi088",
                "Bosch Sensortec BMI088",
                "BMI088 6-axis Motion Tracking for High-performance Applications, data "
                "sheet BST-BMI088-DS001-13, revision 1.3 (May 2018)",
                "Section 1 (specifications, typ.): gyroscope rate noise density "
                "0.014 deg/s/sqrt(Hz), bias stability 2 deg/h, range +/-2000 deg/s, "
                "16 bit; accelerometer output noise density 175 ug/sqrt(Hz), range "
                "+/-24 g, 16 bit.",
                gyro_noise_density=0.014,
                gyro_bias_instability=2.0,
                gyro_range=2000.0,
                gyro_bits=16,
                accel_noise_density=175.0,
                accel_range=24.0,
                accel_bits=16,
            ),
            _p(
                "bno085",
                "CEVA (Hillcrest Labs) BNO085",
                "BNO080/BNO085 Data Sheet, document 1000-3927, revision 1.7",
                "Section 6 (sensor characteristics, typ.): gyroscope noise density "
                "0.014 deg/s/sqrt(Hz), range +/-2000 deg/s; accelerometer noise density "
                "150 ug/sqrt(Hz), range +/-8 g; 16-bit raw outputs.",
                gyro_noise_density=0.014,
                gyro_range=2000.0,
                gyro_bits=16,
                accel_noise_density=150.0,
                accel_range=8.0,
                accel_bits=16,
            ),
            _p(
                "icm42688p",
                "TDK InvenSense ICM-42688-P",
                "ICM-42688-P High Precision 6-Axis MEMS MotionTracking Device, data sheet "
                "DS-000347, revision 1.6",
                "Tables 1 and 2 (typ.): gyroscope rate noise spectral density "
                "0.0028 deg/s/sqrt(Hz), range +/-2000 deg/s; accelerometer noise "
                "spectral density 70 ug/sqrt(Hz), range +/-16 g; 16-bit ADCs.",
                gyro_noise_density=0.0028,
                gyro_range=2000.0,
                gyro_bits=16,
                accel_noise_density=70.0,
                accel_range=16.0,
                accel_bits=16,
            ),
            _p(
                "mpu6050",
                "TDK InvenSense MPU-6050",
                "MPU-6000 and MPU-6050 Product Specification, PS-MPU-6000A-00, "
                "revision 3.4 (2013-08-19)",
                "Sections 6.1 and 6.2 (typ.): gyroscope rate noise spectral density "
                "0.005 deg/s/sqrt(Hz), range +/-2000 deg/s; accelerometer noise power "
                "spectral density 400 ug/sqrt(Hz), range +/-16 g; 16-bit ADCs.",
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
