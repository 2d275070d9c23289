"""``fastnoise apply``: noise a recording from a suite file, in Python.

>>> from fastnoise.io.apply import apply          # doctest: +SKIP
>>> report = apply("suite.toml", "run.bag", "run_noisy.bag")  # doctest: +SKIP

Inputs: a ROS 1 ``.bag``, a ROS 2 bag folder (sqlite3 or mcap storage), a bare
``.mcap``, a folder of image / point-cloud / numpy files, or one such file. The output
has the input's form. Which topic or file gets which noise, and how it is keyed, is the
suite's business (:mod:`fastnoise.io.suite`); how messages are noised is
:class:`fastnoise.io.ros.TopicNoise`'s; what a bag keeps is :mod:`fastnoise.io.ros.bags`'s
and what a file keeps :mod:`fastnoise.io.files`'s.

Safety: the input is only read. ``OUT`` must not exist (unless ``overwrite``) and may
never be ``IN`` (nor lie inside an input folder, nor contain the input). The output is
written under a temporary name beside ``OUT`` and renamed to ``OUT`` at the end, so a run
that fails or is interrupted leaves no ``OUT`` (an ``OUT`` being overwritten is replaced
only once the new one is complete). Errors name the topic and message index, or the file.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from fastnoise.io.suite import Suite, load_suite, name_tag, normalize_topic

__all__ = ["ApplyError", "Report", "TopicReport", "apply", "input_kind"]


class ApplyError(ValueError):
    """A refused or failed ``apply``: the message names the path, topic, message or file."""


@dataclass
class TopicReport:
    """What ``apply`` did (or would do) to one topic or file pattern."""

    name: str
    msgtype: str
    count: int
    model: str  #: the suite model, or "copy" (unchanged)
    tag: int | None = None  #: name_tag of the key (None when copied)


@dataclass
class Report:
    """The outcome of ``apply``."""

    input: Path
    output: Path
    kind: str  #: "ros1", "ros2", "mcap", "files"
    seed_entropy: Any
    dry_run: bool
    topics: list[TopicReport] = field(default_factory=list)
    messages: int = 0  #: messages or files processed
    noised: int = 0  #: of which noised
    bytes_in: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        """A human-readable summary (what ``--dry-run`` prints)."""
        head = "would write" if self.dry_run else "wrote"
        lines = [
            f"{self.kind} input {self.input}; {head} {self.output}",
            f"suite seed entropy: {self.seed_entropy}",
        ]
        width = max([len(t.name) for t in self.topics] + [5])
        for t in self.topics:
            what = "copied unchanged" if t.model == "copy" else f"model {t.model}"
            key = "" if t.tag is None else f", key tag {t.tag:#010x}"
            lines.append(f"  {t.name:<{width}}  {t.msgtype:<28} {t.count:>8}  {what}{key}")
        lines += [f"note: {n}" for n in self.notes]
        if not self.dry_run and self.seconds > 0:
            mb = self.bytes_in / 1e6
            lines.append(
                f"{self.messages} messages ({self.noised} noised), {mb:.1f} MB in "
                f"{self.seconds:.2f} s ({mb / self.seconds:.1f} MB/s)"
            )
        return "\n".join(lines)


def input_kind(path: Path) -> str:
    """ "ros1", "ros2", "mcap", "folder" or "file"."""
    from fastnoise.io.ros.bags import bag_kind

    kind = bag_kind(path)
    if kind is not None:
        return kind
    if path.is_dir():
        return "folder"
    return "file"


def _check_paths(src: Path, dst: Path, overwrite: bool) -> None:
    if not src.exists():
        raise ApplyError(f"IN {src} does not exist")
    rs, rd = src.resolve(), dst.resolve()
    if rs == rd or (dst.exists() and os.path.samefile(src, dst)):
        raise ApplyError(f"IN and OUT are the same path ({src}): the input is never modified")
    if src.is_dir() and rd.is_relative_to(rs):
        raise ApplyError(f"OUT {dst} lies inside IN {src}: the input is never modified")
    if rs.is_relative_to(rd):
        raise ApplyError(f"IN {src} lies inside OUT {dst}")
    if dst.exists() and not overwrite:
        raise ApplyError(f"OUT {dst} exists: remove it or give --overwrite")


class _Progress:
    """tqdm with counts and throughput (messages/s and MB/s), or nothing."""

    def __init__(self, total: int, unit: str, enabled: bool, stream: TextIO | None) -> None:
        self.bar = None
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.bytes = 0
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(
                    total=total,
                    unit=unit,
                    file=stream or sys.stderr,
                    dynamic_ncols=True,
                )

    def update(self, nbytes: int) -> None:
        self.bytes += nbytes
        if self.bar is None:
            return
        self.bar.update(1)
        now = time.perf_counter()
        if now - self.last > 0.5:
            self.last = now
            self.bar.set_postfix_str(
                f"{self.bytes / 1e6 / (now - self.t0):.1f} MB/s", refresh=False
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@contextmanager
def _staged(dst: Path, overwrite: bool) -> Iterator[Path]:
    """A fresh temporary folder beside ``dst``; the body leaves its result at
    ``<tmp>/result`` (renamed in place by the caller's ``finish``)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dst.name}.", suffix=".fastnoise-tmp", dir=dst.parent))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _publish(result: Path, dst: Path, tmp: Path) -> None:
    """Move the finished ``result`` to ``dst``, replacing an old ``dst`` only now."""
    if dst.exists() or dst.is_symlink():
        old = tmp / ".replaced"
        os.replace(dst, old)
    os.replace(result, dst)


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
    _check_paths(src_p, dst_p, overwrite)
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
        _apply_bag(suite, src_p, dst_p, kind, report, overwrite, progress, nthreads, stream)
    else:
        _apply_files(suite, src_p, dst_p, kind, report, overwrite, progress, nthreads, stream)
    return report


# ---------------------------------------------------------------------------------------
# bags


def _plan_bag(suite: Suite, bag: Any, report: Report) -> dict[str, Any]:
    """topic -> suite entry for every noised topic (checked: types, key collisions)."""
    from fastnoise.io.ros.noise import MESSAGE_MODELS, message_type

    plan: dict[str, Any] = {}
    tags: dict[int, str] = {}
    for name, info in sorted(bag.topics.items()):
        entry = suite.for_topic(name)
        mtype = message_type(info.msgtype)
        if entry is None or entry.model == "copy":
            report.topics.append(TopicReport(name, mtype, info.count, "copy"))
            continue
        types = {message_type(c.msgtype) for c in info.connections}
        if len(types) > 1:
            raise ApplyError(f"topic {name} carries several message types {sorted(types)}")
        allowed = MESSAGE_MODELS.get(mtype, ())
        if entry.model not in allowed:
            raise ApplyError(
                f"topic {name} ({mtype}): {entry.where} gives model {entry.model!r}; "
                + (
                    f"{mtype} takes {' or '.join(allowed)}"
                    if allowed
                    else f"handled types are {sorted(MESSAGE_MODELS)}"
                )
            )
        tag = name_tag(name)
        if tag in tags:
            raise ApplyError(f"topics {tags[tag]} and {name} have the same key tag {tag:#x}")
        tags[tag] = name
        plan[name] = entry
        report.topics.append(TopicReport(name, mtype, info.count, entry.model, tag))
    return plan


def _first_dt(bag: Any, info: Any, entry: Any, codecs: dict[int, Any]) -> float:
    """(t1 - t0) / 1e9 of an IMU topic's first two messages (the first message's dt)."""
    from fastnoise.io.ros.bags import Codec
    from fastnoise.io.ros.messages import stamp_ns

    times = []
    for conn, ts, raw in bag.messages(info.connections):
        if entry.options.get("stamps", "header") == "log":
            times.append(int(ts))
        else:
            codec = codecs.setdefault(conn.id, Codec(conn, bag.kind == "ros1"))
            times.append(stamp_ns(codec.deserialize(raw).header.stamp))
        if len(times) == 2:
            break
    if len(times) < 2:
        raise ApplyError(
            f"topic {info.name}: an IMU topic needs two messages for a time step "
            f"(it has {len(times)})"
        )
    if times[1] <= times[0]:
        raise ApplyError(
            f"topic {info.name} message 1: IMU stamp {times[1]} ns is not after message "
            f"0's ({times[0]} ns): dt must be > 0"
        )
    return (times[1] - times[0]) / 1e9


_DATA_ONLY = ("sensor_msgs/Image", "sensor_msgs/PointCloud2")


def _noise_in_record(
    noise: Any, msg: Any, ts: int, raw: Any, buffers: dict[str, np.ndarray]
) -> np.ndarray | None:
    """The output record of an Image or PointCloud2 written straight into a copy of
    ``raw`` (noise changes only the bytes of ``data``, so the record is ``raw`` with
    them replaced: no second serialization, one pass over the pixels or points). The
    buffer is reused for the topic's next message (the writers copy what they get).
    None when the message does not view ``raw`` (the caller serializes it)."""
    from fastnoise.io.ros.bags import data_span

    if noise.msgtype not in _DATA_ONLY or noise.entry.model == "copy":
        return None
    span = data_span(msg, raw)
    if span is None:
        return None
    off, n = span
    src = np.frombuffer(raw, dtype=np.uint8)
    buf = buffers.get(noise.topic)
    if buf is None or buf.size != src.size:
        buf = buffers[noise.topic] = np.empty(src.size, dtype=np.uint8)
    buf[:off] = src[:off]
    buf[off + n :] = src[off + n :]
    into = buf[off : off + n]
    noise(msg, ts, out=into)
    data = msg.data
    if not (  # pragma: no cover - the handlers write into ``out``
        isinstance(data, np.ndarray)
        and data.ctypes.data == into.ctypes.data
        and data.nbytes == into.nbytes
    ):
        raise AssertionError("noised data did not land in the record")
    return buf


def _apply_bag(
    suite: Suite,
    src: Path,
    dst: Path,
    kind: str,
    report: Report,
    overwrite: bool,
    progress: bool,
    threads: int,
    stream: TextIO | None,
) -> None:
    from fastnoise.io.ros.bags import Codec, open_bag
    from fastnoise.io.ros.noise import TopicNoise

    try:
        bag = open_bag(src)
    except (ImportError, ValueError) as exc:
        raise ApplyError(str(exc)) from None
    try:
        plan = _plan_bag(suite, bag, report)
        if bag.compression != "none":
            report.notes.append(f"compression kept: {bag.compression}")
        if report.dry_run:
            return
        codecs: dict[int, Any] = {}
        noisers: dict[str, TopicNoise] = {}
        for name, entry in plan.items():
            info = bag.topics[name]
            first_dt = None
            if entry.model == "imu":
                first_dt = _first_dt(bag, info, entry, codecs)
            try:
                noisers[name] = TopicNoise(
                    entry, name, info.msgtype, threads=threads, first_dt=first_dt
                )
            except ValueError as exc:
                raise ApplyError(str(exc)) from None
        topic_of = {c.id: normalize_topic(c.topic) for c in bag.reader.connections}
        buffers: dict[str, np.ndarray] = {}
        ros1 = bag.kind == "ros1"
        t0 = time.perf_counter()
        with _staged(dst, overwrite) as tmp:
            target = tmp / (dst.stem if kind == "mcap" else dst.name)
            try:
                writer, conns, close = bag.writer(target)
            except Exception as exc:  # rosbags' WriterError and friends
                raise ApplyError(f"{dst}: cannot write the bag: {exc}") from exc
            bar = _Progress(bag.message_count, "msg", progress, stream)
            try:
                for conn, ts, raw in bag.messages():
                    out = conns[conn.id]
                    nbytes = len(raw)
                    noise = noisers.get(topic_of[conn.id])
                    report.messages += 1
                    report.bytes_in += nbytes
                    if noise is None:
                        writer.write(out, ts, raw)
                    else:
                        index = noise.frame
                        try:
                            codec = codecs.get(conn.id)
                            if codec is None:
                                codec = codecs[conn.id] = Codec(conn, ros1)
                            msg = codec.deserialize(raw)
                            data = _noise_in_record(noise, msg, ts, raw, buffers)
                            if data is None:
                                noise(msg, ts)
                                data = codec.serialize(msg, raw)
                        except Exception as exc:
                            raise ApplyError(
                                f"{src}: topic {noise.topic} message {index} (log time {ts} "
                                f"ns): {exc}"
                            ) from exc
                        writer.write(out, ts, data)
                        report.noised += 1
                    bar.update(nbytes)
                result = close()
            except BaseException:
                from contextlib import suppress

                with suppress(Exception):
                    writer.abort()
                raise
            finally:
                bar.close()
            _publish(result, dst, tmp)
        report.seconds = time.perf_counter() - t0
    finally:
        bag.close()


# ---------------------------------------------------------------------------------------
# files


def _apply_files(
    suite: Suite,
    src: Path,
    dst: Path,
    kind: str,
    report: Report,
    overwrite: bool,
    progress: bool,
    threads: int,
    stream: TextIO | None,
) -> None:
    from fastnoise.io.files import file_kind, noise_file, walk

    if kind == "file":
        items = [(src.name, src)]
    else:
        items = list(walk(src))
    planned = []
    for rel, path in items:
        entry = suite.for_file(rel)
        model = "copy" if entry is None else entry.model
        if entry is not None and model != "copy" and file_kind(path) is None:
            raise ApplyError(
                f"file {rel}: {entry.where} matches it, but no reader knows "
                f"{path.suffix or 'files without a suffix'}"
            )
        tag = None if model == "copy" else name_tag(rel)
        report.topics.append(TopicReport(rel, path.suffix.lower() or "-", 1, model, tag))
        planned.append((rel, path, entry))
    if report.dry_run:
        return
    bar = _Progress(len(planned), "file", progress, stream)
    t0 = time.perf_counter()
    with _staged(dst, overwrite) as tmp:
        target = tmp / dst.name
        try:
            for rel, path, entry in planned:
                out = target if kind == "file" else target / rel
                out.parent.mkdir(parents=True, exist_ok=True)
                size = path.stat().st_size
                report.messages += 1
                report.bytes_in += size
                if entry is None or entry.model == "copy":
                    shutil.copy2(path, out)
                else:
                    try:
                        noise_file(entry, rel, path, out, threads)
                    except Exception as exc:
                        raise ApplyError(f"file {rel}: {exc}") from exc
                    report.noised += 1
                bar.update(size)
        finally:
            bar.close()
        if kind != "file" and not target.exists():
            target.mkdir()
        _publish(target, dst, tmp)
    report.seconds = time.perf_counter() - t0
