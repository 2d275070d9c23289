"""The model contract (fastnoise.testing), run over every model of the registry: state
round trips, copies and pickles that continue bit for bit, reset, tampered states
refused by name without a change or a crash, objects that are never half-built.

The models come from fastnoise.core.registry, built-ins and plugins alike, each with
its declaration's example and exercise: there is no list of cases here. The registry is
checked against fastnoise.__all__ and against the subclasses of Model, so a new model
cannot skip it; a model defined only in a test module (tests/toy_model.py) is checked
once registered, without an edit here.
"""

from __future__ import annotations

import unittest

import numpy as np
import pytest
from toy_model import ToyNoise

import fastnoise as fn
from fastnoise.core import registry
from fastnoise.core.model import Model
from fastnoise.testing import (
    ROUND_TRIPS,
    check_model,
    declaration_of,
    model_checks,
    parametrize_with_checks,
)

#: The registry's completeness and the checks' own behaviour (on toy models written in
#: Python) run once, in the plain run of CI; its scalar-path and sanitizer runs, which
#: are there for the C code, run only the contract over the registry.
python_only = pytest.mark.python_only

# Public classes that are parameters, records or warnings, not models.
NON_MODELS = {"TriadNoise", "DvlSensorNoise"}


def _builtins():
    """``{name: class}`` of the registered classes that fastnoise itself defines."""
    return {
        d.name: d.cls
        for d in registry.models()
        if d.cls is not None and d.cls.__module__.startswith("fastnoise.")
    }


# ---- the contract, over the registry -------------------------------------------------------


@parametrize_with_checks(registry.models())
def test_contract(check):
    check()


# ---- the registry is complete -------------------------------------------------------


@python_only
def test_every_public_model_is_registered_and_every_registered_model_is_public():
    public = {n: getattr(fn, n) for n in fn.__all__ if isinstance(getattr(fn, n), type)}
    models = {n: c for n, c in public.items() if issubclass(c, Model)}
    assert set(public) - set(models) == NON_MODELS, "a public class is neither model nor data"
    assert sorted(c.__name__ for c in _builtins().values()) == sorted(models)


@python_only
def test_every_subclass_of_model_is_registered():
    def walk(c):
        for s in c.__subclasses__():
            yield s
            yield from walk(s)

    # fastnoise's own subclasses (tests and plugins may subclass Model without
    # registering, as the mutants below do)
    subclasses = {c for c in walk(Model) if c.__module__.startswith("fastnoise.")}
    # a private shared base (the Gazebo sensors' _GazeboSensor) is not a model: it has
    # no model_name, so it can be neither registered nor restored from a state
    bases = {c for c in subclasses if c.__name__.startswith("_")}
    assert all(c.model_name is None for c in bases)
    assert subclasses - bases <= set(_builtins().values())
    assert bases == {
        fn.models.gazebo.sensors._GazeboSensor,
        fn.core.model._FrameCounter,
        fn.models.simple.simple_noise._TermNoise,
    }


@python_only
def test_every_declaration_with_a_class_has_checks_and_one_without_has_none():
    for decl in registry.models():
        names = [n for n, _ in model_checks(decl)]
        if decl.cls is None:
            assert names == [], decl.name
            continue
        assert {f"check_round_trip[{how}]" for how in ROUND_TRIPS} <= set(names)
        assert "check_tampered_states_refused" in names
        assert len(names) == len(set(names))


# ---- a model defined only in a test module ---------------------------------------------


@pytest.fixture
def toy():
    """ToyNoise registered for the test (left registered if someone else did it)."""
    was = "toy" in registry.names()
    registry.register(ToyNoise)
    yield ToyNoise
    if not was:
        registry.unregister("toy")


@python_only
def test_a_model_defined_only_in_a_test_module_passes_the_contract(toy):
    assert "toy" in registry.names()
    check_model(toy)
    check_model(registry.get("toy"))
    # and the contract suite's parametrization picks it up from the registry
    mark = parametrize_with_checks(registry.models())
    ids = {p.id for p in mark.args[1]}
    assert {f"toy-check_round_trip[{how}]" for how in ROUND_TRIPS} <= ids


# ---- the checks can fail -------------------------------------------------------------------


class _ForgetfulToy(ToyNoise):
    """Its state leaves out ``offset``: a rebuilt copy continues with other bits."""

    def _params(self):
        return {"stddev": self.stddev}


class _StuckToy(ToyNoise):
    """Counts its frames, but ``reset()`` does not rewind the count."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.frame = 0

    def apply(self, values, **kwargs):
        self.frame += 1
        return super().apply(values, frame=self.frame)

    def _position(self):
        return {"frame": self.frame}

    def _set_position(self, position):
        self.frame = position["frame"]


def _stuck_exercise(m):
    return m.apply(np.linspace(0.0, 1.0, 5))


@python_only
def test_a_model_whose_state_forgets_a_parameter_fails():
    with pytest.raises(AssertionError, match="check_params_declared"):
        check_model(_ForgetfulToy)
    checks = dict(model_checks(_ForgetfulToy))
    for how in ("from_state", "json", "pickle", "copy", "state_setter"):
        with pytest.raises(AssertionError, match="continues with other bits"):
            checks[f"check_round_trip[{how}]"]()


@python_only
def test_a_model_whose_reset_does_not_rewind_fails():
    from dataclasses import replace

    decl = replace(declaration_of(_StuckToy), exercise=_stuck_exercise)
    checks = dict(model_checks(decl))
    checks["check_round_trip[pickle]"]()  # the copies are right
    with pytest.raises(AssertionError, match="rewind"):
        checks["check_reset"]()
    with pytest.raises(AssertionError, match="model 'toy' fails check_reset"):
        check_model(decl)


@python_only
def test_a_check_that_does_not_apply_is_a_skip():
    from dataclasses import replace

    decl = replace(declaration_of(ToyNoise), params=())
    checks = dict(model_checks(decl))
    with pytest.raises(unittest.SkipTest, match="lists no params"):
        checks["check_params_declared"]()
    check_model(decl)  # passed over


@python_only
def test_a_declaration_without_a_class_has_no_checks():
    decls = [d for d in registry.models() if d.cls is None]
    assert decls, "the registry has a declaration without a class (the covariance table)"
    for decl in decls:
        assert list(model_checks(decl)) == []
        check_model(decl)  # nothing to run, nothing fails


@python_only
def test_check_model_refuses_what_is_no_model():
    with pytest.raises(TypeError, match="Model"):
        check_model(dict)
