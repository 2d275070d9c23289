# mypy: disable-error-code="import-not-found, import-untyped"
"""Running a NoiseNode as a process: the best executor rclpy offers, SIGINT/SIGTERM
handling, and the drain at shutdown (what ``fastnoise node`` runs)."""

from __future__ import annotations

import gc
import os
import signal
import threading
from collections.abc import Sequence
from typing import Any

__all__ = ["best_executor", "run_node"]


def best_executor(context: Any = None) -> Any:
    """rclpy's ``EventsExecutor`` (``rclpy.experimental``) when this rclpy has it, else
    a ``SingleThreadedExecutor``. The issue that asked for the node measured ~450 us of
    CPU per message with the SingleThreadedExecutor and losses at 1 kHz on a loaded
    2-core machine; the EventsExecutor costs a fraction of that."""
    try:
        from rclpy.experimental import EventsExecutor

        return EventsExecutor(context=context)
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - older rclpy
        from rclpy.executors import SingleThreadedExecutor

        return SingleThreadedExecutor(context=context)


def run_node(
    suite: Any,
    ros_args: Sequence[str] = (),
    *,
    node_name: str = "fastnoise_noise",
    drain_timeout: float = 10.0,
    ready_file: str | os.PathLike[str] | None = None,
    keep_memory: bool = True,
    **node_kwargs: Any,
) -> int:
    """Run a :class:`~fastnoise.ros2.NoiseNode` until SIGINT or SIGTERM; returns the
    exit status (0).

    ``ros_args`` are the ROS arguments (``["--ros-args", "-r", "__ns:=/robot", ...]``),
    given to ``rclpy.init`` and to the node, so remapping, namespaces, ``-p`` and
    ``--params-file`` work. On a signal the node stops waiting for new messages, noises
    and publishes every one the middleware already holds for it
    (:meth:`NoiseNode.drain`, at most ``drain_timeout`` seconds), waits up to
    ``drain_timeout`` seconds for Reliable subscribers to acknowledge everything
    published, then shuts down.
    ``ready_file``: a path written once the node's subscriptions exist (for scripts
    and tests that start it as a subprocess). ``keep_memory`` (default True): first
    call :func:`fastnoise.ros2.keep_freed_memory`, so that the process reuses
    freed message buffers instead of faulting their pages in again every message."""
    import rclpy
    from rclpy.signals import SignalHandlerOptions

    from fastnoise.ros2.memory import keep_freed_memory
    from fastnoise.ros2.node import NoiseNode

    if not isinstance(keep_memory, bool):
        raise TypeError(f"keep_memory={keep_memory!r} is not allowed: it must be True or False")
    if keep_memory:
        keep_freed_memory()
    args = list(ros_args)
    if args and args[0] != "--ros-args":
        args = ["--ros-args", *args]
    context = rclpy.Context()
    rclpy.init(args=args or None, context=context, signal_handler_options=SignalHandlerOptions.NO)
    stop = threading.Event()
    previous = {}

    def on_signal(signum: int, frame: Any) -> None:
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        previous[sig] = signal.signal(sig, on_signal)
    node = None
    executor = None
    try:
        node = NoiseNode(
            suite, node_name=node_name, context=context, cli_args=args or None, **node_kwargs
        )
        executor = best_executor(context)
        executor.add_node(node)
        log = node.get_logger()
        log.info(f"executor: {type(executor).__name__}")
        # Everything built so far lives as long as the node: out of the collector's
        # sight, so that a full collection at 1 kHz does not walk it (a ms-long pause
        # in the latency tail otherwise).
        gc.collect()
        gc.freeze()
        if ready_file is not None:
            with open(ready_file, "w", encoding="utf-8") as f:
                f.write(f"{os.getpid()}\n")
        while not stop.is_set():
            executor.spin_once(timeout_sec=0.1)
        # drain: what the middleware already holds for the node is noised and published
        left = node.drain(drain_timeout)
        if left:
            log.info(f"shutdown: {left} message(s) delivered before the signal noised")
        node.publish_diagnostics()
        if not node.wait_for_acks(drain_timeout):
            log.warning("shutdown: not every subscriber acknowledged the last messages")
        counts = ", ".join(
            f"{name}: {c.received} in, {c.published} out, {c.skipped} skipped"
            for name, c in node.topics.items()
        )
        log.info(f"shutdown: {counts or 'no topics'}")
    finally:
        if executor is not None:
            executor.shutdown()
        if node is not None:
            node.destroy_node()
        if context.ok():
            rclpy.shutdown(context=context)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0
