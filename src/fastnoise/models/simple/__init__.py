"""Isaac Lab's noise vocabulary (``isaaclab.utils.noise``) as keyed, batched models:
:class:`GaussianNoise`, :class:`UniformNoise`, :class:`ConstantNoise` (one term with
the operation ``add``, ``scale`` or ``abs``) and :class:`AdditiveBiasNoise` (a term
plus a bias redrawn per environment at reset). docs/isaac-lab.rst maps each Isaac Lab
configuration to them."""

from fastnoise.models.simple.simple_noise import (
    AdditiveBiasNoise,
    ConstantNoise,
    GaussianNoise,
    UniformNoise,
)

__all__ = ["AdditiveBiasNoise", "ConstantNoise", "GaussianNoise", "UniformNoise"]
