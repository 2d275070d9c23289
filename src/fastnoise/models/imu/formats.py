"""IMU noise files of the estimation tools: Kalibr's ``imu.yaml``, the ``imu.yaml`` that
allan_variance_ros writes, and the VINS-Fusion / OpenVINS keys ``acc_n``, ``gyr_n``,
``acc_w``, ``gyr_w``; to and from a (gyro, accel) pair of :class:`TriadNoise`.

Units. All three formats hold *continuous-time* densities, the same quantities as
:class:`TriadNoise`'s ``noise_density`` and ``random_walk_density``:

- ``gyroscope_noise_density`` / ``gyr_n``: gyro ``noise_density``, rad/s/sqrt(Hz);
- ``gyroscope_random_walk`` / ``gyr_w``: gyro ``random_walk_density``,
  rad/s^2/sqrt(Hz) = rad/s/sqrt(s);
- ``accelerometer_noise_density`` / ``acc_n``: accel ``noise_density``, m/s^2/sqrt(Hz);
- ``accelerometer_random_walk`` / ``acc_w``: accel ``random_walk_density``,
  m/s^3/sqrt(Hz) = m/s^2/sqrt(s);
- ``update_rate`` (Kalibr): the IMU's rate, Hz (not part of the model);
- ``rostopic`` (Kalibr): the ROS topic name (not part of the model).

``update_rate`` does not change the densities in the file: the tools discretize them
themselves, per-sample white sigma ``N * sqrt(update_rate)`` (Kalibr's
``ConfigReader.getGyroStatistics``: ``noise_density / sqrt(1/update_rate)``) and a bias
step of ``K / sqrt(update_rate)``, as :class:`ImuNoise` does at ``dt = 1/update_rate``.
fastnoise uses it one way only: a triad's per-sample ``noise_stddev`` sigma (Gazebo's
form) is folded into the density as ``N^2 + sigma^2 / update_rate`` when a file is
written, since the formats have no per-sample field.

What the formats cannot hold, writing warns about (:class:`FormatLossWarning`) and
leaves out: one value per triad (three different axes are written as their largest,
the "worst axis" rule of allan_variance_ros), the Gauss-Markov bias (sigma_b, tau_c),
the constant and turn-on biases, scale factor, misalignment, G-sensitivity,
saturation and quantization. Everything the formats hold round-trips bit for bit
(floats are written with ``repr``, the shortest string that reads back the same double).

YAML. fastnoise reads and writes these files without a YAML library: they are flat
``key: value`` maps. The reader takes the top-level ``key: scalar`` lines of a YAML
1.1/1.2 or OpenCV ``%YAML:1.0`` file (comments, quotes, directives allowed), skips
nested blocks (so a whole VINS-Fusion configuration file reads), and refuses a needed
key whose value is not a number. The writer spells every float so that PyYAML, which
Kalibr uses, reads it as a float (``1.0e-05``, not ``1e-05``, which YAML 1.1 reads as a
string).
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path

from fastnoise.models.imu.triad import TriadNoise

__all__ = [
    "FORMATS",
    "FormatLossWarning",
    "dumps_flat_yaml",
    "loads_flat_yaml",
    "read",
    "write",
]


class FormatLossWarning(UserWarning):
    """A term of the model that the file format cannot hold was left out or merged."""


#: Kalibr's keys for each of the four densities (ConfigReader.ImuParameters).
KALIBR_KEYS = {
    ("gyro", "noise_density"): "gyroscope_noise_density",
    ("gyro", "random_walk_density"): "gyroscope_random_walk",
    ("accel", "noise_density"): "accelerometer_noise_density",
    ("accel", "random_walk_density"): "accelerometer_random_walk",
}
#: VINS-Fusion's (and OpenVINS' VINS-style) keys.
OPENVINS_KEYS = {
    ("gyro", "noise_density"): "gyr_n",
    ("gyro", "random_walk_density"): "gyr_w",
    ("accel", "noise_density"): "acc_n",
    ("accel", "random_walk_density"): "acc_w",
}
#: The formats by name: their keys.
FORMATS = {
    "kalibr": KALIBR_KEYS,
    "allan_variance_ros": KALIBR_KEYS,
    "openvins": OPENVINS_KEYS,
}
#: The TriadNoise fields the formats hold (the rest warn when not at their default).
_HELD = ("noise_density", "random_walk_density")
_FOLDED = ("noise_stddev",)


# ---- the flat YAML subset ------------------------------------------------------------------
def _strip_comment(text: str) -> str:
    """``text`` without a trailing ``# comment`` (a ``#`` after whitespace, outside quotes)."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"" and text[:i].strip() == "":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].strip()
    return text.strip()


