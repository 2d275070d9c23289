# mypy: disable-error-code="import-not-found, import-untyped"
"""QoS of the live node: the profiles a suite entry names with ``qos``, and the text
logged when a publisher's or subscriber's QoS cannot match the node's."""

from __future__ import annotations

from typing import Any

from fastnoise.io.suite.entry import QOS_CHOICES

__all__ = ["QOS_CHOICES", "describe", "incompatible_text", "qos_profile"]

#: the default, as the ROS 2 sensor-pipeline document has it (rclpy's usual depth)
DEFAULT_QOS = "reliable"
DEFAULT_DEPTH = 10


def qos_profile(name: str | None, *, depth: int = DEFAULT_DEPTH) -> Any:
    """The rclpy QoSProfile of a suite ``qos`` name: ``"reliable"`` (None too):
    Reliable, keep last ``depth``, volatile; ``"sensor_data"``: rclpy's
    ``qos_profile_sensor_data`` (BestEffort, keep last 5, volatile)."""
    from rclpy.qos import (
        DurabilityPolicy,
        HistoryPolicy,
        QoSProfile,
        ReliabilityPolicy,
        qos_profile_sensor_data,
    )

    if name is None or name == "reliable":
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise ValueError(f"depth={depth!r} is not allowed: use an int >= 1")
        return QoSProfile(
            depth=depth,
            history=HistoryPolicy.KEEP_LAST,
            reliability=ReliabilityPolicy.RELIABLE,
            durability=DurabilityPolicy.VOLATILE,
        )
    if name == "sensor_data":
        return qos_profile_sensor_data
    raise ValueError(f"qos={name!r} is not allowed: use one of {list(QOS_CHOICES)}")


def _policy(value: Any) -> str:
    text = getattr(value, "name", str(value))
    return str(text).lower()


def describe(profile: Any) -> str:
    """A short text of a QoS profile: reliability, durability, history and depth."""
    if profile is None:
        return "unknown"
    return (
        f"{_policy(profile.reliability)}, {_policy(profile.durability)}, "
        f"{_policy(profile.history)} depth {profile.depth}"
    )


def incompatible_text(
    topic: str, side: str, policy: Any, ours: Any, theirs: list[Any], count: int
) -> str:
    """The warning of an incompatible-QoS event: the topic, the policy that failed, the
    node's profile, the profiles of the other side's endpoints and how to fix it.
    ``side`` is ``"publisher"`` (a publisher of an input topic the node cannot receive
    from) or ``"subscriber"`` (a subscriber of an output topic the node cannot reach)."""
    kind = _policy(policy).upper()
    others = "; ".join(describe(p) for p in theirs) or "not listed by the graph yet"
    if side == "publisher":
        head = f"topic {topic}: a publisher's QoS is incompatible with this node's subscription"
        fix = (
            'messages from it are NOT received: give the entry qos = "sensor_data" in the '
            "suite for a BestEffort publisher, or make the publisher Reliable"
        )
    else:
        head = f"topic {topic}: a subscriber's QoS is incompatible with this node's publisher"
        fix = (
            "it receives nothing: make the subscriber match (a Reliable subscriber needs "
            'the input topic Reliable, qos = "reliable" in the suite)'
        )
    return (
        f"{head} (policy {kind}, {count} time(s)): this node: {describe(ours)}; "
        f"{side}(s): {others}. {fix}"
    )
