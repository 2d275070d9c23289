"""What the models of Isaac Lab's vocabulary declare (:mod:`fastnoise.core.spec`):
``gaussian_noise``, ``uniform_noise``, ``constant_noise`` (one term, applied by an
operation) and ``additive_bias_noise`` (a term plus a bias redrawn per environment at
reset). Units: "u" is the unit of the data the model noises (m, rad, m/s, ...); a term
applied with ``operation="scale"`` is a dimensionless factor."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from fastnoise.core.spec import Declaration, Param

# Largest |value| of a term's parameter: sums and products stay finite.
MAX_PARAM = 1e30
#: Isaac Lab's operations: how a drawn value v meets the data x.
OPERATIONS = ("add", "scale", "abs")
#: The term types of ``additive_bias_noise``'s ``noise`` and ``bias_noise``.
TERM_TYPES = ("gaussian", "uniform", "constant")
_U = "u (the data's unit; dimensionless for operation='scale')"


def _real(name: str, doc: str, default: float, *, signed: bool = True) -> Param:
    return Param(
        name,
        "real",
        doc,
        unit=_U,
        default=default,
        low=-MAX_PARAM if signed else 0.0,
        high=MAX_PARAM,
    )


OPERATION = Param(
    "operation",
    "choice",
    "how the drawn value v meets the data x: 'add' gives x + v, 'scale' x * v, 'abs' v "
    "(Isaac Lab's operation)",
    choices=OPERATIONS,
    default="add",
)
NUM_ENVS = Param(
    "num_envs",
    "int",
    "environments of a batch: data gets a leading axis of this length, one C call "
    "noises them all, and environment i gives the bits of a model built with env=i; "
    "None: one environment, no leading axis (at most 65536: each environment's key is "
    "derived once, in Python, when the model is built)",
    default=None,
    low=1,
    high=65536,
)
ENV = Param(
    "env",
    "int",
    "the environment index of a single model: its key is made from child env of the "
    "model's seed sequence, so it gives the bits of environment env of a batch; None: "
    "the model's own key",
    default=None,
    low=0,
    high=2**31,
    high_open=True,
)

GAUSSIAN_PARAMS = (
    _real("mean", "mean of the drawn value v = mean + stddev * z", 0.0),
    _real("stddev", "standard deviation of v (Isaac Lab's std)", 1.0, signed=False),
)
UNIFORM_PARAMS = (
    dataclasses.replace(
        _real("n_min", "lower end of the drawn value v, uniform in [n_min, n_max)", -1.0),
        rule="<= n_max",
    ),
    dataclasses.replace(_real("n_max", "upper end of v", 1.0), rule=">= n_min"),
)
CONSTANT_PARAMS = (_real("bias", "the value v, every step", 0.0),)
#: The terms ``additive_bias_noise`` takes for ``noise=None`` and ``bias_noise=None``.
DEFAULT_NOISE = {"type": "gaussian", "mean": 0.0, "stddev": 1.0, "operation": "add"}
DEFAULT_BIAS_NOISE = {"type": "gaussian", "mean": 0.0, "stddev": 1.0, "operation": "abs"}
_TERM_PARAMS = {"gaussian": GAUSSIAN_PARAMS, "uniform": UNIFORM_PARAMS, "constant": CONSTANT_PARAMS}


def check_range(n_min: Any, n_max: Any, where: str = "") -> None:
    """The rule across a uniform term's ends: n_max >= n_min (each a float, or a
    per-environment array: the first environment that breaks it is named)."""
    lo, hi = np.broadcast_arrays(
        np.asarray(n_min, dtype=np.float64), np.asarray(n_max, dtype=np.float64)
    )
    bad = np.flatnonzero(hi < lo)
    if bad.size:
        i = int(bad[0])
        at = f"[{i}]" if lo.ndim else ""
        raise ValueError(
            f"{where}n_max{at}={float(hi.flat[i])!r} is not allowed: it must be >= "
            f"{where}n_min{at}={float(lo.flat[i])!r}"
        )


def check_term(name: str, value: object, num_envs: int | None = None) -> dict[str, Any]:
    """A term of ``additive_bias_noise`` (its ``noise`` or ``bias_noise``): a dict with
    ``type`` (``gaussian``, ``uniform`` or ``constant``), optionally ``operation``
    (default ``add``) and that type's parameters (defaults as the models'). Returns
    the dict with every key filled in. With ``num_envs`` (a batch) each real parameter
    may be per environment, shape (num_envs,) (returned as a float64 array)."""
    if not isinstance(value, Mapping):
        raise TypeError(
            f"{name}={value!r} is not allowed: it must be a dict with 'type' (one of "
            f"{list(TERM_TYPES)}), 'operation' and the type's parameters"
        )
    kind = value.get("type")
    if kind not in TERM_TYPES:
        raise ValueError(
            f"{name}['type']={kind!r} is not allowed: it must be one of {list(TERM_TYPES)}"
        )
    specs = {p.name: p for p in (*_TERM_PARAMS[kind], OPERATION)}
    unknown = [k for k in value if k != "type" and k not in specs]
    if unknown:
        raise ValueError(
            f"{name}={dict(value)!r} is not allowed: it has the unknown keys {unknown} "
            f"(a {kind} term has {['type', *specs]})"
        )
    out: dict[str, Any] = {"type": kind}
    for k, p in specs.items():
        spec = Param(
            f"{name}[{k!r}]",
            p.kind,
            p.doc,
            unit=p.unit,
            default=p.default,
            low=p.low,
            high=p.high,
            choices=p.choices,
        )
        if k not in value:
            out[k] = p.default
        elif num_envs is not None:
            out[k] = spec.check_batch(value[k], num_envs)
        else:
            out[k] = spec.check(value[k])
    if kind == "uniform":
        check_range(out["n_min"], out["n_max"], f"{name}")
    return out


def _exercise(m: Any) -> np.ndarray:
    n = m.num_envs or 1
    size = getattr(m, "size", 5)  # the bias model takes its declared size
    x = np.linspace(-1.0, 1.0, n * size).reshape((n, size) if m.num_envs else (size,))
    a = m.apply(x)
    b = m.apply(x.astype(np.float32))
    m.reset(env_ids=[n - 1])
    c = m.apply(x)
    return np.concatenate([a.ravel(), b.ravel().astype(np.float64), c.ravel()])


_COMMON = (OPERATION, NUM_ENVS, ENV)

GAUSSIAN_NOISE = Declaration(
    name="gaussian_noise",
    summary="Isaac Lab's GaussianNoiseCfg: v = mean + stddev * z per component, applied "
    "by add, scale or abs; per environment keyed",
    tags=("gaussian_noise",),
    params=(*GAUSSIAN_PARAMS, *_COMMON),
    example=lambda cls: cls(mean=0.1, stddev=0.5, num_envs=3, seed=31),
    exercise=_exercise,
)

UNIFORM_NOISE = Declaration(
    name="uniform_noise",
    summary="Isaac Lab's UniformNoiseCfg: v uniform in [n_min, n_max) per component, "
    "applied by add, scale or abs; per environment keyed",
    tags=("uniform_noise",),
    params=(*UNIFORM_PARAMS, *_COMMON),
    example=lambda cls: cls(n_min=0.9, n_max=1.1, operation="scale", num_envs=3, seed=32),
    exercise=_exercise,
)

CONSTANT_NOISE = Declaration(
    name="constant_noise",
    summary="Isaac Lab's ConstantNoiseCfg: v = bias, applied by add, scale or abs",
    tags=("constant_noise",),
    params=(*CONSTANT_PARAMS, *_COMMON),
    example=lambda cls: cls(bias=0.25, num_envs=3, seed=33),
    exercise=_exercise,
)

ADDITIVE_BIAS_NOISE = Declaration(
    name="additive_bias_noise",
    summary="Isaac Lab's NoiseModelWithAdditiveBiasCfg: a noise term plus a bias per "
    "environment, drawn at construction and redrawn at each reset of that environment",
    tags=("additive_bias_noise",),
    params=(
        Param(
            "noise",
            "mapping",
            "the noise term applied every step (Isaac Lab's noise_cfg): {'type': "
            "'gaussian' | 'uniform' | 'constant', 'operation': ..., and the type's "
            "parameters}; None: a standard normal, added",
            unit=_U,
            default=None,
        ),
        Param(
            "bias_noise",
            "mapping",
            "the term that makes the bias (Isaac Lab's bias_noise_cfg): at each reset of "
            "an environment its bias becomes op(bias, v), so 'add' accumulates over "
            "resets and 'abs' draws a fresh bias; None: a standard normal, 'abs'",
            unit=_U,
            default=None,
        ),
        Param(
            "per_component",
            "bool",
            "one bias per component of the data (Isaac Lab's sample_bias_per_component); "
            "False: one bias per environment, shared by its components",
            default=True,
        ),
        Param(
            "size",
            "int",
            "components per environment (the data's size after the env axis), which "
            "the per-component bias needs at construction (at most 2**20)",
            default=1,
            low=1,
            high=2**20,
        ),
        NUM_ENVS,
        ENV,
    ),
    example=lambda cls: cls(
        noise={"type": "uniform", "n_min": -0.05, "n_max": 0.05},
        bias_noise={"type": "gaussian", "mean": 0.0, "stddev": 0.2, "operation": "add"},
        size=5,
        num_envs=3,
        seed=34,
    ),
    exercise=_exercise,
)
