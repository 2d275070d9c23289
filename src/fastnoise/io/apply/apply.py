"""``fastnoise apply``: noise a recording from a suite file, in Python.

>>> from fastnoise.io.apply.apply import apply          # doctest: +SKIP
>>> report = apply("suite.toml", "run.bag", "run_noisy.bag")  # doctest: +SKIP

Inputs: a ROS 1 ``.bag``, a ROS 2 bag folder (sqlite3 or mcap storage), a bare
``.mcap``, a folder of image / point-cloud / numpy files, or one such file. The output
has the input's form. Which topic or file gets which noise, and how it is keyed, is the
suite's business (:mod:`fastnoise.io.suite.suite`); how messages are noised is
:class:`fastnoise.io.ros.TopicNoise`'s; what a bag keeps is :mod:`fastnoise.io.ros.bags`'s
and what a file keeps :mod:`fastnoise.io.files.files`'s.

Safety: the input is only read. ``OUT`` must not exist (unless ``overwrite``) and may
never be ``IN`` (nor lie inside an input folder, nor contain the input). The output is
written under a temporary name beside ``OUT`` and renamed to ``OUT`` at the end, so a run
that fails or is interrupted leaves no ``OUT`` (an ``OUT`` being overwritten is replaced
only once the new one is complete). Errors name the topic and message index, or the file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TextIO

from fastnoise.io.apply.bag import apply_bag
from fastnoise.io.apply.files import apply_files
from fastnoise.io.apply.output import check_paths
from fastnoise.io.apply.report import ApplyError, Report, TopicReport
from fastnoise.io.ros.bags import bag_kind
from fastnoise.io.suite import Suite, load_suite

__all__ = ["ApplyError", "Report", "TopicReport", "apply", "input_kind"]


def input_kind(path: Path) -> str:
    """ "ros1", "ros2", "mcap", "folder" or "file"."""
    kind = bag_kind(path)
    if kind is not None:
        return kind
    if path.is_dir():
        return "folder"
    return "file"


def apply(
    config: Suite | str | os.PathLike[str],
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    *,
    overwrite: bool = False,
    dry_run: bool = False,
    progress: bool = False,
    seed: int | None = None,
    threads: int | None = None,
    stream: TextIO | None = None,
) -> Report:
    """Noise the recording ``src`` into ``dst`` with the suite ``config`` (a
    :class:`~fastnoise.io.suite.Suite` or a ``.toml``/``.json``/``.sdf`` file).

    ``seed`` and ``threads`` override the suite's; ``dry_run`` checks everything and
    reports what would be done without writing; ``progress`` shows a tqdm bar on
    ``stream`` (default stderr). Returns a :class:`Report`; raises :class:`ApplyError`
    (a ValueError) naming the path, topic and message index, or file, of what failed.
    """
    src_p, dst_p = Path(src), Path(dst)
    check_paths(src_p, dst_p, overwrite)
    try:
        suite = config if isinstance(config, Suite) else load_suite(config, seed=seed)
    except (OSError, ValueError) as exc:
        raise ApplyError(str(exc)) from None
    if isinstance(config, Suite) and seed is not None:
        raise ApplyError("seed= overrides a suite file's seed; a Suite object has its own")
    nthreads = suite.threads if threads is None else int(threads)
    if nthreads < 1:
        raise ApplyError(f"threads={threads!r} is not allowed: use an int >= 1")
    kind = input_kind(src_p)
    report = Report(
        src_p,
        dst_p,
        kind if kind not in ("folder", "file") else "files",
        suite.seed.entropy,
        dry_run,
        notes=list(suite.notes),
    )
    if kind in ("ros1", "ros2", "mcap"):
        apply_bag(suite, src_p, dst_p, kind, report, overwrite, progress, nthreads, stream)
    else:
        apply_files(suite, src_p, dst_p, kind, report, overwrite, progress, nthreads, stream)
    return report
