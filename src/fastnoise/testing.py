"""The model contract (:mod:`fastnoise.core.model`) as checks any model can be run
through, built-in or third-party, in the manner of scikit-learn's ``check_estimator``
and ``parametrize_with_checks``.

Every check reads the model's :class:`~fastnoise.core.spec.Declaration`: ``example(cls)``
builds a model with every term on and ``exercise(model)`` runs it (advancing it) and
returns an array. A model passes when its state has the shared shape and is plain data,
its seed, key and ``repr`` agree with its state, every way of copying it (``from_state``,
the ``state`` setter, ``copy()``, ``copy.copy``, ``copy.deepcopy``, pickling, a JSON
round trip) continues its output bit for bit, ``reset()`` reproduces the first output,
a tampered state is refused by name and changes nothing, and neither a failed
``__init__`` nor an object made with ``cls.__new__(cls)`` is half-built::

    from fastnoise.testing import check_model

    check_model(MySensorNoise)  # AssertionError naming the check that failed

    from fastnoise.testing import parametrize_with_checks

    @parametrize_with_checks([MySensorNoise])
    def test_contract(check):
        check()

Constructor arguments that are not part of the state (a motion source that a model
reads) come from the model's own ``_state_extras()``. A check that does not apply to
a model raises :class:`unittest.SkipTest`, which pytest reports as a skip and
:func:`check_model` passes over. A declaration without a class (a table that some
message handler applies, built by ``build``) has no checks.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import math
import pickle
import subprocess
import sys
import textwrap
import unittest
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np

from fastnoise.core import registry
from fastnoise.core.model import STATE_KEYS, STATE_VERSION, Model
from fastnoise.core.spec import Declaration

__all__ = [
    "ROUND_TRIPS",
    "check_model",
    "declaration_of",
    "model_checks",
    "parametrize_with_checks",
    "tamper_cases",
]

#: The ways of copying a model whose copy must continue the output bit for bit.
ROUND_TRIPS = ("from_state", "state_setter", "copy", "copy.copy", "deepcopy", "pickle", "json")

#: How many times the round-trip checks run ``exercise`` on both models.
_REPEATS = (0, 1, 2)


def declaration_of(model: Any) -> Declaration:
    """The declaration of a model class (or a declaration itself), with its ``cls`` set
    even when the class is not registered."""
    if isinstance(model, Declaration):
        return model
    if not (isinstance(model, type) and issubclass(model, Model)):
        raise TypeError(
            f"model={model!r} is not allowed: give a subclass of fastnoise.core.model.Model "
            "or a fastnoise.core.spec.Declaration"
        )
    decl = model.declaration
    if not isinstance(decl, Declaration):
        raise TypeError(f"{model.__name__}.declaration is not a fastnoise.core.spec.Declaration")
    return decl if decl.cls is model else replace(decl, cls=model)


# ---- helpers ------------------------------------------------------------------------


def _make(decl: Declaration) -> Any:
    assert decl.example is not None, f"declaration {decl.name!r} has no example"
    return decl.example(decl.cls)


def _other(decl: Declaration, model: Any) -> Any:
    """A model of ``model``'s class in another configuration: its required parameters,
    every other one at its default, another seed (so a state setter that forgot a
    field would show it). The example itself where the defaults cannot be built."""
    params = model.state["params"]
    kw = {p.name: params[p.name] for p in decl.params if p.required and p.in_state}
    kw.update(_extras(model))
    if getattr(type(model), "stochastic", True):
        kw["seed"] = 987654321
    try:
        return type(model)(**kw)
    except (TypeError, ValueError):
        return _make(decl)


def _run(decl: Declaration, model: Any) -> Any:
    assert decl.exercise is not None, f"declaration {decl.name!r} has no exercise"
    return decl.exercise(model)


def _bits(a: Any) -> tuple[str, tuple[int, ...], bytes]:
    arr = np.asarray(a)
    return arr.dtype.str, arr.shape, arr.tobytes()


def _runs(decl: Declaration, model: Any) -> list[tuple[str, tuple[int, ...], bytes]]:
    return [_bits(_run(decl, model)) for _ in _REPEATS]


def _extras(model: Any) -> dict[str, Any]:
    return dict(model._state_extras())


def _plain(state: Any) -> str:
    """``state`` as canonical JSON (tuples and lists alike), to compare states."""
    return json.dumps(state, sort_keys=True)


def _continues(decl: Declaration, a: Any, b: Any, how: str) -> None:
    """``b`` continues ``a``'s output bit for bit (both advance)."""
    shared = [k for k, v in _extras(b).items() if v is _extras(a).get(k)]
    if shared:
        # what both read moves as either runs: continue from equal, separate copies
        b = type(a).from_state(a.state, **copy.deepcopy(_extras(a)))
    assert _runs(decl, a) == _runs(decl, b), f"a model after {how} continues with other bits"


