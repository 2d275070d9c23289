"""Old spellings that still work for one release, each with a DeprecationWarning that
names the new one (the renames are listed in the CHANGELOG)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any


def positional_options(
    where: str,
    args: Sequence[Any],
    names: Sequence[str],
    values: Sequence[Any],
    defaults: Sequence[Any],
    *,
    stacklevel: int = 2,
) -> tuple[Any, ...]:
    """Merge options a 0.2 caller passed by position (``args``, in ``names`` order)
    with the keyword values ``values`` (whose defaults are ``defaults``): returns the
    values in ``names`` order, after a DeprecationWarning that names the keywords to
    write. TypeError for more positions than options, or for an option given both by
    position and by keyword. ``stacklevel`` 2 points the warning at the user's line
    when the caller is compiled (a Cython method has no Python frame); a Python
    function calling this passes 3. Python's default filters show a DeprecationWarning
    only where it points into ``__main__``, so the level must be right."""
    if len(args) > len(names):
        raise TypeError(
            f"{where} takes at most {len(names)} options by position (deprecated): got "
            f"{len(args)}; pass {', '.join(names)} by keyword"
        )
    merged = list(values)
    for i, value in enumerate(args):
        if values[i] is not defaults[i] and values[i] != defaults[i]:
            raise TypeError(f"{where} got {names[i]} both by position and by keyword")
        merged[i] = value
    given = ", ".join(f"{n}=..." for n in names[: len(args)])
    warnings.warn(
        f"{where}: options by position are deprecated: write {given}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
    return tuple(merged)


def renamed_attributes(module: str, renames: dict[str, tuple[str, Any]]) -> Any:
    """A module ``__getattr__`` for names a release renamed: ``renames`` maps an old name
    to (its new spelling, the object). The old name returns the object after a
    DeprecationWarning naming the new spelling; any other name is an AttributeError."""

    def __getattr__(name: str) -> Any:
        if name in renames:
            new, obj = renames[name]
            warnings.warn(
                f"{module}.{name} is deprecated: use {new}", DeprecationWarning, stacklevel=2
            )
            return obj
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


def _renamed(where: str, old: str, new: str, both: bool, stacklevel: int) -> None:
    """The one refusal (``both``: the old and the new spelling given together) or
    warning of a renamed key or keyword; ``stacklevel`` counts from here."""
    if both:
        raise TypeError(f"{where} got both {old!r} (deprecated) and {new!r}: give {new!r} only")
    warnings.warn(
        f"{where}: {old!r} is deprecated: use {new!r}", DeprecationWarning, stacklevel=stacklevel
    )


def renamed_keys(
    where: str, items: dict[str, Any], renames: dict[str, str], *, stacklevel: int = 3
) -> dict[str, Any]:
    """``items`` (keywords, a dict of fields, a state's params) with every old key of
    ``renames`` (old -> new) spelled the new way, after a DeprecationWarning naming the
    new spelling. An old key given together with its new one is a TypeError naming
    both. ``items`` itself is left as it was; order is kept."""
    if not any(old in items for old in renames):
        return items
    out: dict[str, Any] = {}
    for key, value in items.items():
        new = renames.get(key)
        if new is None:
            out[key] = value
            continue
        _renamed(where, key, new, new in items, stacklevel + 1)
        out[new] = value
    return out


def renamed_keywords(
    where: str,
    given: dict[str, Any],
    renames: dict[str, str],
    current: dict[str, Any],
    *,
    stacklevel: int = 2,
) -> tuple[Any, ...]:
    """The values of keywords a release renamed, for a call that takes their old
    spellings as ``**given``: ``renames`` maps old -> new, ``current`` maps each new
    keyword to its value as passed (None: not given). Returns the values in
    ``current``'s order, each old spelling's value in its new keyword's place, after
    a DeprecationWarning naming the new spelling. An old spelling given together
    with its new one is a TypeError naming both; any other keyword is the TypeError
    Python gives for an unexpected keyword. ``stacklevel`` 2 names the caller of a
    compiled (Cython) method, which has no frame of its own; a Python caller passes 3."""
    values = dict(current)
    for key, value in given.items():
        new = renames.get(key)
        if new is None:
            raise TypeError(f"{where}() got an unexpected keyword argument {key!r}")
        _renamed(where, key, new, values[new] is not None, stacklevel + 1)
        values[new] = value
    return tuple(values.values())
