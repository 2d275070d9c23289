"""What ``fastnoise apply`` reports: its error and its per-topic report (split out of
:mod:`fastnoise.io.apply.apply`, which re-exports them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


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