# ---- the checks -----------------------------------------------------------------------


def check_declaration(decl: Declaration) -> None:
    """The declaration names its class's ``model_name`` and gives an example and an
    exercise that returns an array of plain numbers."""
    cls = decl.cls
    assert isinstance(cls, type) and issubclass(cls, Model), f"{cls!r} is not a Model"
    assert cls.model_name == decl.name, (
        f"{cls.__name__}.model_name={cls.model_name!r} differs from the declaration's "
        f"name {decl.name!r}"
    )
    assert callable(decl.example), "the declaration has no example(cls)"
    assert callable(decl.exercise), "the declaration has no exercise(model)"
    m = _make(decl)
    assert type(m) is cls, f"example(cls) returned a {type(m).__name__}, not a {cls.__name__}"
    out = np.asarray(_run(decl, m))
    assert out.dtype != object, "exercise(model) returned an object array (no stable bits)"


def check_state_shape(decl: Declaration) -> None:
    """``state`` is a plain dict of the shared shape (JSON and pickle survive it)."""
    m = _make(decl)
    _run(decl, m)
    s = m.state
    assert tuple(s) == STATE_KEYS, f"state keys {tuple(s)} are not {STATE_KEYS}"
    assert s["model"] == decl.name == type(m).model_name
    assert s["version"] == STATE_VERSION
    assert isinstance(s["params"], dict) and isinstance(s["position"], dict)
    assert (s["seed_seq"] is None) == (not type(m).stochastic)
    assert all(isinstance(k, str) and k != "seed" for k in s["params"])
    assert pickle.loads(pickle.dumps(s)) == s, "the state does not survive pickling"
    try:
        json.dumps(s)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"the state is not JSON data: {exc}") from None


def check_params_declared(decl: Declaration) -> None:
    """``state['params']`` has exactly the parameters the declaration lists as kept in
    the state (not a constructor argument outside it, such as a motion source, which
    ``from_state`` is given again)."""
    if not decl.params:
        raise unittest.SkipTest(f"the declaration of {decl.name!r} lists no params")
    m = _make(decl)
    got = sorted(m.state["params"])
    want = sorted(p.name for p in decl.params if p.in_state)
    assert got == want, f"state['params'] has {got}, the declaration lists {want}"


def check_seed_key_and_repr(decl: Declaration) -> None:
    """A drawing model has a SeedSequence and a 64-bit key that its state rebuilds; a
    model that draws nothing has neither; ``repr`` shows every parameter."""
    m = _make(decl)
    cls = type(m)
    if cls.stochastic:
        assert isinstance(m.seed, np.random.SeedSequence), f"seed is {m.seed!r}"
        key = m.key
        assert isinstance(key, int) and 0 <= key < 2**64, f"key={key!r} is no 64-bit int"
        again = cls.from_state(m.state, **_extras(m))
        assert again.key == key, "the key is not a function of the state"
    else:
        assert m.seed is None, "a model that draws nothing has a seed"
        assert not hasattr(m, "key"), "a model that draws nothing has a key"
    text = repr(m)
    assert text.startswith(cls.__name__ + "("), f"repr {text!r} does not name the class"
    for k in m.state["params"]:
        assert f"{k}=" in text, f"repr {text!r} leaves out {k}"


