"""Noise for data on disk and in memory: image folders, point-cloud files, numpy files
(the formats and handlers: :mod:`fastnoise.io.files.files`)."""

import warnings
from typing import Any

from fastnoise.core import registry
from fastnoise.io.files.cloud import CLOUD_SUFFIXES, lidar_noise_columns
from fastnoise.io.files.files import FILE_HANDLERS, file_handler, file_kind, noise_file, walk
from fastnoise.io.files.image import IMAGE_SUFFIXES, image_noise_batch

__all__ = [
    "CLOUD_SUFFIXES",
    "FILE_HANDLERS",
    "IMAGE_SUFFIXES",
    "file_handler",
    "file_kind",
    "image_noise_batch",
    "lidar_noise_columns",
    "noise_file",
    "walk",
]

# registered models whose class 0.2 exported from here (fastnoise.io.files was a module)
_EXPORTED_IN_0_2 = ("depth",)


def __getattr__(name: str) -> Any:
    for model in _EXPORTED_IN_0_2:
        cls = registry.get(model).cls
        if cls.__name__ == name:
            warnings.warn(
                f"fastnoise.io.files.{name} is deprecated: use fastnoise.{name}",
                DeprecationWarning,
                stacklevel=2,
            )
            return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
