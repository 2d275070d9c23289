"""``fastnoise apply --config suite.toml IN OUT``: noise a recording (a ROS 1 bag, a ROS 2
bag folder, an ``.mcap`` file, a folder of images and point clouds, or one file) with
the models of a sensor-suite file; the output has the input's form.

    fastnoise apply --config suite.toml run.bag run_noisy.bag
    fastnoise apply --config robot.sdf rosbag2_dir noisy_dir --dry-run
    fastnoise apply --models        # the models a suite may name, from the registry

Exit status 0 on success, 1 when the run is refused or fails (the message names the
path, topic and message index, or file), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from fastnoise.cli import Command, _args


def models_text() -> str:
    """The models a suite entry may name (``model = ...``), read from the registry:
    each with its summary, the ROS messages and file formats it noises (and by which
    handler) and its suite options."""
    from fastnoise.core import registry
    from fastnoise.io.suite import suite_models

    lines = ["models a suite entry may name (model = ...):"]
    for name in suite_models():
        if name == "copy":
            lines.append("  copy: copied unchanged (excludes a topic or file from a later pattern)")
            continue
        decl = registry.get(name)
        lines.append(f"  {name}: {decl.summary}")
        if decl.messages:
            msgs = ", ".join(f"{t} ({h})" for t, h in decl.messages.items())
            lines.append(f"      messages: {msgs}")
        if decl.files:
            lines.append(f"      files: {', '.join(f'{k} ({h})' for k, h in decl.files.items())}")
        if decl.options:
            opts = ", ".join(f"{o.name} ({o.allowed()})" for o in decl.options)
            lines.append(f"      options: {opts}")
        if decl.message_params:
            lines.append(f"      from each message: {', '.join(decl.message_params)}")
    return "\n".join(lines)


class _ListModels(argparse.Action):
    """``--models``: print :func:`models_text` and exit (as ``--help`` does, before the
    required arguments are checked)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(models_text())
        parser.exit()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--models",
        action=_ListModels,
        help="list the models a suite file may name (from the model registry) and exit",
    )
    p.add_argument(
        "--config",
        required=True,
        metavar="SUITE",
        help="sensor-suite file: .toml or .json, or an .sdf model/world file",
    )
    p.add_argument("input", metavar="IN", help="bag, bag folder, .mcap, data folder or file")
    p.add_argument("output", metavar="OUT", help="where to write (must not exist)")
    p.add_argument("--overwrite", action="store_true", help="replace OUT if it exists")
    p.add_argument("--dry-run", action="store_true", help="print what would be done; write nothing")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar, no summary")
    p.add_argument(
        "--seed", type=_args.nonnegative_int, default=None, help="override the suite's seed"
    )
    p.add_argument(
        "--threads", type=_args.positive_int, default=None, help="override the suite's threads"
    )


def run(args: argparse.Namespace) -> int:
    from fastnoise.io.apply.apply import apply

    try:
        report = apply(
            args.config,
            args.input,
            args.output,
            overwrite=args.overwrite,
            dry_run=args.dry_run,
            progress=not args.quiet and not args.dry_run,
            seed=args.seed,
            threads=args.threads,
        )
    except KeyboardInterrupt:
        print("fastnoise apply: interrupted; no output written", file=sys.stderr)
        return 130
    if args.dry_run:
        print(report.text())
    elif not args.quiet:
        print(report.text(), file=sys.stderr)
    return 0


COMMAND = Command(
    name="apply",
    help="noise a ROS bag, MCAP file or folder of images/clouds from a sensor-suite file",
    description=(
        "Noise a recording with the models of a sensor-suite file (TOML, JSON, or SDF): "
        "ROS 1 bags, ROS 2 bags (sqlite3, mcap), bare .mcap files, folders of "
        "PNG/JPEG/TIFF images, KITTI .bin, .pcd, .ply, .npy and .npz files. The input is "
        "never modified; the output is written in a temporary folder beside OUT "
        "(.OUT.*.fastnoise-tmp, removed by the next run if this one is killed) and "
        "renamed at the end. --models lists the models a suite file may name."
    ),
    add_arguments=add_arguments,
    run=run,
)
