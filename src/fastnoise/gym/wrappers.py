# mypy: disable-error-code="import-not-found, import-untyped"
"""Gymnasium wrappers that noise observations with fastnoise models, seeded the way
Gymnasium seeds: ``reset(seed=s)`` reseeds the noise from ``s``, so one seed gives one
noisy episode; sub-environment i of a vector environment uses ``s`` with ``env=i``.

This module imports ``gymnasium`` (the ``sim`` extra); ``import fastnoise`` does not
import this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorWrapper
from gymnasium.vector.utils import batch_space

from fastnoise.core import registry
from fastnoise.core import spec as _spec
from fastnoise.core.seeding import as_seed_sequence, child_seed_sequence

__all__ = ["ObservationNoise", "VectorObservationNoise"]


def _as_slice(key: object, n: int) -> np.ndarray:
    if isinstance(key, slice):
        return np.arange(n)[key]
    idx = np.asarray(key)
    if idx.dtype.kind not in "iu" or idx.ndim > 1:
        raise TypeError(
            f"noise key {key!r} is not allowed: use a slice or indices of the observation"
        )
    idx = idx.reshape(-1)
    if ((idx < -n) | (idx >= n)).any():
        raise ValueError(f"noise key {key!r} is not allowed: indices must be in [0, {n})")
    return np.arange(n)[idx]


class _Slices:
    """The models of the observation's slices, rebuilt from a seed (internal)."""

    def __init__(self, noise: Any, size: int) -> None:
        pairs = list(noise.items()) if isinstance(noise, Mapping) else list(noise or ())
        if not pairs or not all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
            raise TypeError(
                f"noise={noise!r} is not allowed: give pairs [(slice or indices, "
                "{'model': name, ...parameters})], e.g. [(slice(0, 3), {'model': "
                "'gaussian_noise', 'stddev': 0.01})], or a dict with index-tuple keys"
            )
        self.parts = []
        for k, (key, spec) in enumerate(pairs):
            idx = _as_slice(key, size)
            if not isinstance(spec, Mapping) or "model" not in spec:
                raise ValueError(
                    f"noise[{key!r}]={spec!r} is not allowed: it must be a dict with "
                    "'model' (a registry name) and that model's parameters"
                )
            params = {p: v for p, v in spec.items() if p != "model"}
            cls = registry.get(spec["model"]).cls
            if "size" in {p.name for p in cls.declaration.params}:
                params.setdefault("size", int(idx.size))
            self.parts.append((k, idx, cls, params))
        self.models: list[Any] = []

    def build(self, seed: object, **envs: Any) -> None:
        ss = as_seed_sequence(seed)
        self.models = [
            cls(**params, **envs, seed=child_seed_sequence(ss, k))
            for k, _, cls, params in self.parts
        ]

    def apply(self, obs: np.ndarray) -> np.ndarray:
        out = np.array(obs, dtype=np.float64, copy=True)
        for (_, idx, _, _), m in zip(self.parts, self.models, strict=True):
            out[..., idx] = m.apply(np.ascontiguousarray(out[..., idx]))
        return out.astype(obs.dtype, copy=False)

    def reset(self, env_ids: Any) -> None:
        for m in self.models:
            m.reset(env_ids=env_ids)


def _box_space(space: Any, parts: list[Any], clip: bool) -> tuple[Any, Any]:
    """(the wrapper's observation space, the bounds to clip to or None)."""
    if not isinstance(space, spaces.Box):
        raise TypeError(f"observation space {space!r} is not allowed: it must be a Box")
    bounded = np.isfinite(space.low).any() or np.isfinite(space.high).any()
    if not bounded or clip:
        return space, (space.low, space.high) if bounded else None
    low, high = space.low.copy(), space.high.copy()
    for _, idx, _, _ in parts:
        low[..., idx] = -np.inf
        high[..., idx] = np.inf
    return spaces.Box(low, high, dtype=space.dtype), None


