"""``fastnoise apply --config suite.toml IN OUT``: noise a recording (a ROS 1 bag, a ROS 2
bag folder, an ``.mcap`` file, a folder of images and point clouds, or one file) with
the models of a sensor-suite file; the output has the input's form.

    fastnoise apply --config suite.toml run.bag run_noisy.bag
    fastnoise apply --config robot.sdf rosbag2_dir noisy_dir --dry-run

Exit status 0 on success, 1 when the run is refused or fails (the message names the
path, topic and message index, or file), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import sys

from fastnoise.cli import Command, _args


def add_arguments(p: argparse.ArgumentParser) -> None:
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
    from fastnoise.io.apply.apply import ApplyError, apply

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
    except (ApplyError, ImportError) as exc:
        print(f"fastnoise apply: error: {exc}", file=sys.stderr)
        return 1
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
        "never modified; the output is written under a temporary name and renamed at "
        "the end."
    ),
    add_arguments=add_arguments,
    run=run,
)