def check_round_trip(decl: Declaration, how: str) -> None:
    """A copy made ``how`` has the same state and continues the output bit for bit."""
    m = _make(decl)
    _run(decl, m)
    cls = type(m)
    if how == "from_state":
        c = cls.from_state(m.state, **_extras(m))
    elif how == "state_setter":
        c = _other(decl, m)
        _run(decl, c)
        _run(decl, c)
        c.state = m.state
    elif how == "copy":
        c = m.copy()
    elif how == "copy.copy":
        c = copy.copy(m)
    elif how == "deepcopy":
        c = copy.deepcopy(m)
    elif how == "pickle":
        c = pickle.loads(pickle.dumps(m))
    elif how == "json":
        # independent of the state it came from: text, parsed back, rebuilt
        loaded = json.loads(json.dumps(m.state))
        c = cls.from_state(loaded, **_extras(m))
    else:
        raise ValueError(f"how={how!r} is not allowed: use one of {ROUND_TRIPS}")
    assert c is not m, f"{how} returned the model itself"
    assert type(c) is cls, f"{how} returned a {type(c).__name__}"
    if how == "json":  # JSON keeps no tuples: compare as JSON
        assert _plain(c.state) == _plain(m.state), "the state after json differs"
    else:
        assert c.state == m.state, f"the state after {how} differs"
    _continues(decl, m, c, how)


def check_extras_follow_copy_rules(decl: Declaration) -> None:
    """What a model reads but does not own (its ``_state_extras()``) is shared by
    ``copy()`` and ``copy.copy`` and copied by ``copy.deepcopy`` and pickling."""
    m = _make(decl)
    extras = _extras(m)
    if not extras:
        return  # nothing outside the state
    for how, c, shared in (
        ("copy()", m.copy(), True),
        ("copy.copy", copy.copy(m), True),
        ("copy.deepcopy", copy.deepcopy(m), False),
        ("pickle", pickle.loads(pickle.dumps(m)), False),
    ):
        for k, v in _extras(c).items():
            assert (v is extras[k]) == shared, (
                f"{how} {'copies' if shared else 'shares'} {k!r}: it must "
                f"{'share' if shared else 'copy'} it"
            )


def check_reset(decl: Declaration) -> None:
    """``reset()`` rewinds the state and reproduces the first output."""
    m = _make(decl)
    before = m.state
    first = [_bits(_run(decl, m)) for _ in _REPEATS[:2]]
    m.reset()
    after = m.state
    if after["params"] != before["params"]:
        # a reset that also returns some parameters to their defaults, as that model
        # documents: give them back, keeping the rewound position
        m.state = {**after, "params": before["params"]}
    assert m.state == before, "reset() does not rewind the state to construction"
    again = [_bits(_run(decl, m)) for _ in _REPEATS[:2]]
    assert again == first, "after reset() the output differs from the first"