class ObservationNoise(gym.Wrapper[Any, Any, Any, Any], gym.utils.RecordConstructorArgs):
    """ObservationNoise(env, *, noise, seed=None, env_index=0, clip=True,
    sensordata=None)

    Noise slices of ``env``'s Box observations with fastnoise models.

    ``noise``: pairs ``[(slice or indices, {"model": registry name,
    ...parameters})]``, e.g. ``[(slice(0, 13), {"model": "gaussian_noise",
    "stddev": 0.01})]``, or a dict whose keys are index tuples (any model of
    the registry that takes ``env`` and an ``apply(x)`` of the slice: the Isaac Lab
    vocabulary of docs/isaac-lab.rst). Slice k's model is seeded with child k of the
    seed and built with ``env=env_index``. ``reset(seed=s)`` rebuilds every model
    from ``s``; ``reset()`` without a seed starts a new episode of the same stream
    (the models' ``reset(env_ids=[0])``: a new bias, new steps). ``clip``: a bounded
    space's bounds hold the noisy observation (clipped); ``clip=False`` widens the
    noised slices of the space to (-inf, inf) instead. ``sensordata``: a dict of
    :class:`fastnoise.mujoco.SensorNoise` keywords (``sensors=``, ``dt=``...) to
    also noise a MuJoCo env's ``data.sensordata`` after each step.
    """

    def __init__(
        self,
        env: Any,
        *,
        noise: Any,
        seed: object = None,
        env_index: int = 0,
        clip: bool = True,
        sensordata: Mapping[str, Any] | None = None,
    ) -> None:
        gym.utils.RecordConstructorArgs.__init__(
            self,
            noise=noise,
            seed=seed,
            env_index=env_index,
            clip=clip,
            sensordata=sensordata,
        )
        super().__init__(env)
        size = int(np.prod(env.observation_space.shape))
        self._slices = _Slices(noise, size)
        self.observation_space, self._bounds = _box_space(
            env.observation_space, self._slices.parts, clip
        )
        self._env_index = env_index
        self._sensor_kw = dict(sensordata) if sensordata is not None else None
        self._sensor: Any = None
        self._seed(seed)

    def _seed(self, seed: object) -> None:
        ss = as_seed_sequence(seed)
        self._slices.build(child_seed_sequence(ss, 0), env=self._env_index)
        if self._sensor_kw is not None:
            from fastnoise.mujoco import SensorNoise

            sim: Any = self.env.unwrapped  # a MuJoCo env: its model and data
            self._sensor = SensorNoise(
                sim.model,
                seed=child_seed_sequence(ss, 1),
                env=self._env_index,
                **self._sensor_kw,
            )

    def _noise(self, obs: np.ndarray) -> np.ndarray:
        return _noised(self._slices, self._bounds, obs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        if seed is not None:
            self._seed(seed)
        else:
            self._slices.reset([0])
            if self._sensor is not None:
                self._sensor.reset(env_ids=[0])
        return self._noise(obs), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if self._sensor is not None:
            sim: Any = self.env.unwrapped
            self._sensor.apply(sim.data)
        return self._noise(obs), reward, terminated, truncated, info


def _noised(slices: Any, bounds: Any, obs: np.ndarray) -> np.ndarray:
    """``obs`` noised by its slices' models, clipped to the space's bounds when the
    wrapper clips (``bounds`` None: the space was widened instead)."""
    out = slices.apply(obs)
    if bounds is not None:
        out = np.clip(out, *bounds).astype(obs.dtype, copy=False)
    return out


class VectorObservationNoise(VectorWrapper):
    """VectorObservationNoise(vec_env, *, noise, seed=None, clip=True, sensordata=None)

    :class:`ObservationNoise` for a vector environment: one batched model per
    slice (``num_envs``), so sub-environment i gets bit for bit what
    ``ObservationNoise(..., env_index=i)`` with the same seed gets.
    ``reset(seed=s)`` seeds the noise with ``s`` for every sub-environment (with
    ``env=i``, not ``s + i``); an autoreset of sub-environment i (next-step or
    same-step mode) resets only its noise (``reset(env_ids=[i])``).
    ``sensordata``: as :class:`ObservationNoise`'s, for a synchronous vector env of
    MuJoCo envs (``vectorization_mode="sync"``: the sub-environments' ``data`` live in
    this process): one :class:`fastnoise.mujoco.SensorNoise` batch noises every
    sub-environment's ``data.sensordata`` after each step, sub-environment i as
    ``ObservationNoise(..., env_index=i)`` does.
    """

    def __init__(
        self,
        vec_env: Any,
        *,
        noise: Any,
        seed: object = None,
        clip: bool = True,
        sensordata: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(vec_env)
        single = vec_env.single_observation_space
        size = int(np.prod(single.shape))
        self._slices = _Slices(noise, size)
        self.single_observation_space, bounds = _box_space(single, self._slices.parts, clip)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._bounds = bounds
        self._mode = vec_env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
        self._done = np.zeros(self.num_envs, dtype=bool)
        self._sensor_kw = dict(sensordata) if sensordata is not None else None
        self._sensor: Any = None
        self._sims: list[Any] = []
        if self._sensor_kw is not None:
            subs = getattr(vec_env.unwrapped, "envs", None)
            if subs is None:
                raise TypeError(
                    f"sensordata needs a synchronous vector env (vectorization_mode='sync'), "
                    f"whose sub-environments live in this process: "
                    f"{type(vec_env.unwrapped).__name__} has none to read"
                )
            self._sims = [e.unwrapped for e in subs]
        self._seed(seed)

    def _seed(self, seed: object) -> None:
        ss = as_seed_sequence(seed)
        self._slices.build(child_seed_sequence(ss, 0), num_envs=self.num_envs)
        if self._sensor_kw is not None:
            from fastnoise.mujoco import SensorNoise

            self._sensor = SensorNoise(
                self._sims[0].model,
                seed=child_seed_sequence(ss, 1),
                num_envs=self.num_envs,
                **self._sensor_kw,
            )

    def _reset_noise(self, ids: np.ndarray) -> None:
        self._slices.reset(ids)
        if self._sensor is not None:
            self._sensor.reset(env_ids=ids)

    def _noise_sensordata(self) -> None:
        """Every sub-environment's ``data.sensordata`` noised in place, as one batch."""
        if self._sensor is None:
            return
        batch = np.stack([sim.data.sensordata for sim in self._sims])
        self._sensor.apply(batch)
        for sim, row in zip(self._sims, batch, strict=True):
            sim.data.sensordata[:] = row

    def _noise(self, obs: np.ndarray) -> np.ndarray:
        return _noised(self._slices, self._bounds, obs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        if seed is not None:
            if not isinstance(seed, int):
                raise TypeError(
                    f"seed={seed!r} is not allowed: VectorObservationNoise takes one "
                    "int seed (sub-environment i noises with env=i)"
                )
            self._seed(seed)
        else:
            self._reset_noise(np.arange(self.num_envs))
        self._done[:] = False
        return self._noise(obs), info

    def step(self, actions: Any):
        obs, reward, terminated, truncated, info = self.env.step(actions)
        done = np.logical_or(terminated, truncated)
        if self._mode == AutoresetMode.SAME_STEP:
            if done.any():
                self._reset_noise(_spec.env_ids(done, self.num_envs))
        elif self._done.any():  # next-step: this step returned their first observation
            self._reset_noise(_spec.env_ids(self._done, self.num_envs))
        self._done = done
        self._noise_sensordata()
        return self._noise(obs), reward, terminated, truncated, info
