"""``fastnoise sdf FILE``: every noisy sensor of an SDFormat model or world file, and
the model fastnoise builds for it (``fastnoise apply --config FILE`` uses them)."""

from __future__ import annotations

import argparse
import json
import sys

from fastnoise.cli import Command


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="an .sdf model or world file")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def _plain(value: object) -> object:
    import numpy as np

    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, float) and value != value:
        return None
    return value


def run(args: argparse.Namespace) -> int:
    from fastnoise.io.suite import _try_from_sdf, sdf_sensors

    try:
        sensors = sdf_sensors(args.file)
    except (OSError, ValueError) as exc:
        print(f"fastnoise sdf: error: {exc}", file=sys.stderr)
        return 1
    rows = []
    for s in sensors:
        row: dict[str, object] = {
            "name": s.name,
            "type": s.type,
            "topic": s.topic,
            "imported": s.importable,
        }
        if s.importable:
            model = _try_from_sdf(args.file, s.name, 0)
            row["model"] = type(model).__name__
            row["params"] = _plain(model.state["params"])
        else:
            row["reason"] = s.reason
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print(f"{args.file}: no sensor with a <noise> element")
        return 0
    for row in rows:
        topic = row["topic"] or "(no <topic>)"
        print(f"{row['name']}  [{row['type']}]  topic {topic}")
        if row["imported"]:
            print(f"  {row['model']}: {json.dumps(row['params'])}")
        else:
            print(f"  not imported: {row['reason']}")
    return 0


COMMAND = Command(
    name="sdf",
    help="list every noisy sensor of an SDF file and the fastnoise model it yields",
    add_arguments=add_arguments,
    run=run,
)
