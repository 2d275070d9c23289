"""Topic names and message classes of the live node: the output topic of an input
topic, the rclpy class of a ``"pkg/Name"`` message type, and the message type a suite
entry's topic carries."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["is_pattern", "message_class", "output_topic", "topic_message_type"]

from fastnoise.io.suite import output_topic


def is_pattern(name: str) -> bool:
    """True when a suite topic name is a shell-style pattern (``*``, ``?``, ``[``)."""
    return any(c in name for c in "*?[")


def message_class(msgtype: str) -> type[Any]:
    """The rclpy message class of ``"pkg/Name"`` or ``"pkg/msg/Name"``
    (``sensor_msgs/Imu`` -> ``sensor_msgs.msg.Imu``); ImportError naming the package to
    install when its Python message package is missing."""
    pkg, _, name = msgtype.replace("/msg/", "/").partition("/")
    if not pkg or not name or "/" in name:
        raise ValueError(f"message type {msgtype!r} is not allowed: use 'pkg/Name'")
    try:
        module = importlib.import_module(f"{pkg}.msg")
    except ImportError as exc:
        wheel = "ros-" + pkg.replace("_", "-")
        raise ImportError(
            f"message type {msgtype}: the Python package {pkg} is missing (pip install {wheel})"
        ) from exc
    try:
        return getattr(module, name)  # type: ignore[no-any-return]
    except AttributeError:
        raise ValueError(f"message type {msgtype!r}: {pkg}.msg has no {name}") from None


def topic_message_type(types: list[str], topic: str, graph: list[str] | None = None) -> str | None:
    """The message type to subscribe ``topic`` with, among the ``types`` its model
    noises (``"pkg/Name"``): the graph's type when a publisher offers one of them
    (``graph``: the types the ROS graph lists for the topic); else the model's only
    type; else, for a camera, ``CompressedImage`` for a name ending in ``compressed``
    and ``Image`` otherwise. None when the graph offers only types the model does not
    noise, or when the type cannot be told before a publisher appears (the ``range``
    model's LaserScan or Range)."""
    if graph:
        known = [t.replace("/msg/", "/") for t in graph]
        hits = [t for t in known if t in types]
        return hits[0] if hits else None
    if len(types) == 1:
        return types[0]
    if "sensor_msgs/CompressedImage" in types and topic.rstrip("/").endswith("compressed"):
        return "sensor_msgs/CompressedImage"
    if "sensor_msgs/Image" in types:
        return "sensor_msgs/Image"
    return None
