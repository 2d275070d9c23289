"""Every registered model's parameter specs (``declaration.params``) agree with its
constructor, so the specs can drive the state, the docs' tables and validation.

The cases are generated from the registry: a new model, or a plugin's, is checked
without an edit here. For each model:

* the state's ``params`` are exactly the declared parameters (a declared field cannot
  be missing from the state, nor a state field undeclared);
* the declared names, order, defaults and keyword-only-ness are the constructor's
  signature, and each default is what the constructor uses when it is left out;
* a value just outside a declared bound, a non-finite real, a bool for a number and a
  wrong choice are refused by the constructor with the spec's own error, word for word
  (constructors validate through ``declaration.check_params``: one error format); a
  value at a closed bound (or just inside an open one) is accepted.

Then :meth:`Param.check` itself: its error texts, exactly.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
from typing import Any

import numpy as np
import pytest

import fastnoise  # noqa: F401  (registers the built-in models)
from fastnoise.core import registry
from fastnoise.core.spec import ENV_PARAMS, Param
from fastnoise.models.gazebo.declarations import GAZEBO_NOISE_PARAMS
from fastnoise.models.gazebo.noise import PARAM_KEYS
from fastnoise.models.imu.triad import TriadNoise
from fastnoise.models.imu.triad_fields import TRIAD_PARAMS

DECLS = [d for d in registry.models() if d.cls is not None and d.example is not None]

#: Python only (specs, signatures, messages, tables): these run once, in the plain run;
#: CI's scalar-path and sanitizer runs, which are there for the C code, leave them out
#: (-m "not python_only"). They keep the C-side one: every model built at the edges its
#: specs allow.
python_only = pytest.mark.python_only


def _ids(decl: Any) -> str:
    return decl.name


def _build(decl: Any, **kw: Any) -> Any:
    if getattr(decl.cls, "stochastic", True):
        kw.setdefault("seed", 0)
    return decl.cls(**kw)


_REQUIRED: dict[int, dict[str, Any]] = {}


def _required(decl: Any) -> dict[str, Any]:
    """Values of the required parameters, taken from the declaration's example (from its
    state, or from the model itself for what the state leaves out); made once."""
    if id(decl) not in _REQUIRED:
        example = decl.example(decl.cls)
        params = example.state["params"]
        _REQUIRED[id(decl)] = {
            p.name: params[p.name] if p.in_state else getattr(example, p.name)
            for p in decl.params
            if p.required
        }
    return dict(_REQUIRED[id(decl)])


def _plain(value: Any) -> Any:
    """Tuples and arrays as lists, so that a default compares with a state's value."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def _normal(p: Param, value: Any) -> Any:
    """``value`` as the state stores it: a vector3 as 3 floats, a matrix3 as 3x3."""
    if p.kind in ("vector3", "matrix3") and value is not None:
        return p.check(value).tolist()
    return _plain(value)


# ---- the state and the signature ---------------------------------------------------------


@python_only
@pytest.mark.parametrize("decl", DECLS, ids=_ids)
def test_state_params_are_the_declared_params(decl: Any) -> None:
    state = decl.example(decl.cls).state["params"]
    declared = [p.name for p in decl.params if p.in_state]
    assert len(declared) == len(set(declared)), f"{decl.name} declares a name twice"
    assert set(state) == set(declared), (
        f"{decl.name}: state only {sorted(set(state) - set(declared))}, "
        f"declared only {sorted(set(declared) - set(state))}"
    )


@python_only
@pytest.mark.parametrize("decl", DECLS, ids=_ids)
def test_declared_params_are_the_constructor_signature(decl: Any) -> None:
    try:
        sig = inspect.signature(decl.cls)
    except (TypeError, ValueError):
        pytest.skip(f"{decl.cls.__name__} has no readable signature")
    skip = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    params = [q for q in sig.parameters.values() if q.name != "seed" and q.kind not in skip]
    assert [q.name for q in params] == [p.name for p in decl.params]
    for q, p in zip(params, decl.params, strict=True):
        assert (q.default is q.empty) == p.required, p.name
        if not p.required:
            assert _plain(q.default) == _plain(p.default), p.name
        assert (q.kind is inspect.Parameter.KEYWORD_ONLY) == p.keyword_only, p.name


@python_only
@pytest.mark.parametrize("decl", DECLS, ids=_ids)
def test_declared_defaults_are_what_the_constructor_uses(decl: Any) -> None:
    base = _required(decl)
    left_out = _build(decl, **base).state
    for p in decl.params:
        if p.required:
            continue
        given = _build(decl, **base, **{p.name: p.default}).state
        assert given == left_out, f"{decl.name}: {p.name}={p.default!r} is not its default"
        if p.in_state and p.default is not None:  # (None: a default derived from others)
            assert _normal(p, left_out["params"][p.name]) == _normal(p, p.default), p.name


