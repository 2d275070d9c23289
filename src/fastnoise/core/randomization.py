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

import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from fastnoise.core import spec as _spec
from fastnoise.core.seeding import as_seed_sequence, model_tag, name_tag

__all__ = ["draw", "redraw"]

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
    if not isinstance(num_envs, int) or not hasattr(model, "_set_env_params"):
        raise TypeError(
            f"model={type(model).__name__} is not allowed: redraw needs a batch model "
            "built with num_envs=N"
        )
    if seed is None:
        seed = model.seed
    values = draw(ranges, env_ids, num_envs, seed=seed, episode=episode)
    ids = _spec.env_ids(env_ids, num_envs)
    if ids.size:
        model._set_env_params(ids, values)
    return values
