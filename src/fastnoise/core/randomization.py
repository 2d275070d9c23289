"""Domain randomization of a batch: new per-environment parameters for the environments
being reset, drawn uniformly from ranges, reproducibly.

Draw rule: the values of parameter ``name`` for environment ``e`` at reset number
``episode`` are ``numpy.random.Generator(numpy.random.Philox(s)).uniform(low, high)``
with ``s`` the SeedSequence of the seed with the spawn key extended by
``(model_tag("randomize"), name_tag(name), e, episode)``. So a value depends only on
(seed, name, environment, episode): not on which other environments are reset with
it, nor on the order of ``ranges``, nor on numpy's global generator.
"""

from __future__ import annotations

import copy
import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from fastnoise.core import spec as _spec
from fastnoise.core.seeding import as_seed_sequence, model_tag, name_tag

__all__ = ["draw", "redraw", "set_env_params"]

_TAG = model_tag("randomize")


def _bounds(name: str, bounds: object) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of ``ranges[name]``: real arrays of one shape (a scalar, or the
    parameter's per-environment shape, e.g. (3,)), finite, low <= high."""
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise TypeError(f"ranges[{name!r}]={bounds!r:.80} is not allowed: give (low, high)")
    try:
        lo = np.asarray(bounds[0], dtype=np.float64)
        hi = np.asarray(bounds[1], dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"ranges[{name!r}]={bounds!r:.80} is not allowed: low and high must be real"
        ) from None
    lo, hi = np.broadcast_arrays(lo, hi)
    if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi)) and np.all(lo <= hi)):
        raise ValueError(
            f"ranges[{name!r}]={bounds!r:.80} is not allowed: low and high must be finite "
            "with low <= high"
        )
    return lo, hi


def draw(
    ranges: Mapping[str, object], env_ids: object, num_envs: int, *, seed: object, episode: int
) -> dict[str, np.ndarray]:
    """The values of the draw rule (module docstring) for environments ``env_ids`` (as
    ``reset(env_ids=...)`` takes them) of a batch of ``num_envs``: ``{name: array of
    shape (len(ids), *shape of low/high)}``, in the order of the sorted unique ids."""
    if not isinstance(ranges, Mapping) or not ranges:
        raise TypeError(f"ranges={ranges!r:.80} is not allowed: give {{name: (low, high)}}")
    if (
        isinstance(episode, bool)
        or not isinstance(episode, numbers.Integral)
        or not 0 <= int(episode) < 2**32
    ):
        raise ValueError(f"episode={episode!r} is not allowed: it must be an int in [0, 2**32)")
    ss = as_seed_sequence(seed)
    ids = _spec.env_ids(env_ids, num_envs)
    out = {}
    for name in ranges:
        if not isinstance(name, str):
            raise TypeError(f"ranges has the key {name!r}: parameter names are strings")
        lo, hi = _bounds(name, ranges[name])
        rows = []
        for e in ids:
            child = np.random.SeedSequence(
                ss.entropy,
                spawn_key=(*ss.spawn_key, _TAG, name_tag(name), int(e), int(episode)),
                pool_size=ss.pool_size,
            )
            rng = np.random.Generator(np.random.Philox(child))
            rows.append(rng.uniform(lo, hi) if lo.shape else rng.uniform(float(lo), float(hi)))
        out[name] = np.array(rows, dtype=np.float64).reshape((len(ids), *lo.shape))
    return out


def redraw(
    model: Any,
    env_ids: object,
    *,
    ranges: Mapping[str, object],
    seed: object = None,
    episode: int,
) -> dict[str, np.ndarray]:
    """Reset environments ``env_ids`` of the batch ``model`` (built with ``num_envs``)
    with parameters redrawn uniformly from ``ranges`` (``{"gyro_noise_density": (low,
    high)}``: a constructor keyword of a per-environment parameter, and bounds in its
    SI unit, scalars or of the parameter's shape, e.g. (3,) for a per-axis field).

    ``seed`` (an int, a SeedSequence, or None for the model's own seed) and ``episode``
    (the reset counter, an int >= 0) key the draws with the environment (see the
    module docstring), so a training run is reproducible and each reset of an
    environment draws anew when its episode number changes. The model checks the
    values as its constructor would (nothing changes on a refusal); the environments
    then restart from their constructed state with the new parameters, the others
    continue unchanged. Returns the drawn values (:func:`draw`)."""
    num_envs = getattr(model, "num_envs", None)
    if not isinstance(num_envs, int) or not (
        hasattr(model, "_set_env_params") or hasattr(model, "state")
    ):
        raise TypeError(
            f"model={type(model).__name__} is not allowed: redraw needs a batch model "
            "built with num_envs=N"
        )
    if seed is None:
        seed = model.seed
    values = draw(ranges, env_ids, num_envs, seed=seed, episode=episode)
    ids = _spec.env_ids(env_ids, num_envs)
    if ids.size:
        if hasattr(model, "_set_env_params"):
            model._set_env_params(ids, values)
        else:
            set_env_params(model, ids, values)
    return values


def _param_slot(params: dict[str, Any], name: str, model: Any) -> tuple[dict[str, Any], str]:
    """Where ``name`` lives in a state's params: ``(params, name)`` for a top-level
    parameter, ``(params[c], field)`` for ``"<c>_<field>"`` of a dict-valued one (a
    Gazebo sensor's component, ``pressure_stddev``)."""
    if name in params and name not in ("num_envs", "env"):
        return params, name
    for comp, value in params.items():
        if (value is None or isinstance(value, Mapping)) and name.startswith(comp + "_"):
            params[comp] = dict(value or {})
            return params[comp], name[len(comp) + 1 :]
    raise ValueError(
        f"ranges has {name!r}, which is not a parameter of {type(model).__name__}: give "
        "a constructor keyword (or '<component>_<field>' of a component dict)"
    )


def set_env_params(model: Any, env_ids: object, values: Mapping[str, Any]) -> None:
    """Give environments ``env_ids`` of the batch ``model`` the per-environment
    parameters ``values`` (``{name: array of shape (len(ids), ...)}`` in the order of
    the sorted unique ids, as :func:`draw` returns them) and restart them from their
    constructed state; the other environments continue unchanged.

    For a model without a ``_set_env_params`` of its own (GazeboNoise and the Gazebo
    sensors, RangeNoise): its state with those parameters set per environment is
    checked and applied as its constructor checks them (a refusal changes nothing),
    then ``reset(env_ids)``. ``name`` is a constructor keyword, or
    ``"<component>_<field>"`` for a field of a dict-valued one (``pressure_stddev``). A
    model whose parameters cannot be per environment refuses the values by name."""
    num_envs = model.num_envs
    ids = _spec.env_ids(env_ids, num_envs)
    state = model.state
    params = copy.deepcopy(state["params"])
    for name, vals in values.items():
        where, key = _param_slot(params, name, model)
        vals = np.asarray(vals, dtype=np.float64)
        if vals.shape[:1] != ids.shape:
            raise ValueError(
                f"values[{name!r}] has shape {vals.shape}: it must have one row per "
                f"environment reset ({ids.shape[0]})"
            )
        current = where.get(key)
        if current is None:
            raise ValueError(
                f"ranges has {name!r}: {type(model).__name__} holds no value for it to "
                "vary (set it in the constructor first)"
            )
        full = np.array(
            np.broadcast_to(np.asarray(current, dtype=np.float64), (num_envs, *vals.shape[1:]))
        )
        full[ids] = vals
        where[key] = full
    model.state = dict(state, params=params)
    model.reset(env_ids=ids)