@python_only
def test_triad_params_are_triadnoise_fields() -> None:
    fields = dataclasses.fields(TriadNoise)
    assert [f.name for f in fields] == [p.name for p in TRIAD_PARAMS]
    for f, p in zip(fields, TRIAD_PARAMS, strict=True):
        assert _plain(f.default) == _plain(p.default), p.name
        assert TriadNoise(**{p.name: p.default}) == TriadNoise(), p.name
    imu = registry.get("imu")
    assert imu.param("gyro").fields == imu.param("accel").fields == TRIAD_PARAMS


@python_only
def test_component_fields_are_gazebo_noise_params() -> None:
    assert [p.name for p in GAZEBO_NOISE_PARAMS] == list(PARAM_KEYS)
    # and num_envs/env, the batch parameters (docs/batching.rst)
    assert registry.get("gazebo_noise").params == GAZEBO_NOISE_PARAMS + ENV_PARAMS
    components = [p for d in registry.models() for p in d.params if p.kind == "component"]
    assert components, "no model declares a Gazebo component"
    for p in components:
        assert p.fields == GAZEBO_NOISE_PARAMS, p.name


# ---- refusals and acceptances derived from the specs -------------------------------------


#: An int beyond the doubles (float() of it overflows).
_HUGE = 10**400


def _below(p: Param) -> Any:
    assert p.low is not None
    if p.low_open:
        return p.low
    return p.low - 1 if p.kind == "int" else math.nextafter(p.low, -math.inf)


def _above(p: Param) -> Any:
    assert p.high is not None
    if p.high_open:
        return p.high
    return p.high + 1 if p.kind == "int" else math.nextafter(p.high, math.inf)


def _outside(p: Param) -> list[Any]:
    """Values the spec refuses: just outside each bound, non-finite reals, a bool for a
    number, a wrong choice."""
    out: list[Any] = []
    if p.low is not None:
        out.append(_below(p))
    if p.high is not None:
        out.append(_above(p))
    if p.kind in ("real", "vector3", "matrix3"):
        out += [math.nan, math.inf, -math.inf, _HUGE, "1.0"]
    if p.kind in ("real", "int", "vector3", "matrix3"):
        out.append(True)
    if p.kind == "int":
        out.append(1.0)
    if p.kind == "bool":
        out += [1, "yes"]
    if p.kind == "choice":
        out += ["no such choice", 1]
    if p.kind in ("real", "int", "bool", "choice", "vector3", "matrix3"):
        if p.default is not None and None not in p.choices:
            out.append(None)
    return [v for v in out if not any(v is a or v == a for a in p.also)]


def _inside(p: Param) -> list[Any]:
    """Values the spec allows at its edges (none for a parameter with a rule across
    parameters, which the edge may break)."""
    if p.rule:
        return []
    out: list[Any] = list(p.also)
    if p.low is not None:
        if not p.low_open:
            out.append(p.low)
        else:
            out.append(p.low + 1 if p.kind == "int" else math.nextafter(p.low, math.inf))
    if p.high is not None:
        if not p.high_open:
            out.append(p.high)
        else:
            out.append(p.high - 1 if p.kind == "int" else math.nextafter(p.high, -math.inf))
    return out


