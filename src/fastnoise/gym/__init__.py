"""Gymnasium wrappers: :class:`ObservationNoise` and :class:`VectorObservationNoise`
noise slices of observations with fastnoise models, seeded as Gymnasium seeds. Needs
the ``sim`` extra (``pip install fastnoise[sim]``); docs/gym.rst describes them."""

from fastnoise.gym.wrappers import ObservationNoise, VectorObservationNoise

__all__ = ["ObservationNoise", "VectorObservationNoise"]
