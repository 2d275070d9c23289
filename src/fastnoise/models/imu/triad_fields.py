"""The fields of :class:`fastnoise.models.imu.triad.TriadNoise` as specs
(:data:`TRIAD_PARAMS`, which the IMU's declaration uses for its ``gyro`` and ``accel``)
and their parser: each field is checked by its spec (one error format), then the rules
across fields."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.core.spec import Param


def _triple(v: object) -> tuple[float, float, float]:
    """A field that __post_init__ has made a 3-tuple (typed for the checker)."""
    assert isinstance(v, tuple)
    return v  # type: ignore[return-value]


#: Largest magnitude of every noise, bias, scale, misalignment, G-sensitivity,
#: full-scale and resolution value (in its unit): so sigma**2 and every term of the
#: measurement stay finite (see csrc/imu.h). Far beyond any physical IMU.
PARAM_MAX = 1e150
#: Smallest finite full_scale and resolution: 1/lsb stays finite.
PARAM_MIN = 1e-150


def _real(name: str, value: object, *, allow_inf: bool = False, limit: bool = True) -> float:
    """One real number (not a bool or a string), finite unless ``allow_inf``; with
    ``limit``, a finite one has magnitude <= PARAM_MAX."""
    if isinstance(value, np.generic) and value.dtype.kind not in "iuf":
        raise TypeError(f"{name}={value!r} is not allowed: it must be a real number")
    if allow_inf and isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        try:
            v = float(value)
        except OverflowError:  # an int beyond the doubles: too large, as a finite value
            raise ValueError(
                f"{name}={value!r:.60} is not allowed: its magnitude must be at most "
                f"{PARAM_MAX:g} (or inf)"
            ) from None
        if math.isnan(v):
            raise ValueError(f"{name}={value!r} is not allowed: it must not be NaN")
    else:
        v = _validate.finite(name, value)
    if limit and math.isfinite(v) and abs(v) > PARAM_MAX:
        raise ValueError(
            f"{name}={value!r} is not allowed: its magnitude must be at most {PARAM_MAX:g}"
        )
    return v


def _positive(name: str, value: object) -> float:
    """A finite real number > 0; numpy timedeltas, datetimes, bools and complex
    numbers are refused by name (``numbers.Real`` lets a timedelta64 through)."""
    if isinstance(value, np.generic) and value.dtype.kind not in "iuf":
        raise TypeError(f"{name}={value!r} is not allowed: it must be a real number")
    return _validate.positive(name, value)


#: Values of ``TriadNoise.rounding``: ties to even (``round(y * (1/lsb)) * lsb``), or
#: Gazebo's ``std::round(y / lsb) * lsb`` (halves away from zero).
ROUNDINGS = ("nearest_even", "gazebo")


# Units of a triad's fields: the gyroscope's first, then the accelerometer's.
_U = "rad/s; m/s^2"


def _triad_vec(name: str, doc: str, unit: str = _U, *, signed: bool = False, **kw: Any) -> Param:
    """A per-axis field of TriadNoise: |value| <= PARAM_MAX, >= 0 unless ``signed``."""
    return Param(
        name,
        "vector3",
        doc,
        unit=unit,
        default=kw.pop("default", 0.0),
        low=kw.pop("low", -PARAM_MAX if signed else 0.0),
        high=kw.pop("high", PARAM_MAX),
        keyword_only=False,
        **kw,
    )


#: The fields of :class:`~fastnoise.models.imu.triad.TriadNoise` (an ImuNoise's
#: ``gyro`` and ``accel``), in its order. Units: gyroscope; accelerometer (each per axis).
TRIAD_PARAMS = (
    _triad_vec("noise_stddev", "per-sample white-noise standard deviation (Gazebo's stddev)"),
    _triad_vec(
        "noise_density",
        "white-noise density N, single-sided: per-sample sigma N/sqrt(dt)",
        "rad/s/sqrt(Hz); m/s^2/sqrt(Hz)",
    ),
    _triad_vec("bias", "constant bias (Gazebo's noise mean)", signed=True),
    _triad_vec(
        "turn_on_bias_mean",
        "Gazebo's turn-on bias: drawn once per axis from N(mean, stddev), negated with "
        "probability 1/2",
        signed=True,
    ),
    _triad_vec("turn_on_bias_stddev", "standard deviation of the turn-on bias"),
    _triad_vec(
        "gauss_markov_stddev",
        "stationary standard deviation of the first-order Gauss-Markov bias",
        rule="0 on an axis whose gauss_markov_correlation_time is 0 or None",
    ),
    _triad_vec(
        "gauss_markov_correlation_time",
        "correlation time tau of the Gauss-Markov bias; 0 on an axis: no Gauss-Markov "
        "term there; None: none on any axis",
        "s",
        default=None,
        high=None,
        rule="not None with gauss_markov_stddev, gauss_markov_steady_state or turn_on_bias_decays",
    ),
    Param(
        "gauss_markov_steady_state",
        "bool",
        "start the Gauss-Markov bias from its stationary distribution instead of 0",
        default=False,
        keyword_only=False,
        rule="not with turn_on_bias_decays",
    ),
    Param(
        "turn_on_bias_decays",
        "bool",
        "Gazebo's dynamic-bias form: the turn-on bias is the Gauss-Markov state's "
        "initial value, so it decays with tau",
        default=False,
        keyword_only=False,
        rule="not with gauss_markov_steady_state",
    ),
    _triad_vec(
        "random_walk_density",
        "bias random walk (rate random walk) density K: the bias moves K sqrt(dt) w per step",
        "rad/s/sqrt(s); m/s^2/sqrt(s)",
    ),
    _triad_vec(
        "scale_factor",
        "scale-factor error per axis (0.001 = 1000 ppm)",
        "",
        low=-1.0,
        low_open=True,
    ),
    Param(
        "misalignment",
        "matrix3",
        "cross-axis coupling",
        default=0.0,
        low=-PARAM_MAX,
        high=PARAM_MAX,
        keyword_only=False,
        rule="zero diagonal (the diagonal is scale_factor)",
    ),
    Param(
        "g_sensitivity",
        "matrix3",
        "gyroscope only: adds g_sensitivity @ accel_true",
        unit="(rad/s)/(m/s^2)",
        default=0.0,
        low=-PARAM_MAX,
        high=PARAM_MAX,
        keyword_only=False,
        rule="0 for the accelerometer",
    ),
    _triad_vec(
        "full_scale",
        "saturation limit: outputs are clipped to [-full_scale, full_scale]; inf: none",
        default=math.inf,
        low=PARAM_MIN,
        also=(math.inf,),
    ),
    Param(
        "bits",
        "int",
        "ADC resolution over [-full_scale, full_scale]: lsb = 2 full_scale / 2**bits",
        default=None,
        low=1,
        high=32,
        keyword_only=False,
        rule="needs a finite full_scale, not with resolution",
    ),
    _triad_vec(
        "resolution",
        "an explicit quantization step (Gazebo's precision); 0 on an axis: none there",
        default=None,
        low=PARAM_MIN,
        also=(0.0,),
        rule="not with bits",
    ),
    Param(
        "rounding",
        "choice",
        "how a resolution step rounds: ties to even, or Gazebo's std::round (halves "
        "away from zero)",
        default="nearest_even",
        choices=ROUNDINGS,
        keyword_only=False,
        rule="'gazebo' not with bits",
    ),
)

_SPECS = {p.name: p for p in TRIAD_PARAMS}


def _checked(name: str, value: object) -> Any:
    """Field ``name`` checked by its spec: a vector as a 3-tuple of floats, a matrix as
    3x3 tuples, a bool, an int, a choice; ``-0.0`` stored as ``0.0``."""
    v = _SPECS[name].check(value)
    if isinstance(v, np.ndarray):
        v = v + 0.0  # -0.0 -> 0.0
        return (
            tuple(tuple(float(x) for x in row) for row in v)
            if v.ndim == 2
            else tuple(float(x) for x in v)
        )
    return v


def parse_fields(t: Any) -> None:
    """Check every field of the TriadNoise ``t`` (in its ``__post_init__``) by its spec
    and store it in its canonical form (3-tuples, 3x3 tuples, bools, an int), then the
    rules across fields (each spec's ``rule``); a bad value is refused by name."""
    put = object.__setattr__
    for p in TRIAD_PARAMS:  # every value checked before any rule reads it
        put(t, p.name, _checked(p.name, getattr(t, p.name)))
    if any(v != 0.0 for v in np.diag(t.misalignment)):
        raise ValueError(
            f"misalignment={t.misalignment!r} is not allowed: its diagonal must be zero "
            "(the diagonal is scale_factor)"
        )
    if t.gauss_markov_correlation_time is not None:
        for i, (tau, s) in enumerate(
            zip(t.gauss_markov_correlation_time, t.gauss_markov_stddev, strict=True)
        ):
            if tau == 0.0 and s != 0.0:
                raise ValueError(
                    f"gauss_markov_stddev[{i}]={s!r} is not allowed with "
                    f"gauss_markov_correlation_time[{i}]=0: a Gauss-Markov bias needs tau > 0 s "
                    "on its axis (0 turns the term off there)"
                )
    elif any(t.gauss_markov_stddev) or t.turn_on_bias_decays or t.gauss_markov_steady_state:
        raise ValueError(
            "gauss_markov_correlation_time=None is not allowed with a Gauss-Markov bias "
            "(gauss_markov_stddev, gauss_markov_steady_state or turn_on_bias_decays): "
            "give tau in s, > 0"
        )
    if t.gauss_markov_steady_state and t.turn_on_bias_decays:
        raise ValueError(
            "gauss_markov_steady_state=True is not allowed with turn_on_bias_decays=True: "
            "the Gauss-Markov state can start from one of them only"
        )
    if t.bits is not None:
        if not all(math.isfinite(v) for v in t.full_scale):
            raise ValueError(
                f"bits={t.bits!r} is not allowed with full_scale={t.full_scale!r}: "
                "ADC quantization needs a finite full_scale"
            )
        if t.resolution is not None:
            raise ValueError(
                f"resolution={t.resolution!r} is not allowed together with "
                f"bits={t.bits!r}: give one quantization step"
            )
        if t.rounding == "gazebo":
            raise ValueError(
                f"rounding={t.rounding!r} is not allowed with bits={t.bits!r}: the ADC "
                "quantization of bits always rounds ties to even (use resolution= for "
                "Gazebo's precision)"
            )