def _as_given(p: Param, v: Any) -> Any:
    """A value of ``p``'s kind holding ``v``: a matrix3 off the diagonal (its diagonal
    may have a rule of its own)."""
    if p.kind == "matrix3":
        return [[0.0, v, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    return v


def _label(v: Any) -> str:
    return "10**400" if v is _HUGE else repr(v)


def _cases(values: Any) -> list[Any]:
    """(decl, top parameter, sub-parameter or None, value) for every value ``values``
    gives a parameter of a model, or an entry of a component or triad parameter."""
    cases = []
    for d in DECLS:
        components = [p for p in d.params if p.kind == "component"]
        for p in d.params:
            for v in values(p):
                label = f"{d.name}-{p.name}-{_label(v)}"
                cases.append(pytest.param(d, p, None, v, id=label))
            # a triad's entries; a component's, of the model's first one (the others go
            # through the same check: test_a_component_refuses_... covers each)
            if p.kind == "triad" or (p.kind == "component" and p is components[0]):
                for f in p.fields:
                    for v in values(f):
                        label = f"{d.name}-{p.name}.{f.name}-{_label(v)}"
                        cases.append(pytest.param(d, p, f, v, id=label))
    return cases


def _kwargs(decl: Any, p: Param, f: Param | None, v: Any) -> dict[str, Any]:
    value = _as_given(p if f is None else f, v)
    return {**_required(decl), p.name: value if f is None else {f.name: value}}


@python_only
@pytest.mark.parametrize(("decl", "p", "f", "value"), _cases(_outside))
def test_the_constructor_refuses_what_the_spec_refuses(
    decl: Any, p: Param, f: Param | None, value: Any
) -> None:
    spec = p if f is None else f
    if f is not None and p.kind == "component":  # as the constructor names the entry
        spec = dataclasses.replace(f, name=f"{p.name}[{f.name!r}]")
    with pytest.raises((TypeError, ValueError)) as by_spec:
        spec.check(_as_given(spec, value))
    with pytest.raises((TypeError, ValueError)) as err:
        _build(decl, **_kwargs(decl, p, f, value))
    message = str(err.value)
    # the one error format: the constructor's refusal is the spec's, word for word
    assert (type(err.value), message) == (type(by_spec.value), str(by_spec.value))
    shown = "" if value is _HUGE else repr(value)  # (a 401-digit number may be cut short)
    assert spec.name in message and shown in message, (
        f"{decl.name}: the error does not name {spec.name} and {value!r}: {message}"
    )
    if f is not None and p.kind == "component":
        assert f"{p.name}['{f.name}']" in message, message


@pytest.mark.parametrize(("decl", "p", "f", "value"), _cases(_inside))
def test_the_constructor_accepts_what_the_spec_allows(
    decl: Any, p: Param, f: Param | None, value: Any
) -> None:
    spec = p if f is None else f
    spec.check(_as_given(spec, value))
    _build(decl, **_kwargs(decl, p, f, value))


@python_only
@pytest.mark.parametrize(
    ("decl", "p"),
    [
        pytest.param(d, p, id=f"{d.name}-{p.name}")
        for d in DECLS
        for p in d.params
        if p.kind == "component"
    ],
)
def test_a_component_refuses_unknown_keys_and_non_mappings(decl: Any, p: Param) -> None:
    with pytest.raises(ValueError, match="nope") as err:
        _build(decl, **{**_required(decl), p.name: {"nope": 1.0}})
    assert p.name in str(err.value)
    with pytest.raises(ValueError, match="nope"):
        p.check({"nope": 1.0})
    with pytest.raises(TypeError, match=rf"^{p.name}=1\.5 is not allowed"):
        _build(decl, **{**_required(decl), p.name: 1.5})
    with pytest.raises(TypeError, match=rf"^{p.name}=1\.5 is not allowed"):
        p.check(1.5)


# ---- the docs' tables --------------------------------------------------------------------


@python_only
@pytest.mark.parametrize("decl", [d for d in registry.models() if d.params], ids=_ids)
def test_params_table_is_valid_restructuredtext(decl: Any) -> None:
    core = pytest.importorskip("docutils.core")
    nodes = pytest.importorskip("docutils.nodes")
    text = decl.params_table()
    assert text.count("\n   * - ``") == len(decl.params)
    # halt_level 2: a docutils warning (an unclosed emphasis, a bad table) raises
    tree = core.publish_doctree(text, settings_overrides={"report_level": 5, "halt_level": 2})
    rows = list(tree.findall(nodes.row))
    assert len(rows) == len(decl.params) + 1
    assert all(len(r.children) == 6 for r in rows)


# ---- Param.check: its error texts --------------------------------------------------------

_STDDEV = Param("stddev", "real", "d", unit="m", default=0.0, low=0.0, high=1e30)
_NEAR = Param("near", "real", "d", unit="m", default=None, low=-1e30, high=1e30, rule="< far")
_STREAM = Param("stream", "int", "d", default=0, low=0, high=2**64, high_open=True)
_VARIANT = Param("variant", "choice", "d", default="gazebo", choices=("gazebo", "ogre2"))
_FLAG = Param("per_channel", "bool", "d", default=False)
_INERTIA = Param("inertia", "vector3", "d", unit="kg m^2", low=0.0, low_open=True, high=1e100)
_FULL = Param("full_scale", "vector3", "d", default=math.inf, low=1e-150, also=(math.inf,))
_X = Param("x", "component", "d", unit="T", default=None, fields=GAZEBO_NOISE_PARAMS)


@python_only
@pytest.mark.parametrize(
    ("p", "value", "error", "text"),
    [
        (
            _STDDEV,
            -1.0,
            ValueError,
            "stddev=-1.0 is not allowed: it must be a real number in [0, 1e30] (m)",
        ),
        (
            _STDDEV,
            math.nan,
            ValueError,
            "stddev=nan is not allowed: it must be a real number in [0, 1e30] (m)",
        ),
        (
            _STDDEV,
            True,
            TypeError,
            "stddev=True is not allowed: it must be a real number in [0, 1e30] (m)",
        ),
        (
            _STDDEV,
            "1",
            TypeError,
            "stddev='1' is not allowed: it must be a real number in [0, 1e30] (m)",
        ),
        (
            _NEAR,
            2e30,
            ValueError,
            "near=2e+30 is not allowed: it must be a real number in "
            "[-1e30, 1e30], < far, or None (m)",
        ),
        (_STREAM, -1, ValueError, "stream=-1 is not allowed: it must be an int in [0, 2**64)"),
        (
            _STREAM,
            2**64,
            ValueError,
            "stream=18446744073709551616 is not allowed: it must be an int in [0, 2**64)",
        ),
        (_STREAM, 1.0, TypeError, "stream=1.0 is not allowed: it must be an int in [0, 2**64)"),
        (
            _VARIANT,
            "ogre",
            ValueError,
            "variant='ogre' is not allowed: it must be one of ['gazebo', 'ogre2']",
        ),
        (_FLAG, 1, TypeError, "per_channel=1 is not allowed: it must be True or False"),
        (
            _INERTIA,
            [1.0, 0.0, 1.0],
            ValueError,
            "inertia=[1.0, 0.0, 1.0] is not allowed: it "
            "must be a scalar or a length-3 vector of real numbers, each in (0, 1e100] (kg m^2)",
        ),
        (
            _INERTIA,
            [1.0, 2.0],
            ValueError,
            "inertia=[1.0, 2.0] is not allowed: it must be a "
            "scalar or a length-3 vector of real numbers, each in (0, 1e100] (kg m^2)",
        ),
        (
            _FULL,
            -math.inf,
            ValueError,
            "full_scale=-inf is not allowed: it must be a scalar or "
            "a length-3 vector of real numbers, each finite and >= 1e-150 or inf",
        ),
        (
            _X,
            {"stddev": -1.0},
            ValueError,
            "x['stddev']=-1.0 is not allowed: it must be a real number in [0, 1e30] (u)",
        ),
        (
            _X,
            {"sigma": 1.0},
            ValueError,
            "x={'sigma': 1.0} is not allowed: it has the unknown "
            "keys ['sigma'] (allowed are ['mean', 'stddev', 'bias_mean', 'bias_stddev', "
            "'dynamic_bias_stddev', 'dynamic_bias_correlation_time', 'precision'])",
        ),
    ],
)
def test_check_error_texts(p: Param, value: Any, error: type, text: str) -> None:
    with pytest.raises(error) as err:
        p.check(value)
    assert str(err.value) == text


@python_only
def test_check_converts() -> None:
    assert _STDDEV.check(1) == 1.0 and type(_STDDEV.check(1)) is float
    assert _NEAR.check(None) is None
    assert _STREAM.check(np.uint64(7)) == 7
    assert _INERTIA.check(2.0).tolist() == [2.0, 2.0, 2.0]
    assert _FULL.check(math.inf).tolist() == [math.inf] * 3
    m = Param("m", "matrix3", "d", default=0.0, low=-1.0, high=1.0)
    assert m.check(0.5).tolist() == (np.eye(3) * 0.5).tolist()
    assert m.check([1.0, 0.0, -1.0]).tolist() == np.diag([1.0, 0.0, -1.0]).tolist()
    assert _X.check(None) is None
    assert _X.check({"stddev": 2}) == {k: (2.0 if k == "stddev" else 0.0) for k in PARAM_KEYS}


@python_only
def test_a_spec_refuses_bounds_on_a_kind_without_them() -> None:
    with pytest.raises(ValueError, match="a bool has no bounds"):
        Param("flag", "bool", "d", low=0.0)
    with pytest.raises(ValueError, match="kind='float' is not allowed"):
        Param("x", "float", "d")


@python_only
def test_the_docs_directive_renders_every_declared_model() -> None:
    """``.. fastnoise-params::`` (docs/_ext) renders the registry's tables, of any
    registered model (a plugin's too), and refuses an unknown name."""
    pytest.importorskip("sphinx")
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "_ext" / "fastnoise_docs.py"
    spec = importlib.util.spec_from_file_location("_fastnoise_docs", path)
    assert spec is not None and spec.loader is not None
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    for d in registry.models():
        if d.params:
            assert ext.params_rst(d.name) == d.params_table()
    assert "``noise_density``" in ext.params_rst("imu.gyro", caption="TriadNoise")
    for bad in ("no_such_model", "imu.no_such_param", "imu.normal_dtype"):
        with pytest.raises(ValueError):
            ext.params_rst(bad)


@python_only
def test_every_built_in_model_has_its_table_on_a_model_page() -> None:
    from pathlib import Path

    pages = Path(__file__).resolve().parent.parent / "docs" / "models"
    text = "\n".join(p.read_text("utf-8") for p in pages.glob("*.rst"))
    built_in = [
        d.name
        for d in registry.models()
        if d.params and d.cls is not None and d.cls.__module__.startswith("fastnoise.")
    ]
    missing = [n for n in built_in if f".. fastnoise-params:: {n}\n" not in text]
    assert missing == []
