"""Every public method of every public class has a signature ``inspect.signature``
can read: help(), IDEs and the API docs (autodoc) rely on it. A method made a method
descriptor (Cython ``binding=False``, for per-sample speed) has its signature read from
its text, where a default that is a name rather than a literal cannot be evaluated
(``GaussianNoiseGenerator.normal``'s ``scale=_SCALE_DEFAULT`` failed so, and failed the
docs build)."""

from __future__ import annotations

import inspect

import pytest

import fastnoise

pytestmark = pytest.mark.python_only


def _public_methods():
    for name in fastnoise.__all__:
        cls = getattr(fastnoise, name)
        if not inspect.isclass(cls):
            continue
        for attr in dir(cls):
            if attr.startswith("_"):
                continue
            value = getattr(cls, attr)
            if inspect.isroutine(value) or inspect.ismethoddescriptor(value):
                yield f"{name}.{attr}", value


METHODS = dict(_public_methods())


def test_there_are_methods_to_check():
    # the per-sample calls that are method descriptors are among them
    for name in (
        "GaussianNoiseGenerator.generate",
        "GaussianNoiseGenerator.normal",
        "GaussianNoiseGenerator.standard_normal",
        "ImuNoise.step",
        "DvlSimulator.measure",
        "SensorSimulator.read_angular_velocity",
    ):
        assert name in METHODS


@pytest.mark.parametrize("name", sorted(METHODS))
def test_signature_is_readable(name):
    sig = inspect.signature(METHODS[name])
    assert isinstance(sig, inspect.Signature)
