"""Noise for data on disk and in memory: image folders, point-cloud files, numpy files
(the formats and handlers: :mod:`fastnoise.io.files.files`)."""

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
