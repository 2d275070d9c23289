"""The model registry: every model's :class:`~fastnoise.core.spec.Declaration`, by name.

Built-in models register when their module is imported (``import fastnoise`` imports
them all); third-party models join through the entry-point group ``fastnoise.models``::

    [project.entry-points."fastnoise.models"]
    my_sensor = "my_pkg.my_module:MySensorNoise"

The entry point names a subclass of :class:`fastnoise.core.model.Model` that declares
itself as the built-ins do (a ``declaration`` class attribute). Plugins are loaded the
first time the registry is read (:func:`models`, :func:`get`, ...); one that fails to
load is skipped with a :class:`PluginWarning` naming the entry point, and the built-in
models still load (the pattern of Gymnasium's ``gymnasium.envs`` entry points).

Everything that enumerates models reads this registry: a model is added by one new
module (its class and declaration) plus its tests.
"""

from __future__ import annotations

import warnings
from importlib.metadata import entry_points
from typing import Any

from fastnoise.core.spec import Declaration

__all__ = [
    "ENTRY_POINT_GROUP",
    "PluginWarning",
    "for_file_kind",
    "for_message",
    "for_sdf_type",
    "get",
    "message_types",
    "models",
    "names",
    "register",
    "unregister",
]

#: The entry-point group third-party models register in.
ENTRY_POINT_GROUP = "fastnoise.models"

_DECLS: dict[str, Declaration] = {}
_ALIASES: dict[str, str] = {}
_plugins_loaded = False


class PluginWarning(RuntimeWarning):
    """A ``fastnoise.models`` entry point could not be loaded or registered."""


def register(cls: Any) -> Any:
    """Register a model class by its ``declaration`` (usable as a class decorator), or
    a bare :class:`Declaration` whose ``build`` makes what it applies (a model that is
    no class of its own, such as the odometry covariance table); returns ``cls``. The
    declaration's name must be new, and so must its aliases."""
    decl: Any
    if isinstance(cls, Declaration):
        decl, cls = cls, None
    else:
        decl = getattr(cls, "declaration", None)
    if not isinstance(decl, Declaration):
        raise TypeError(
            f"cls={cls!r} is not allowed: a model class must carry a "
            "fastnoise.core.spec.Declaration as its `declaration` attribute"
        )
    name = decl.name
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"declaration name={name!r} is not allowed: use a Python identifier")
    if cls is None and decl.build is None:
        raise ValueError(f"declaration {name!r} has no class: it needs a build function")
    model_name = getattr(cls, "model_name", name)
    if cls is not None and model_name != name:
        raise ValueError(
            f"{cls.__name__}.model_name={model_name!r} differs from its declaration's "
            f"name {name!r}: they must be the same"
        )
    known = _DECLS.get(name)
    if known is not None and (cls is None or known.cls is not cls):
        raise ValueError(f"model name {name!r} is already registered by {known.cls!r}")
    for alias in decl.aliases:
        if alias in _DECLS or _ALIASES.get(alias, name) != name:
            raise ValueError(f"alias {alias!r} of {name!r} is already a registered name")
    object.__setattr__(decl, "cls", cls)  # the declaration is frozen for everyone else
    _DECLS[name] = decl
    for alias in decl.aliases:
        _ALIASES[alias] = name
    return cls


def unregister(name: str) -> None:
    """Remove a registered model and its aliases (for tests of throw-away models)."""
    decl = _DECLS.pop(name)
    for alias in decl.aliases:
        _ALIASES.pop(alias, None)


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            cls = ep.load()
            if getattr(getattr(cls, "declaration", None), "name", None) in _DECLS:
                if _DECLS[cls.declaration.name].cls is cls:
                    continue  # already registered by its own module's import
            register(cls)
        except Exception as exc:  # a broken plugin must not break fastnoise
            warnings.warn(
                f"fastnoise model plugin {ep.name!r} (entry point {ep.value!r} in group "
                f"{ENTRY_POINT_GROUP!r}) was not loaded: {type(exc).__name__}: {exc}",
                PluginWarning,
                stacklevel=2,
            )


def resolve(name: str) -> str:
    """The registered name of ``name``: itself, or the model an old alias now names
    (with a DeprecationWarning naming the new spelling)."""
    _load_plugins()
    if name in _DECLS:
        return name
    new = _ALIASES.get(name)
    if new is None:
        raise ValueError(f"model={name!r} is not allowed: use one of {names()}")
    warnings.warn(
        f"the model name {name!r} is deprecated: use {new!r}", DeprecationWarning, stacklevel=3
    )
    return new


def get(name: str) -> Declaration:
    """The declaration of model ``name`` (an old alias warns and still works);
    ValueError naming the registered models for an unknown name."""
    if not isinstance(name, str):
        raise TypeError(f"model={name!r} is not allowed: give a model name (str)")
    return _DECLS[resolve(name)]


def models() -> tuple[Declaration, ...]:
    """Every registered declaration, built-ins and plugins, in registration order."""
    _load_plugins()
    return tuple(_DECLS.values())


def names() -> list[str]:
    """The registered model names, sorted."""
    _load_plugins()
    return sorted(_DECLS)


def for_message(msgtype: str) -> tuple[Declaration, ...]:
    """The models that noise ROS messages of type ``msgtype`` (``"pkg/Name"``)."""
    return tuple(d for d in models() if msgtype in d.messages)


def message_types() -> list[str]:
    """Every ROS message type some registered model noises, sorted."""
    return sorted({t for d in models() for t in d.messages})


def for_file_kind(kind: str) -> tuple[Declaration, ...]:
    """The models that noise files of kind ``kind`` (``image``, ``cloud``, ...)."""
    return tuple(d for d in models() if kind in d.files)


def for_sdf_type(sdf_type: str) -> tuple[Declaration, ...]:
    """The models that apply an SDF sensor type's noise to a recorded topic."""
    return tuple(d for d in models() if sdf_type in d.sdf_types)
