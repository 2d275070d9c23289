"""``fastnoise sdf FILE``: every sensor of an SDFormat model or world file that has a
``<noise>`` element: its type, scoped name, topic and noise (the fastnoise models
:func:`fastnoise.io.sdf.load_sensors` builds, or why Gazebo adds none); includes not
found and what sdformat would ignore are listed after them."""

from __future__ import annotations

import argparse
import dataclasses
import json

import numpy as np

from fastnoise.cli import Command
from fastnoise.io.sdf import load_sensors


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="an .sdf model or world file")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument(
        "-I",
        "--search-path",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder model:// includes are looked up in (repeatable)",
    )
    p.add_argument(
        "--env",
        action="store_true",
        help="also search the folders of GZ_SIM_RESOURCE_PATH",
    )


def _plain(value: object) -> object:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return value


def run(args: argparse.Namespace) -> int:
    found = load_sensors(args.file, search_path=args.search_path, seed=0, use_environment=args.env)
    rows = []
    for s in found.values():
        row: dict[str, object] = {
            "name": s.name,
            "type": s.type,
            "sdf_type": s.sdf_type,
            "topic": s.topic,
            "line": s.line,
            "source": s.source,
            "noisy": s.noisy,
            "models": {
                k: {"model": type(m).__name__, "params": _plain(_params(m))}
                for k, m in s.models.items()
            },
            "params": _plain(s.params),
            "reason": s.reason,
        }
        rows.append(row)
    if args.json:
        doc = {"sensors": rows, "unresolved": list(found.unresolved), "notes": list(found.notes)}
        print(json.dumps(doc, indent=2))
        return 0
    if not rows:
        print(f"{args.file}: no sensor with a <noise> element")
    for row in rows:
        topic = row["topic"] or "(no <topic>)"
        print(f"{row['name']}  [{row['type']}]  topic {topic}")
        for key, m in row["models"].items():  # type: ignore[attr-defined]
            print(f"  {key}: {m['model']} {json.dumps(_compact(m['params']))}")
        if row["reason"]:
            print(f"  note: {row['reason']}")
    for u in found.unresolved:
        print(f"unresolved include: {u}")
    for n in found.notes:
        print(f"note: {n}")
    return 0


def _compact(value: object) -> object:
    """``value`` without the entries that add nothing (zeros, None, False, inf), for
    the text listing; an all-default mapping stays as ``{}``."""

    def empty(v: object) -> bool:
        if isinstance(v, dict):
            return all(empty(x) for x in v.values())
        if isinstance(v, list):
            return all(empty(x) for x in v)
        return v in (None, False, 0, 0.0, "inf")

    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items() if not empty(v)}
    return value


def _params(model: object) -> object:
    state = getattr(model, "state", None)
    if isinstance(state, dict):
        return state["params"]
    return {k: v for k, v in vars(model).items() if k in ("mean", "stddev")}


COMMAND = Command(
    name="sdf",
    help="list every sensor of an SDF file with its type, scoped name and noise",
    add_arguments=add_arguments,
    run=run,
)
