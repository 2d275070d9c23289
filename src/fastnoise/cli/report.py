"""``fastnoise report``: pictures of what a configured noise model does to the data, and
an HTML page gathering them.

    fastnoise report imu --config imu.json --out imu_report
    fastnoise report lidar --config lidar_state.json
    fastnoise report dvl --config dvl_config.json --seed 3

MODEL is one of imu, lidar, range, camera, dvl. The configuration is a JSON object: a
model's saved ``state``, or ``{"params": {...}, "seed": ..., "report": {...}}`` with the
model's constructor keywords, or (dvl) a DVL configuration in the Metron DVL simulator
document's layout; the layouts and the picture settings are in
``fastnoise.analysis.report``. Writes ``<MODEL>.png`` and ``index.html`` into ``--out``
(default ``<MODEL>_report``). Exit status: 0, 1 when the configuration cannot be used, 2
for a usage error.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fastnoise.cli import Command, _args, _errors

MODELS = ("imu", "lidar", "range", "camera", "dvl")
DEFAULT_OUT = "<MODEL>_report"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", metavar="MODEL", choices=MODELS, help=f"one of {', '.join(MODELS)}")
    p.add_argument("--config", required=True, help="the model's configuration (JSON)")
    p.add_argument("--out", default=DEFAULT_OUT, help="output folder")
    p.add_argument(
        "--seed",
        type=_args.nonnegative_int,
        default=None,
        help="seed, instead of the configuration's",
    )
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args: argparse.Namespace) -> int:
    from fastnoise.analysis.report import model_report

    say = _args.progress(args.quiet)
    out = Path(f"{args.model}_report") if args.out == DEFAULT_OUT else Path(args.out)
    _errors.writable_dir(out, "--out")  # before the simulation, not after it
    say(f"reading {args.config}")
    files = model_report(args.model, args.config, out, seed=args.seed, say=say)
    print("\n".join(str(p) for p in files.values()))
    return 0


COMMAND = Command(
    name="report",
    help="draw what a configured noise model does (PNG and an HTML page)",
    description=(
        "Simulate a configured model (imu, lidar, range, camera or dvl) and draw its "
        "noise against the configuration: the IMU's Allan deviation with the theory per "
        "term, lidar range and angular errors, camera crops and noise histogram, DVL "
        "error distributions. The configuration is JSON: a model's saved state or "
        '{"params": {...}, "seed": N, "report": {...}}.'
    ),
    add_arguments=add_arguments,
    run=run,
)