def _scalar(text: str) -> object:
    """A YAML scalar: a quoted string, a bool, null, an int, a float, or a plain string."""
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("", "~", "null"):
        return None
    if low in (".inf", "+.inf"):
        return math.inf
    if low == "-.inf":
        return -math.inf
    if low == ".nan":
        return math.nan
    try:
        return int(text.replace("_", ""), 10)
    except ValueError:
        pass
    try:
        return float(text.replace("_", ""))
    except ValueError:
        return text


def loads_flat_yaml(text: str) -> dict[str, object]:
    """The top-level ``key: scalar`` entries of a YAML (or OpenCV ``%YAML:1.0``) text.

    Comments, blank lines, directives (``%...``), document markers and indented lines
    (the contents of nested blocks) are skipped; a key that opens a nested block (no
    value on its line) maps to ``None``. Numbers become int or float, ``true``/``false``
    bools, quoted values strings.
    """
    if not isinstance(text, str):
        raise TypeError(f"text={text!r:.60} is not allowed: it must be a str")
    out: dict[str, object] = {}
    for raw in text.lstrip("\ufeff").splitlines():
        line = raw.rstrip()
        if not line or line[0] in " \t#%-." or line in ("---", "..."):
            continue
        key, sep, rest = line.partition(":")
        if not sep or (rest and rest[0] not in " \t"):
            continue  # not a mapping entry (or a "key:value" URL-like plain scalar)
        key = _strip_comment(key)
        if len(key) >= 2 and key[0] == key[-1] and key[0] in "'\"":
            key = key[1:-1]
        value = _strip_comment(rest)
        if value.startswith("!!"):  # an OpenCV tag such as !!opencv-matrix opens a block
            value = ""
        out[key] = _scalar(value)
    return out


def _float_text(v: float) -> str:
    """``repr(v)`` spelled so YAML 1.1 (PyYAML) reads it as a float: a dot in the
    mantissa and a signed exponent (``1.0e-05``)."""
    if math.isnan(v):
        return ".nan"
    if math.isinf(v):
        return ".inf" if v > 0 else "-.inf"
    text = repr(float(v))
    mant, e, exp = text.partition("e")
    if "." not in mant:
        mant += ".0"
    if e and exp[0] not in "+-":
        exp = "+" + exp
    return mant + (e + exp if e else "")


def _value_text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _float_text(v)
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    raise TypeError(f"{v!r} cannot be written as a flat YAML scalar")


def dumps_flat_yaml(
    entries: Mapping[str, object],
    *,
    comments: Mapping[str, str] | None = None,
    header: str = "",
) -> str:
    """A flat YAML text of ``entries`` (str, int, float, bool values), one ``key: value``
    line each, with an optional ``# comment`` per key and a ``header`` line first (e.g.
    ``%YAML:1.0`` for OpenCV's reader)."""
    comments = comments or {}
    lines = [header] if header else []
    width = max((len(k) for k in entries), default=0) + 1
    for k, v in entries.items():
        line = f"{k + ':':<{width}} {_value_text(v)}"
        if k in comments:
            line += f"  # {comments[k]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


# ---- reading -------------------------------------------------------------------------------
def _source(source: object, name: str) -> tuple[dict[str, object], str]:
    """The flat mapping of a path or a mapping, and how errors name it."""
    if isinstance(source, Mapping):
        return dict(source), name
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise OSError(f"{name}={str(path)!r} cannot be read: {exc.strerror or exc}") from exc
        return loads_flat_yaml(text), f"{name} ({path.name})"
    raise TypeError(
        f"{name}={source!r:.80} is not allowed: give a path to a YAML file or a dict of its keys"
    )


