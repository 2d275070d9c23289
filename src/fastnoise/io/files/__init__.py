"""Noise for data on disk and in memory: image folders, point-cloud files, numpy files
(the formats: :mod:`fastnoise.io.files.files`)."""

from fastnoise.io.files.cloud import CLOUD_SUFFIXES, lidar_noise_columns
from fastnoise.io.files.files import file_kind, noise_file, walk
from fastnoise.io.files.image import IMAGE_SUFFIXES, image_noise_batch

__all__ = [
    "CLOUD_SUFFIXES",
    "IMAGE_SUFFIXES",
    "file_kind",
    "image_noise_batch",
    "lidar_noise_columns",
    "noise_file",
    "walk",
]
