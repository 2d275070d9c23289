# mypy: disable-error-code="import-not-found, import-untyped"
"""Counters of the live node, per topic, and their ``diagnostic_msgs/DiagnosticArray``
form for ``/diagnostics``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["TopicCounters", "diagnostic_array"]


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


def diagnostic_array(node_name: str, topics: list[TopicCounters], stamp: Any) -> Any:
    """A ``DiagnosticArray`` with one status per input topic (``"<node>: <topic>"``):
    level OK, or WARN when messages were skipped or a QoS mismatch was seen; values
    ``messages_in``, ``messages_out``, ``messages_skipped``, ``stamp_warnings``,
    ``incompatible_qos``, and ``latency_mean_us``/``_p50_us``/``_p99_us``/``_max_us``
    over the messages since the last report."""
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

    arr = DiagnosticArray()
    arr.header.stamp = stamp
    for t in topics:
        st = DiagnosticStatus()
        st.name = f"{node_name}: {t.input}"
        st.hardware_id = node_name
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
        values = {
            "input": t.input,
            "output": t.output,
            "messages_in": str(t.received),
            "messages_out": str(t.published),
            "messages_skipped": str(t.skipped),
            "stamp_warnings": str(t.warnings),
            "incompatible_qos": str(t.incompatible_qos),
        }
        for k, v in t.latency_summary().items():
            values[f"latency_{k}_us"] = f"{v * 1e6:.1f}"
        st.values = [KeyValue(key=k, value=v) for k, v in values.items()]
        arr.status.append(st)
    return arr