def _density(d: Mapping[str, object], key: str, where: str, fmt: str) -> float:
    if key not in d:
        raise KeyError(
            f"{where} has no {key!r}: a {fmt} file needs {sorted(FORMATS[fmt].values())}"
        )
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ValueError(f"{where}: {key}={v!r} is not allowed: it must be a number")
    f = float(v)
    if not math.isfinite(f) or f < 0.0:
        raise ValueError(f"{where}: {key}={v!r} is not allowed: it must be finite and >= 0")
    return f


def read(source: object, fmt: str) -> tuple[TriadNoise, TriadNoise, dict[str, object]]:
    """(gyro, accel, extras) of a file or mapping in format ``fmt`` ("kalibr",
    "allan_variance_ros" or "openvins"). ``extras`` holds the format's other keys that
    fastnoise keeps (Kalibr: ``update_rate`` in Hz and ``rostopic``; VINS-Fusion:
    ``g_norm`` in m/s^2), where present."""
    keys = _keys(fmt)
    d, where = _source(source, "source")
    values: dict[str, dict[str, float]] = {"gyro": {}, "accel": {}}
    for (triad, fld), key in keys.items():
        values[triad][fld] = _density(d, key, where, fmt)
    extras: dict[str, object] = {}
    if fmt in ("kalibr", "allan_variance_ros"):
        if "update_rate" in d:
            rate = d["update_rate"]
            if isinstance(rate, bool) or not isinstance(rate, int | float) or not rate > 0:
                raise ValueError(
                    f"{where}: update_rate={rate!r} is not allowed: it must be a number > 0 (Hz)"
                )
            extras["update_rate"] = float(rate)
        if "rostopic" in d:
            if not isinstance(d["rostopic"], str):
                raise ValueError(
                    f"{where}: rostopic={d['rostopic']!r} is not allowed: it must be a string"
                )
            extras["rostopic"] = d["rostopic"]
    elif "g_norm" in d and isinstance(d["g_norm"], int | float):
        extras["g_norm"] = float(d["g_norm"])
    g, a = values["gyro"], values["accel"]
    return (
        TriadNoise(noise_density=g["noise_density"], random_walk_density=g["random_walk_density"]),
        TriadNoise(noise_density=a["noise_density"], random_walk_density=a["random_walk_density"]),
        extras,
    )


# ---- writing -------------------------------------------------------------------------------
def _keys(fmt: object) -> dict[tuple[str, str], str]:
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise ValueError(f"format={fmt!r} is not allowed: use one of {sorted(FORMATS)}")
    return FORMATS[fmt]


def _rate(update_rate: object, needed: bool, fmt: str) -> float | None:
    if update_rate is None:
        if needed:
            raise TypeError(f"update_rate=None is not allowed: a {fmt} file needs the rate, Hz")
        return None
    if isinstance(update_rate, bool) or not isinstance(update_rate, int | float):
        raise TypeError(f"update_rate={update_rate!r} is not allowed: it must be a number (Hz)")
    r = float(update_rate)
    if not (math.isfinite(r) and r > 0.0):
        raise ValueError(
            f"update_rate={update_rate!r} is not allowed: it must be finite and > 0 (Hz)"
        )
    return r


def _one_value(triad: str, fld: str, per_axis: tuple[float, ...], fmt: str) -> float:
    worst = max(per_axis)
    if min(per_axis) != worst:
        warnings.warn(
            f"{triad} {fld} differs between the axes {list(per_axis)}: a {fmt} file holds one "
            f"value, the largest ({worst!r}) is written",
            FormatLossWarning,
            stacklevel=4,
        )
    return worst


