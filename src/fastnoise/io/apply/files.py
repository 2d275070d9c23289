"""``fastnoise apply`` on a folder of files or one file: the plan of which files are
noised by which handler, and the pass over them."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import TextIO

from fastnoise.io.apply.output import Progress, os_error_text, publish, staged
from fastnoise.io.apply.report import ApplyError, Report, TopicReport
from fastnoise.io.files.files import file_handler, file_kind, noise_file, walk
from fastnoise.io.suite import Suite, name_tag


def apply_files(
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
    if kind == "file":
        items = [(src.name, src)]
    else:
        items = list(walk(src))
    planned = []
    for rel, path in items:
        entry = suite.for_file(rel)
        model = "copy" if entry is None else entry.model
        if entry is not None and entry.decl is not None:
            kind_of = file_kind(path)
            if kind_of is None:
                raise ApplyError(
                    f"file {rel}: {entry.where} matches it, but no reader knows "
                    f"{path.suffix or 'files without a suffix'}"
                )
            try:
                file_handler(entry, kind_of)  # refused before anything is written
            except ValueError as exc:
                raise ApplyError(f"file {rel}: {exc} ({entry.where})") from None
        tag = None if model == "copy" else name_tag(rel)
        report.topics.append(TopicReport(rel, path.suffix.lower() or "-", 1, model, tag))
        planned.append((rel, path, entry))
    if report.dry_run:
        return
    t0 = time.perf_counter()
    with staged(dst, overwrite) as tmp:
        bar = Progress(len(planned), "file", progress, stream)
        target = tmp / dst.name
        try:
            for rel, path, entry in planned:
                out = target if kind == "file" else target / rel
                size = path.stat().st_size
                report.messages += 1
                report.bytes_in += size
                try:
                    out.parent.mkdir(parents=True, exist_ok=True)
                    if entry is None or entry.decl is None:  # copy
                        shutil.copy2(path, out)
                    else:
                        noise_file(entry, rel, path, out, threads)
                except OSError as exc:  # a full disk, an unreadable input file
                    writing = exc.filename is None or str(tmp) in str(exc.filename)
                    what = f"writing OUT {dst}" if writing else "reading it"
                    raise ApplyError(f"file {rel}: {what}: {os_error_text(exc)}") from exc
                except Exception as exc:
                    raise ApplyError(f"file {rel}: {exc}") from exc
                if entry is not None and entry.decl is not None:
                    report.noised += 1
                bar.update(size)
        finally:
            bar.close()
        if kind != "file" and not target.exists():
            target.mkdir()
        publish(target, dst, tmp)
    report.seconds = time.perf_counter() - t0
