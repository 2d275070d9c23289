"""``fastnoise apply`` on a folder of files or one file (split out of
:mod:`fastnoise.io.apply.apply`)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import TextIO

from fastnoise.io.apply.output import _Progress, _publish, _staged
from fastnoise.io.apply.report import ApplyError, Report, TopicReport
from fastnoise.io.suite.suite import Suite, name_tag


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
    from fastnoise.io.files.files import file_kind, noise_file, walk

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
