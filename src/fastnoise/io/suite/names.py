"""Topic names, relative paths and the key of each: what a suite entry's model is
seeded with (see :mod:`fastnoise.io.suite.suite`)."""

from __future__ import annotations

import os
import posixpath
from pathlib import PurePath

import numpy as np

from fastnoise.core.seeding import as_seed_sequence, child_seed_sequence, model_tag, name_tag

_SUITE_TAG = model_tag("suite")


def normalize_topic(name: str) -> str:
    """A topic name in one spelling: absolute, no repeated or trailing ``/``
    (``"imu//data/"`` -> ``"/imu/data"``). ROS 1 and ROS 2 spellings of a topic agree."""
    if not isinstance(name, str) or not name.strip("/ "):
        raise ValueError(f"topic name {name!r} is not allowed: it must name a topic")
    return "/" + "/".join(p for p in name.strip().split("/") if p)


def normalize_relpath(path: str | os.PathLike[str]) -> str:
    """A relative file path in POSIX form without ``.`` parts (``"a\\\\b/./c.png"`` on
    Windows, ``"a/b/c.png"``); absolute paths and ``..`` are refused."""
    p = PurePath(path)
    if p.is_absolute():
        raise ValueError(f"path {str(path)!r} is not allowed: it must be relative")
    text = posixpath.normpath(p.as_posix())
    if text == "." or text.startswith("../") or text == "..":
        raise ValueError(f"path {str(path)!r} is not allowed: it must lie below the input")
    return text


def name_seed_sequence(seed: object, name: str) -> np.random.SeedSequence:
    """The seed of the topic or file ``name`` (normalized) under the suite ``seed``:
    ``child(child(seed, model_tag("suite")), name_tag(name))``."""
    ss = as_seed_sequence(seed)
    return child_seed_sequence(child_seed_sequence(ss, _SUITE_TAG), name_tag(name))
