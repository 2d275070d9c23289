"""Camera noise: Gazebo's per-pixel Gaussian image noise (:class:`ImageNoise`) and
depth-image noise in metres (:class:`DepthNoise`)."""

from fastnoise.models.camera.depth import DepthNoise
from fastnoise.models.camera.image_noise import ImageNoise

__all__ = ["DepthNoise", "ImageNoise"]
