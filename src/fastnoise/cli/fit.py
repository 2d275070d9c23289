"""``fastnoise fit``: fit an IMU noise model to a stationary log, from its Allan
deviation, and write the pictures, the estimates and an HTML page.

    fastnoise fit LOG.npy --rate 100              # gyro x, y, z, accel x, y, z columns
    fastnoise fit log.csv --time-column --out fit_dir
    fastnoise fit LOG.npy --rate 200 --columns 0 1 2 --no-plots --quiet

The log: a ``.npy`` array (N, k) or a CSV file (see ``fastnoise.analysis.logs``): one
row per sample, the columns the axes (six: gyro x, y, z in rad/s, then accel x, y, z in
m/s^2; three: one triad). Prints the fitted terms with their intervals (stdout), and
writes ``fit.json``, ``allan_fit.png`` and ``index.html`` into ``--out`` (default
``<LOG stem>_fit``); ``--format kalibr`` (or ``allan_variance_ros``, ``openvins``) also
writes the six-column fit as that tool's IMU file (``imu.yaml``; ``imu_vins.yaml``), the
densities N and K in continuous time with ``update_rate`` the log's rate, the largest
axis of each (``fastnoise.models.imu.formats``). Progress goes to stderr (``--quiet``
silences it). Exit status: 0, 1 when the log cannot be read or fitted, 2 for a usage
error.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

from fastnoise.cli import Command, _args, _errors

#: One-sigma probability, erf(1/sqrt(2)) (``fastnoise.analysis.ONE_SIGMA_CI``).
ONE_SIGMA = math.erf(1.0 / math.sqrt(2.0))
DEFAULT_OUT = "<LOG stem>_fit"
#: ``--format`` choices and the file each writes into ``--out``.
FILE_FORMATS = ("kalibr", "allan_variance_ros", "openvins")
FILE_NAMES = {"kalibr": "imu.yaml", "allan_variance_ros": "imu.yaml", "openvins": "imu_vins.yaml"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", metavar="LOG", help="the log: a .npy (N, k) array or a .csv file")
    p.add_argument(
        "--rate",
        type=_args.positive_float,
        default=None,
        help="sample rate (Hz); required unless --time-column gives the times",
    )
    p.add_argument(
        "--time-column",
        action="store_true",
        help="the first column holds the sample times (s): dropped, and the rate read from it",
    )
    p.add_argument(
        "--columns",
        type=_args.nonnegative_int,
        nargs="+",
        default=None,
        metavar="C",
        help="columns to fit (after the time column); none given: all",
    )
    p.add_argument(
        "--taus",
        choices=("octave", "decade", "log10"),
        default="octave",
        help="averaging times of the Allan deviation (allantools' grids)",
    )
    p.add_argument(
        "--ci", type=_args.positive_float, default=ONE_SIGMA, help="interval probability, (0, 1)"
    )
    p.add_argument(
        "--select",
        choices=("triad", "axis"),
        default="triad",
        help="term choice: once per x, y, z triad of columns (default; per column when the "
        "count is not a multiple of 3), or per column",
    )
    p.add_argument("--out", default=DEFAULT_OUT, help="output folder")
    p.add_argument("--no-plots", action="store_true", help="write no picture")
    p.add_argument(
        "--threads",
        type=_args.positive_int,
        default=None,
        help="columns computed at once; none given: the CPU count",
    )
    p.add_argument(
        "--format",
        choices=FILE_FORMATS,
        default=None,
        help="also write the six-column fit as this tool's IMU file into --out "
        "(kalibr, allan_variance_ros: imu.yaml; openvins: imu_vins.yaml; densities in "
        "continuous time, update_rate = --rate)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args: argparse.Namespace) -> int:
    from fastnoise.analysis.fit import fit_noise
    from fastnoise.analysis.report import fit_report

    say = _args.progress(args.quiet)
    log = Path(args.log)
    if not 0.0 < args.ci < 1.0:
        raise _errors.CommandError(f"--ci {args.ci!r} is not allowed: it must lie in (0, 1)")
    out = Path(f"{log.stem}_fit") if args.out == DEFAULT_OUT else Path(args.out)
    _errors.writable_dir(out, "--out")  # before the fit, not after it
    say(f"reading {log}")
    fit = fit_noise(
        str(log),
        args.rate,
        taus=args.taus,
        ci=args.ci,
        columns=args.columns,
        time_column=args.time_column,
        threads=args.threads,
        select=args.select,
        progress=say,
    )
    print(fit.table())
    files = fit_report(fit, out, source=log.name, plots=not args.no_plots, say=say)
    if args.format is not None:
        files["imu_file"] = _write_imu_file(fit, args.format, out, say)
    say(f"wrote {', '.join(str(p) for p in files.values())}")
    return 0


def _write_imu_file(fit: object, fmt: str, out: Path, say: Callable[[str], None]) -> Path:
    """The fit as ``fmt``'s IMU file. These files hold only N and K, each > 0 for Kalibr:
    an axis whose random walk the fit did not detect gets the upper limit of its
    interval (the largest K the data allow), said on stderr."""
    import warnings

    from fastnoise.analysis.fit import NoiseFit
    from fastnoise.models.imu import formats
    from fastnoise.models.imu.triad import TriadNoise

    assert isinstance(fit, NoiseFit)
    if len(fit.axes) != 6:
        raise _errors.CommandError(
            f"--format {fmt} needs a six-column log (gyro x, y, z, accel x, y, z): the log "
            f"has {len(fit.axes)} columns"
        )
    triads = []
    for t in range(2):  # gyro, then accel
        axes = fit.axes[3 * t : 3 * t + 3]
        k = []
        for ax in axes:
            est = ax.random_walk_density
            if est.value > 0.0 or not math.isfinite(est.high):
                k.append(est.value)
            else:
                say(f"{ax.name}: no random walk detected; writing its upper limit {est.high:.3g}")
                k.append(est.high)
        n = [ax.noise_density.value for ax in axes]
        triads.append(
            TriadNoise(noise_density=(n[0], n[1], n[2]), random_walk_density=(k[0], k[1], k[2]))
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", formats.FormatLossWarning)
        entries = formats.to_mapping(
            triads[0], triads[1], fmt, update_rate=fit.rate, rostopic="/imu0"
        )
    for w in caught:
        say(f"{fmt}: {w.message}")
    path = out / FILE_NAMES[fmt]
    formats.write(entries, fmt, path)
    return path


COMMAND = Command(
    name="fit",
    help="fit white noise, Gauss-Markov bias and random walk to a stationary IMU log",
    description=(
        "Compute the overlapping Allan deviation of every column of a stationary log "
        "(.npy or .csv; six columns: gyro x, y, z in rad/s, accel x, y, z in m/s^2) and "
        "fit the ImuNoise terms: white noise density N, Gauss-Markov bias (sigma_b, "
        "tau_c) and rate random walk K, with confidence intervals from the equivalent "
        "degrees of freedom, and the derived bias instability B. Writes fit.json, "
        "allan_fit.png and index.html."
    ),
    add_arguments=add_arguments,
    run=run,
)
