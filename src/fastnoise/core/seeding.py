"""Seeds to Philox keys: the one place every model turns a user's seed into a key."""

from __future__ import annotations

import hashlib
import numbers
from typing import Any

import numpy as np


def as_seed_sequence(seed: object) -> np.random.SeedSequence:
    """Return a SeedSequence for ``seed`` (int >= 0, SeedSequence, or None for fresh entropy).

    With ``None`` the entropy is drawn from the OS and kept in the returned sequence
    (``.entropy``), so a run can be reproduced by passing that value back as the seed.
    """
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"seed={seed!r} is not allowed: use a non-negative int, a "
            "numpy.random.SeedSequence, or None"
        )
    if not 0 <= int(seed) < 2**128:
        # a state records the entropy as an int below 2**128 (validate.seed_sequence),
        # so a larger seed could not round-trip through state or pickle
        raise ValueError(f"seed={seed!r} is not allowed: it must be an int in [0, 2**128)")
    return np.random.SeedSequence(int(seed))


def key_from_seed_sequence(ss: np.random.SeedSequence) -> int:
    """The 64-bit Philox key of a SeedSequence (its first two 32-bit words)."""
    words = ss.generate_state(2, np.uint32)
    return int(words[0]) | (int(words[1]) << 32)


def model_tag(model: str) -> int:
    """A fixed 32-bit tag for a model name (top bit set, so it never equals the small
    indices that ``SeedSequence.spawn`` uses)."""
    digest = hashlib.sha256(model.encode()).digest()
    return int.from_bytes(digest[:4], "little") | 0x80000000


def child_seed_sequence(ss: np.random.SeedSequence, index: int) -> np.random.SeedSequence:
    """Child ``index`` of ``ss``, as ``ss.spawn`` would make it on a fresh sequence,
    without changing ``ss``."""
    return np.random.SeedSequence(
        ss.entropy, spawn_key=(*ss.spawn_key, index), pool_size=ss.pool_size
    )


def model_seed_sequence(ss: np.random.SeedSequence, model: str) -> np.random.SeedSequence:
    """The sequence behind ``model``'s keys for a user's sequence ``ss``: the child
    with the model's tag. So different models given the same seed draw independent
    noise, while each stays a pure function of the user's seed."""
    return child_seed_sequence(ss, model_tag(model))


def model_key(ss: np.random.SeedSequence, model: str) -> int:
    """64-bit Philox key of ``model`` for the user's sequence ``ss``."""
    return key_from_seed_sequence(model_seed_sequence(ss, model))


def env_seed_sequence(ss: np.random.SeedSequence, env: int) -> np.random.SeedSequence:
    """The sequence of environment ``env`` of a batch whose sequence (a model's, from
    :func:`model_seed_sequence`) is ``ss``: its child ``env``. A model built with
    ``env=i`` keys with ``key_from_seed_sequence(env_seed_sequence(model_seed_sequence(
    seed, tag), i))``, and environment ``i`` of a model built with ``num_envs=N`` keys
    the same, so it draws the same numbers. A model's tag has its top bit set
    (:func:`model_tag`), so an environment's child never equals a model's."""
    if isinstance(env, (bool, np.bool_)) or not isinstance(env, numbers.Integral):
        raise TypeError(f"env={env!r} is not allowed: it must be an int in [0, 2**31)")
    if not 0 <= int(env) < 2**31:
        raise ValueError(f"env={env!r} is not allowed: it must be an int in [0, 2**31)")
    return child_seed_sequence(ss, int(env))


def env_model_key(ss: np.random.SeedSequence, model: str, env: int | None) -> int:
    """64-bit Philox key of environment ``env`` of ``model`` for the user's sequence
    ``ss`` (``env=None``: the model's own key, :func:`model_key`)."""
    mss = model_seed_sequence(ss, model)
    if env is None:
        return key_from_seed_sequence(mss)
    return key_from_seed_sequence(env_seed_sequence(mss, env))


def seed_sequence_state(ss: np.random.SeedSequence) -> dict[str, Any]:
    """A plain dict that rebuilds ``ss`` exactly (entropy, spawn key, children spawned)."""
    return {
        "entropy": ss.entropy,
        "spawn_key": tuple(int(k) for k in ss.spawn_key),
        "pool_size": int(ss.pool_size),
        "n_children_spawned": int(ss.n_children_spawned),
    }


def seed_sequence_from_state(d: dict[str, Any]) -> np.random.SeedSequence:
    return np.random.SeedSequence(
        d["entropy"],
        spawn_key=tuple(d["spawn_key"]),
        pool_size=d["pool_size"],
        n_children_spawned=d["n_children_spawned"],
    )


def name_tag(name: str) -> int:
    """The 32-bit tag of a name (a normalized topic name, a relative file path, an SDF
    sensor's scoped name): the first four bytes, little-endian, of its UTF-8 SHA-256.
    Suites and SDF files key each topic, file or sensor with it."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:4], "little")