def _leaves(d: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(d, list | tuple):
        if d and all(isinstance(v, list | tuple | dict) for v in d):
            for i, v in enumerate(d):
                yield from _leaves(v, (*path, i))
        elif d:
            yield (*path, 0), d[0]
    else:
        yield path, d


def _set(state: dict[str, Any], where: tuple[Any, ...], value: Any) -> dict[str, Any]:
    t = copy.deepcopy(state)
    d: Any = t
    for k in where[:-1]:
        if isinstance(d[k], tuple):
            d[k] = list(d[k])
        d = d[k]
    d[where[-1]] = value
    return t


def tamper_cases(state: dict[str, Any]) -> Iterator[tuple[str, Any, tuple[str, ...]]]:
    """``(label, tampered state, words)``: ways to spoil ``state``, each with the words
    one of which a refusal must name."""
    yield "not-a-dict", [state], ("state",)
    for k in STATE_KEYS:
        t = dict(state)
        del t[k]
        yield f"missing-{k}", t, (k,)
    yield "extra-key", {**state, "extra": 1}, ("extra",)
    yield "other-model", {**state, "model": "no_such_model"}, ("model",)
    yield "version-2", {**state, "version": STATE_VERSION + 1}, ("version",)
    yield "version-bool", {**state, "version": True}, ("version",)
    yield "params-list", {**state, "params": [1]}, ("params",)
    yield "params-extra", {**state, "params": {**state["params"], "bogus": 1}}, ("bogus",)
    yield "position-list", {**state, "position": [1]}, ("position",)
    yield "position-extra", {**state, "position": {**state["position"], "bogus": 1}}, ("bogus",)
    ss = state["seed_seq"]
    if ss is not None:
        yield "seed-pool", {**state, "seed_seq": {**ss, "pool_size": 10**6}}, ("pool_size",)
        yield "seed-entropy", {**state, "seed_seq": {**ss, "entropy": -1}}, ("entropy",)
        yield "seed-str", {**state, "seed_seq": "x"}, ("seed_seq",)
        yield "seed-spawn", {**state, "seed_seq": {**ss, "spawn_key": 5}}, ("spawn_key",)
    else:
        yield "seed-given", {**state, "seed_seq": {"entropy": 1}}, ("seed_seq",)
    # every leaf of params and position: wrong types and values outside any bounds
    for part in ("params", "position"):
        for path, leaf in _leaves(state[part]):
            where = (part, *path)
            label = "/".join(map(str, where))
            name = (str(path[-1]),)
            if isinstance(leaf, bool):
                yield f"{label}=str", _set(state, where, "yes"), name
            elif isinstance(leaf, int):
                bad: object
                for bad in (-1, 2**64, 1.5, "7", True):
                    if bad == -1 and part == "params":
                        continue  # some integer parameters may be negative
                    yield f"{label}={bad!r}", _set(state, where, bad), name
            elif isinstance(leaf, float):
                for bad in (math.nan, math.inf, "x", None):
                    yield f"{label}={bad!r}", _set(state, where, bad), name
            elif isinstance(leaf, str):
                yield f"{label}=bogus", _set(state, where, "no-such-choice"), name


def check_tampered_states_refused(decl: Declaration) -> None:
    """Each tampered state is refused (TypeError or ValueError naming the field) and
    leaves the model unchanged, or, where the value is still valid, accepted whole."""
    m = _make(decl)
    _run(decl, m)
    before = m.state
    cls = type(m)
    for label, tampered, words in tamper_cases(before):
        try:
            m.state = tampered
        except (TypeError, ValueError) as exc:
            assert any(w in str(exc) for w in words), (
                f"tampered state {label}: the refusal {exc!s} names none of {words}"
            )
            assert m.state == before, f"tampered state {label}: refused but changed the model"
            try:
                cls.from_state(tampered, **_extras(m))
            except (TypeError, ValueError):
                pass
            else:
                raise AssertionError(f"tampered state {label}: from_state accepted it")
        except Exception as exc:
            raise AssertionError(
                f"tampered state {label}: raised {type(exc).__name__}: {exc} (not a "
                "TypeError or ValueError)"
            ) from exc
        else:
            # still valid: accepted whole, as from_state builds it
            assert m.state == cls.from_state(tampered, **_extras(m)).state, (
                f"tampered state {label}: accepted, but not as from_state builds it"
            )
            m.state = before


def check_other_models_states_refused(decl: Declaration) -> None:
    """The state of every other registered model is refused, naming ``model``."""
    m = _make(decl)
    before = m.state
    for other in registry.models():
        if other.name == decl.name or other.cls is None or other.example is None:
            continue
        try:
            o = other.example(other.cls)
        except Exception:
            continue  # another model's example is that model's own check
        try:
            m.state = o.state
        except ValueError as exc:
            assert "model" in str(exc), f"the refusal of a {other.name!r} state: {exc}"
        else:
            raise AssertionError(f"the state of model {other.name!r} was accepted")
        assert m.state == before, f"a refused {other.name!r} state changed the model"


def check_failed_reinit(decl: Declaration) -> None:
    """``__init__`` called again with a bad argument fails and leaves the object as it
    was or safely unusable (TypeError, ValueError or RuntimeError), never half-built."""
    m = _make(decl)
    _run(decl, m)
    before = m.state
    try:
        m.__init__(no_such_parameter=1)
    except (TypeError, ValueError):
        pass
    else:
        raise AssertionError("__init__(no_such_parameter=1) was accepted")
    try:
        after = m.state
    except (TypeError, ValueError, RuntimeError):
        return
    assert after == before, "a failed __init__ changed the model"


_PROBE = textwrap.dedent(
    """
    import importlib, json, sys
    sys.path[:0] = json.loads(sys.argv[1])
    import numpy as np

    args = [None, 0, 1.0, np.zeros(3), np.zeros((4, 3)), np.zeros((2, 2, 3), np.uint8)]
    for i, (module, qualname) in enumerate(json.loads(sys.argv[2])):
        print("start", i, flush=True)
        cls = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
        obj = cls.__new__(cls)
        for attr in dir(cls):
            if attr.startswith("_") and attr not in ("__repr__", "__copy__", "__reduce__"):
                continue
            try:
                value = getattr(obj, attr)
            except Exception:
                continue
            if not callable(value) or isinstance(value, type):
                continue
            for a in args:
                for call in (lambda: value(), lambda: value(a), lambda: value(a, a)):
                    try:
                        call()
                    except Exception:
                        pass
        print("done", i, flush=True)
    """
)

#: Classes whose probe runs in the next child (those of a parametrize_with_checks), so
#: that one child probes them all rather than one child each (a child's start, numpy
#: and fastnoise imported, is most of a probe's time, and more under a sanitizer).
_PROBE_PENDING: list[type] = []
#: Probe results: class -> None (it passed) or what the child said. A class is probed
#: once per process: the child imports it afresh, so a second probe would see the same.
_PROBE_RESULTS: dict[type, str | None] = {}


def _text(out: str | bytes | None) -> str:
    return out.decode(errors="replace") if isinstance(out, bytes) else (out or "")


def _probe(classes: list[type]) -> None:
    """Probe ``classes`` in as few children as it takes: one, unless a class crashes
    its child (or hangs it), which then fails alone and a new child probes the rest."""
    while classes:
        names = json.dumps([[c.__module__, c.__qualname__] for c in classes])
        code: int | str
        try:
            r = subprocess.run(
                [sys.executable, "-u", "-c", _PROBE, json.dumps(sys.path), names],
                capture_output=True,
                text=True,
                timeout=120 + 30 * len(classes),
            )
            code, out, err = r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired as exc:
            code, out, err = "timeout", _text(exc.stdout), _text(exc.stderr)
        done = {int(w[1]) for w in map(str.split, out.splitlines()) if w[:1] == ["done"]}
        started = [int(w[1]) for w in map(str.split, out.splitlines()) if w[:1] == ["start"]]
        for i in sorted(done):
            _PROBE_RESULTS[classes[i]] = None
        if len(done) < len(classes):
            # the class it was probing; or the next, if it died before or between two
            failed = next((i for i in started if i not in done), None)
            if failed is None:
                failed = min(set(range(len(classes))) - done)
        elif code == 0:
            return
        elif len(classes) > 1:  # every class probed, then the child died: one child each
            for c in classes:
                _probe([c])
            return
        else:
            failed = 0
        _PROBE_RESULTS[classes[failed]] = (
            f"the child died ({code}) probing {classes[failed].__qualname__}: "
            f"{out[-500:]} {err[-2000:]}"
        )
        classes = [c for i, c in enumerate(classes) if i not in done and i != failed]


def check_unbuilt_object_is_safe(decl: Declaration) -> None:
    """Every public method of ``cls.__new__(cls)`` either works or raises; none crashes
    the process (run in a child process, so a crash fails this check only). The models
    of one :func:`parametrize_with_checks` share a child (a class that crashes it fails
    alone, and a new child probes the others), and a class is probed once a process."""
    cls = decl.cls
    if "<locals>" in cls.__qualname__:
        raise unittest.SkipTest(f"{cls.__qualname__} cannot be imported by name in a child")
    if cls not in _PROBE_RESULTS:
        batch = [cls] + [c for c in _PROBE_PENDING if c is not cls and c not in _PROBE_RESULTS]
        _PROBE_PENDING.clear()
        _probe(batch)
    failure = _PROBE_RESULTS[cls]
    assert failure is None, failure


def check_constructor_signature(decl: Declaration) -> None:
    """Every parameter in the state is a parameter of the constructor's signature."""
    cls = decl.cls
    sig = inspect.signature(cls)
    for k in _make(decl).state["params"]:
        assert k in sig.parameters, f"{k} is missing from {cls.__name__}{sig}"


# ---- running them ----------------------------------------------------------------------

_CHECKS: tuple[Callable[[Declaration], None], ...] = (
    check_declaration,
    check_state_shape,
    check_params_declared,
    check_seed_key_and_repr,
    check_extras_follow_copy_rules,
    check_reset,
    check_tampered_states_refused,
    check_other_models_states_refused,
    check_failed_reinit,
    check_unbuilt_object_is_safe,
    check_constructor_signature,
)


def model_checks(model: Any) -> Iterator[tuple[str, Callable[[], None]]]:
    """``(check_name, check)`` for every check of ``model`` (a model class or its
    declaration); ``check()`` raises AssertionError when the model fails it and
    :class:`unittest.SkipTest` when it does not apply. A declaration without a class
    yields none."""
    decl = declaration_of(model)
    if decl.cls is None:
        return
    yield "check_declaration", functools.partial(check_declaration, decl)
    for check in _CHECKS[1:4]:
        yield check.__name__, functools.partial(check, decl)
    for how in ROUND_TRIPS:
        yield f"check_round_trip[{how}]", functools.partial(check_round_trip, decl, how)
    for check in _CHECKS[4:]:
        yield check.__name__, functools.partial(check, decl)


def check_model(model: Any) -> None:
    """Run every check of ``model`` (a model class or its declaration); an
    AssertionError names the model and the first check that failed. Checks that do not
    apply are passed over."""
    decl = declaration_of(model)
    for name, check in model_checks(decl):
        try:
            check()
        except unittest.SkipTest:
            continue
        except Exception as exc:
            raise AssertionError(
                f"model {decl.name!r} fails {name}: {type(exc).__name__}: {exc}"
            ) from exc


def parametrize_with_checks(models: Iterable[Any]) -> Any:
    """A ``pytest.mark.parametrize`` of argument ``check`` over every check of every
    model in ``models`` (classes or declarations), with ids ``<name>-<check_name>``; a
    declaration without a class appears once, skipped. Needs pytest."""
    import pytest

    params = []
    for model in models:
        decl = declaration_of(model)
        if decl.cls is None:
            skip = pytest.mark.skip(reason=f"{decl.name!r} has no class: nothing to check")
            params.append(pytest.param(None, id=decl.name, marks=skip))
            continue
        params += [pytest.param(c, id=f"{decl.name}-{n}") for n, c in model_checks(decl)]
        if "<locals>" not in decl.cls.__qualname__ and decl.cls not in _PROBE_PENDING:
            _PROBE_PENDING.append(decl.cls)  # probed in one child with the others
    return pytest.mark.parametrize("check", params)