def triad_values(
    triad: TriadNoise, name: str, fmt: str, update_rate: float | None
) -> dict[str, float]:
    """The format's two values of one triad (noise_density, random_walk_density, one
    each), warning about everything left out or merged."""
    default = TriadNoise()
    dropped = [
        f.name
        for f in fields(TriadNoise)
        if f.name not in _HELD + _FOLDED and getattr(triad, f.name) != getattr(default, f.name)
    ]
    if dropped:
        warnings.warn(
            f"{name}: a {fmt} file cannot hold {dropped}: left out (only the white-noise "
            "density and the bias random walk are written)",
            FormatLossWarning,
            stacklevel=4,
        )
    nd = tuple(float(v) for v in triad.noise_density)  # type: ignore[union-attr]
    stddev = tuple(float(v) for v in triad.noise_stddev)  # type: ignore[union-attr]
    if any(stddev):
        if update_rate is None:
            raise TypeError(
                f"update_rate=None is not allowed: {name} has a per-sample noise_stddev, which "
                "becomes a density only at a rate (give update_rate, Hz)"
            )
        nd = tuple(math.sqrt(n * n + s * s / update_rate) for n, s in zip(nd, stddev, strict=True))
        warnings.warn(
            f"{name}: noise_stddev {list(stddev)} is folded into the noise density at "
            f"update_rate={update_rate!r} Hz (sqrt(N^2 + sigma^2/rate))",
            FormatLossWarning,
            stacklevel=4,
        )
    rw = tuple(float(v) for v in triad.random_walk_density)  # type: ignore[union-attr]
    return {
        "noise_density": _one_value(name, "noise_density", nd, fmt),
        "random_walk_density": _one_value(name, "random_walk_density", rw, fmt),
    }


def to_mapping(
    gyro: TriadNoise,
    accel: TriadNoise,
    fmt: str,
    *,
    update_rate: object = None,
    rostopic: object = "/imu0",
    g_norm: object = None,
) -> dict[str, object]:
    """The format's entries for a (gyro, accel) pair, in the order its files use."""
    keys = _keys(fmt)
    kalibr_like = fmt != "openvins"
    rate = _rate(update_rate, kalibr_like, fmt)
    if kalibr_like and not isinstance(rostopic, str):
        raise TypeError(f"rostopic={rostopic!r} is not allowed: it must be a str (a ROS topic)")
    vals = {
        "gyro": triad_values(gyro, "gyro", fmt, rate),
        "accel": triad_values(accel, "accel", fmt, rate),
    }
    order = (("accel", "noise_density"), ("accel", "random_walk_density")) + (
        ("gyro", "noise_density"),
        ("gyro", "random_walk_density"),
    )
    out: dict[str, object] = {keys[k]: vals[k[0]][k[1]] for k in order}
    if kalibr_like:
        out["rostopic"] = rostopic
        out["update_rate"] = rate
    elif g_norm is not None:
        if isinstance(g_norm, bool) or not isinstance(g_norm, int | float) or not g_norm > 0:
            raise ValueError(f"g_norm={g_norm!r} is not allowed: it must be a number > 0 (m/s^2)")
        out["g_norm"] = float(g_norm)
    zero = [k for k, v in out.items() if isinstance(v, float) and v == 0.0]
    if zero and kalibr_like:
        warnings.warn(
            f"{zero} are 0: Kalibr refuses densities <= 0 (ConfigReader.ImuParameters); give "
            "the IMU a white noise and a random walk, or the upper limit a fit found",
            FormatLossWarning,
            stacklevel=3,
        )
    return out


_COMMENTS = {
    "kalibr": {
        "accelerometer_noise_density": "m/s^2/sqrt(Hz), continuous time",
        "accelerometer_random_walk": "m/s^3/sqrt(Hz), continuous time",
        "gyroscope_noise_density": "rad/s/sqrt(Hz), continuous time",
        "gyroscope_random_walk": "rad/s^2/sqrt(Hz), continuous time",
        "rostopic": "the IMU topic",
        "update_rate": "Hz, Kalibr discretizes the densities with it",
    },
    "openvins": {
        "acc_n": "m/s^2/sqrt(Hz)",
        "acc_w": "m/s^3/sqrt(Hz)",
        "gyr_n": "rad/s/sqrt(Hz)",
        "gyr_w": "rad/s^2/sqrt(Hz)",
        "g_norm": "m/s^2",
    },
}
_COMMENTS["allan_variance_ros"] = {
    "rostopic": "Make sure this is correct",
    "update_rate": "Make sure this is correct",
}


def write(entries: Mapping[str, object], fmt: str, path: object) -> None:
    """Write ``entries`` (from :func:`to_mapping`) to ``path`` as the format's YAML."""
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path={path!r} is not allowed: it must be a str or a path")
    header = "%YAML:1.0" if fmt == "openvins" else ""
    text = dumps_flat_yaml(entries, comments=_COMMENTS[fmt], header=header)
    Path(path).write_text(text, encoding="utf-8")
