# mypy: disable-error-code="import-not-found, import-untyped"
"""Counters of the live node, per topic, and their ``diagnostic_msgs/DiagnosticArray``
form for ``/diagnostics``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["DiagnosticsReport", "TopicCounters", "diagnostic_array"]


@dataclass
class TopicCounters:
    """What one input topic has seen since the node started, and the processing
    latency (s) of the messages since the last report: from the callback's start to
    the return of ``publish`` (noise, serialization and hand-over to the middleware)."""

    input: str
    output: str
    msgtype: str
    model: str
    received: int = 0
    published: int = 0
    skipped: int = 0
    warnings: int = 0
    incompatible_qos: int = 0
    latencies: list[float] = field(default_factory=list)
    #: True when the topic's messages are taken and published serialized (an Image or
    #: PointCloud2 noised in its CDR bytes; see :class:`fastnoise.ros2.NoiseNode`)
    serialized: bool = False

    def add_latency(self, seconds: float) -> None:
        """Record one message's processing latency (s); the last 10000 are kept."""
        lat = self.latencies
        if len(lat) >= 10000:
            del lat[:5000]
        lat.append(seconds)

    def latency_summary(self) -> dict[str, float]:
        """Mean, p50, p99 and max of the recorded latencies (s), then forgets them."""
        lat = sorted(self.latencies)
        self.latencies = []
        if not lat:
            return {}
        n = len(lat)
        return {
            "mean": sum(lat) / n,
            "p50": lat[(n - 1) // 2],
            "p99": lat[min(n - 1, int(0.99 * (n - 1) + 0.5))],
            "max": lat[-1],
        }


_COUNTS = (
    ("input", "input"),
    ("output", "output"),
    ("messages_in", "received"),
    ("messages_out", "published"),
    ("messages_skipped", "skipped"),
    ("stamp_warnings", "warnings"),
    ("incompatible_qos", "incompatible_qos"),
)
_LATENCY = ("mean", "p50", "p99", "max")


class DiagnosticsReport:
    """The node's ``/diagnostics`` message, built once and refreshed in place.

    Building a ``DiagnosticArray`` from scratch costs about 0.3 ms for three topics
    (some 40 rclpy message constructors), paid on the executor's thread between two
    messages of a 1 kHz topic; here each topic's ``DiagnosticStatus`` and its
    ``KeyValue`` entries are made the first time the topic is reported and only their
    strings change afterwards. :meth:`update` returns the same message object each
    time: publish it before the next update."""

    def __init__(self, node_name: str) -> None:
        from diagnostic_msgs.msg import DiagnosticArray

        self.node_name = node_name
        self.message = DiagnosticArray()
        self._entries: dict[str, tuple[Any, list[Any], list[Any]]] = {}

    def _entry(self, t: TopicCounters) -> tuple[Any, list[Any], list[Any]]:
        entry = self._entries.get(t.input)
        if entry is None:
            from diagnostic_msgs.msg import DiagnosticStatus, KeyValue

            st = DiagnosticStatus()
            st.name = f"{self.node_name}: {t.input}"
            st.hardware_id = self.node_name
            counts = [KeyValue(key=key) for key, _ in _COUNTS]
            latency = [KeyValue(key=f"latency_{k}_us") for k in _LATENCY]
            entry = self._entries[t.input] = (st, counts, counts + latency)
        return entry

    def update(self, topics: list[TopicCounters], stamp: Any) -> Any:
        """The ``DiagnosticArray`` of ``topics`` now, stamped ``stamp``: one status per
        input topic (``"<node>: <topic>"``), as :func:`diagnostic_array` describes.
        Reading the latencies forgets them (:meth:`TopicCounters.latency_summary`)."""
        from diagnostic_msgs.msg import DiagnosticStatus

        arr = self.message
        arr.header.stamp = stamp
        statuses = []
        for t in topics:
            st, counts, with_latency = self._entry(t)
            problems = []
            if t.skipped:
                problems.append(f"{t.skipped} skipped")
            if t.incompatible_qos:
                problems.append("incompatible QoS")
            st.level = DiagnosticStatus.WARN if problems else DiagnosticStatus.OK
            st.message = (
                f"{t.msgtype} -> {t.output} ({t.model}): {t.received} in, {t.published} out"
                + (f"; {', '.join(problems)}" if problems else "")
            )
            for kv, (_, attr) in zip(counts, _COUNTS, strict=True):
                kv.value = str(getattr(t, attr))
            summary = t.latency_summary()
            if summary:
                for kv, k in zip(with_latency[len(counts) :], _LATENCY, strict=True):
                    kv.value = f"{summary[k] * 1e6:.1f}"
                st.values = with_latency
            else:
                st.values = counts
            statuses.append(st)
        arr.status = statuses
        return arr


def diagnostic_array(node_name: str, topics: list[TopicCounters], stamp: Any) -> Any:
    """A new ``DiagnosticArray`` with one status per input topic (``"<node>: <topic>"``):
    level OK, or WARN when messages were skipped or a QoS mismatch was seen; values
    ``input``, ``output``, ``messages_in``, ``messages_out``, ``messages_skipped``,
    ``stamp_warnings``, ``incompatible_qos``, and ``latency_mean_us``/``_p50_us``/
    ``_p99_us``/``_max_us`` (microseconds) over the messages since the last report
    (absent when none came). The node reuses one :class:`DiagnosticsReport` instead."""
    return DiagnosticsReport(node_name).update(topics, stamp)
