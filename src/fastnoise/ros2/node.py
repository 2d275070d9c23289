# mypy: disable-error-code="import-not-found, import-untyped"
"""``NoiseNode``: an rclpy node that noises live topics with a sensor suite, through
:class:`fastnoise.io.ros.TopicNoise` (the code path of ``fastnoise apply``).

This module imports without rclpy (``NoiseNode`` then raises ImportError when built),
so that ``fastnoise`` and its tools can walk every module."""

from __future__ import annotations

import array
import os
import time
import warnings
from typing import Any

import numpy as np

from fastnoise.io.ros.cdr import PARSERS, EncapsulationError, serialized
from fastnoise.io.ros.messages import stamp_ns
from fastnoise.io.ros.noise import TopicNoise
from fastnoise.io.suite import RATE_HANDLERS, Entry, Suite, load_suite, normalize_topic
from fastnoise.ros2.diagnostics import DiagnosticsReport, TopicCounters
from fastnoise.ros2.names import is_pattern, message_class, output_topic, topic_message_type
from fastnoise.ros2.qos import DEFAULT_DEPTH, incompatible_text, qos_profile

__all__ = ["NoiseNode"]

try:
    from rclpy.node import Node as _Base

    _RCLPY_ERROR: ImportError | None = None
except ImportError as _exc:  # the module still imports: NoiseNode() says what to install

    class _Base:  # type: ignore[no-redef]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise ImportError(
                "fastnoise.ros2.NoiseNode needs rclpy: pip install 'fastnoise[ros2]' "
                f"(ROS 2 wheels; see the Live ROS 2 page of the docs): {_RCLPY_ERROR}"
            )

    _RCLPY_ERROR = _exc


_DTYPES = {"B": np.uint8, "b": np.int8, "f": np.float32, "d": np.float64}


class _Fields:
    """The message as TopicNoise sees it: reads go to the rclpy message; a NumPy array
    assigned to a field that rclpy keeps as an ``array.array`` (``data``, ``ranges``)
    is stored as one by a single copy of its bytes (rclpy's own setter converts element
    by element: ~100 ms for a 1280x720 rgb8 image)."""

    __slots__ = ("_msg",)

    def __init__(self, msg: Any) -> None:
        object.__setattr__(self, "_msg", msg)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._msg, name)

    def __setattr__(self, name: str, value: Any) -> None:
        msg = self._msg
        if isinstance(value, np.ndarray):
            current = getattr(msg, name, None)
            if isinstance(current, array.array) and current.typecode in _DTYPES:
                address, length = current.buffer_info()
                if (
                    value.ctypes.data == address
                    and value.nbytes == length * current.itemsize
                    and value.flags.c_contiguous
                ):
                    return  # noised in place, in the message's own buffer
                packed = array.array(current.typecode)
                flat = np.ascontiguousarray(value, dtype=_DTYPES[current.typecode]).reshape(-1)
                packed.frombytes(flat.view(np.uint8))  # type: ignore[arg-type]
                slot = "_" + name
                if slot in getattr(type(msg), "__slots__", ()):
                    setattr(msg, slot, packed)  # rclpy's field slot: no second copy
                else:  # pragma: no cover - another message layout
                    setattr(msg, name, packed)
                return
        setattr(msg, name, value)


# handlers that assign NumPy arrays to rclpy array.array fields (data, ranges): their
# messages go through _Fields (which costs ~30 us a message on an Imu's many reads)
_ARRAY_HANDLERS = frozenset(
    {"scan", "points", "points_drop", "image", "depth_image", "compressed_image"}
)


class _Topic:
    """One noised topic: its TopicNoise, subscription, publisher and counters."""

    def __init__(self, noise: TopicNoise, counters: TopicCounters, qos: Any, cls: Any) -> None:
        self.noise = noise
        self.counters = counters
        self.qos = qos
        self.cls = cls
        self.subscription: Any = None
        self.publisher: Any = None
        # Image and PointCloud2 whose noise changes only the bytes of data: taken and
        # published serialized (see NoiseNode), parsed by fastnoise.io.ros.cdr
        self.parse = PARSERS.get(noise.msgtype or "") if noise.takes_out else None
        counters.serialized = self.parse is not None
        self.wrap = noise.handler in _ARRAY_HANDLERS
        # Image and PointCloud2 (without removal): noised in place, in the received
        # message's own buffer (no second frame-sized buffer, no copy back)
        self.in_place = noise.takes_out
        # handlers whose time step comes from the stamps warn (StampWarning) when a
        # stamp does not increase: only then are warnings caught (catch_warnings costs
        # ~15 us, a third of an Imu message's noise)
        self.stamped = noise.handler in RATE_HANDLERS
        self.last_stamp: int | None = None
        # an IMU entry with stamps = "log" times its messages by when they were logged:
        # live, when the node receives them, on the node's clock (sim time honoured)
        self.log_time = noise.options.get("stamps") == "log"


def _deserialize(raw: bytes, cls: Any) -> Any:
    from rclpy.serialization import deserialize_message

    return deserialize_message(raw, cls)


class NoiseNode(_Base):  # type: ignore[misc]
    """An rclpy node that subscribes every topic of a sensor suite, noises each message
    with the suite's model and republishes it (header and stamp kept).

    Parameters
    ----------
    suite : Suite, str or path
        A loaded :class:`~fastnoise.io.suite.Suite` or a suite file (TOML or JSON, the
        format ``fastnoise apply`` reads; ``[sdf]`` entries included).
    node_name : str, keyword-only
        The node's name (default ``"fastnoise_noise"``); ``--ros-args -r __node:=...``
        overrides it.
    namespace : str or None, keyword-only
        The node's namespace (None: root, or what ``-r __ns:=...`` says).
    context : rclpy Context or None, keyword-only
        The rclpy context (None: the default one, ``rclpy.init()`` first).
    cli_args : list of str or None, keyword-only
        ROS command-line arguments for this node (``["--ros-args", "-r", ...]``).
    depth : int, keyword-only
        The history depth of the Reliable QoS (default 10); ``sensor_data`` entries keep
        rclpy's profile (depth 5).
    diagnostics_period : float, keyword-only
        Seconds (s, steady clock) between two ``/diagnostics`` reports; 0 publishes none.
    discovery_period : float, keyword-only
        Seconds (s, steady clock) between two scans of the ROS graph for topics that
        match a suite pattern (``"/cam*/image_raw"``); 0 scans once at start.
    **node_kwargs
        Passed to ``rclpy.node.Node`` (``parameter_overrides``, ...).

    Each literal topic name of the suite (``[topics."/imu_raw"]``, ``[sdf]`` sensors) is
    subscribed at once, as a name relative to the node's namespace, so remapping and
    namespaces apply; a pattern is matched against the graph's topics. A topic's noise
    is keyed by its *resolved* name (after remapping and namespaces, as ``ros2 bag
    record`` would record it; ``node.resolve_topic_name``), and message ``k`` received
    on it gets exactly the noise ``fastnoise apply`` gives message ``k`` of that topic
    in a bag. Its output topic is :func:`fastnoise.ros2.names.output_topic` of the
    name as the suite gives it (``/imu_raw`` -> ``/imu``), also relative to the
    namespace, with the input's QoS.

    A message that cannot be noised (an unknown image encoding, a truncated
    PointCloud2) is logged with its topic and index and skipped; it keeps its index
    (message ``k`` received is frame ``k``). Warnings of the noise (an IMU stamp that
    goes backwards) are logged as node warnings.

    Image and PointCloud2 topics whose noise changes only the bytes of ``data`` (the
    ``camera``, ``depth`` and ``lidar`` models; ``carla_lidar`` with ``keep_layout``)
    are taken serialized (``raw=True``): the few fields the noise reads come straight
    from the CDR bytes (:mod:`fastnoise.io.ros.cdr`), the noise writes the data into a
    copy of the record, and that copy is published as it is. rclpy neither builds a
    Python message of the frame nor serializes it again, and the bits are those of the
    deserialized path (``TopicNoise.apply_inplace(msg, None, out)``, what ``fastnoise
    apply`` runs on a bag's record). A record that is not plain CDR (XCDR2) is
    deserialized by rclpy instead; one that cannot be read (truncated, lengths beyond
    the buffer) is logged and skipped like any malformed message.
    ``topics[name].serialized`` says which path a topic takes.
    """

    def __init__(
        self,
        suite: Suite | str | os.PathLike[str],
        *,
        node_name: str = "fastnoise_noise",
        namespace: str | None = None,
        context: Any = None,
        cli_args: list[str] | None = None,
        depth: int = DEFAULT_DEPTH,
        diagnostics_period: float = 1.0,
        discovery_period: float = 1.0,
        **node_kwargs: Any,
    ) -> None:
        if _RCLPY_ERROR is not None:
            super().__init__()  # raises ImportError: what to install
        for name, value in (
            ("diagnostics_period", diagnostics_period),
            ("discovery_period", discovery_period),
        ):
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
                raise ValueError(f"{name}={value!r} is not allowed: use a number of seconds >= 0")
        qos_profile(None, depth=depth)  # checks depth
        if not isinstance(suite, Suite):
            suite = load_suite(suite)
        super().__init__(
            node_name,
            namespace=namespace,
            context=context,
            cli_args=cli_args,
            **node_kwargs,
        )
        self.suite = suite
        self._depth = depth
        self._topics: dict[str, _Topic] = {}  # resolved input name -> topic
        self._outputs: set[str] = set()
        self._pending: list[Entry] = []  # literal topics whose type is not known yet
        self._patterns = [
            e for e in suite.entries if e.kind == "topic" and e.decl and is_pattern(e.pattern)
        ]
        log = self.get_logger()
        for note in suite.notes:
            log.info(f"suite: {note}")
        for entry in suite.entries:
            if entry.kind == "topic" and entry.decl is not None and not is_pattern(entry.pattern):
                self._add_literal(entry)
        from rclpy.clock import Clock, ClockType

        steady = Clock(clock_type=ClockType.STEADY_TIME)
        self._diagnostics = None
        if diagnostics_period > 0:
            from diagnostic_msgs.msg import DiagnosticArray

            self._diagnostics = self.create_publisher(DiagnosticArray, "/diagnostics", 10)
            self._report = DiagnosticsReport(self.get_name())
            self.create_timer(float(diagnostics_period), self.publish_diagnostics, clock=steady)
        if self._patterns or self._pending:
            self.discover()
            if discovery_period > 0:
                self.create_timer(float(discovery_period), self.discover, clock=steady)
        if not self._topics and not self._patterns and not self._pending:
            log.warning(f"suite {suite.source}: no topic entry with a model: nothing to noise")

    # --------------------------------------------------------------------------------
    @property
    def topics(self) -> dict[str, TopicCounters]:
        """The noised input topics (resolved names) and their counters."""
        return {name: t.counters for name, t in self._topics.items()}

    def _add_literal(self, entry: Entry) -> None:
        decl = entry.decl
        assert decl is not None
        relative = entry.pattern.lstrip("/")  # the namespace applies, as to any ROS name
        resolved = self.resolve_topic_name(relative)
        graph = dict(self.get_topic_names_and_types()).get(resolved)
        msgtype = topic_message_type(list(decl.messages), resolved, graph)
        waiting = any(e is entry for e in self._pending)  # identity: entries hold arrays
        if msgtype is None and not graph:
            if not waiting:  # subscribed once a publisher tells the type
                self._pending.append(entry)
                self.get_logger().info(
                    f"topic {resolved}: model {entry.model!r} noises {list(decl.messages)}: "
                    "waiting for a publisher to tell which"
                )
            return
        if waiting:
            self._pending = [e for e in self._pending if e is not entry]
        if msgtype is None:
            self.get_logger().error(
                f"topic {resolved} carries {graph}: model {entry.model!r} noises "
                f"{list(decl.messages)}: not subscribed"
            )
            return
        out = output_topic(entry, entry.pattern).lstrip("/")
        self._add(entry, relative, resolved, out, msgtype)

    def discover(self) -> None:
        """Subscribe the graph's topics that a suite pattern matches (and that no
        earlier entry decides otherwise), once each, the node's own outputs excluded;
        and the suite's topics whose message type waited for a publisher."""
        for waiting in list(self._pending):
            self._add_literal(waiting)
        if not self._patterns:
            return
        for name, types in self.get_topic_names_and_types():
            name = normalize_topic(name)
            if name in self._topics or name in self._outputs:
                continue
            entry = self.suite.for_topic(name)
            if entry is None or entry.decl is None or not any(e is entry for e in self._patterns):
                continue
            msgtype = topic_message_type(list(entry.decl.messages), name, list(types))
            if msgtype is None:
                continue
            self._add(entry, name, name, output_topic(entry, name), msgtype)

    def _add(self, entry: Entry, sub_name: str, resolved: str, out_name: str, msgtype: str) -> None:
        from rclpy.event_handler import PublisherEventCallbacks, SubscriptionEventCallbacks

        log = self.get_logger()
        key = normalize_topic(resolved)
        if key in self._topics:
            return
        try:
            cls = message_class(msgtype)
            noise = TopicNoise(entry, key, msgtype, threads=self.suite.threads)
        except (ImportError, ValueError) as exc:
            log.error(f"topic {key}: not subscribed: {exc}")
            return
        qos = qos_profile(getattr(entry, "qos", None), depth=self._depth)
        out_resolved = normalize_topic(self.resolve_topic_name(out_name))
        if out_resolved == key:
            log.error(f"topic {key}: the output topic is the input topic: not subscribed")
            return
        counters = TopicCounters(key, out_resolved, msgtype, entry.model)
        topic = _Topic(noise, counters, qos, cls)
        self._topics[key] = topic
        self._outputs.add(out_resolved)

        def sub_incompatible(event: Any) -> None:
            counters.incompatible_qos += 1
            others = [i.qos_profile for i in self.get_publishers_info_by_topic(key)]
            log.warning(
                incompatible_text(
                    key, "publisher", event.last_policy_kind, qos, others, event.total_count
                )
            )

        def pub_incompatible(event: Any) -> None:
            others = [i.qos_profile for i in self.get_subscriptions_info_by_topic(out_resolved)]
            log.warning(
                incompatible_text(
                    out_resolved,
                    "subscriber",
                    event.last_policy_kind,
                    qos,
                    others,
                    event.total_count,
                )
            )

        topic.publisher = self.create_publisher(
            cls,
            out_name,
            qos,
            event_callbacks=PublisherEventCallbacks(incompatible_qos=pub_incompatible),
        )
        raw = topic.parse is not None  # taken serialized (not the module's serialized())
        on_message = self._on_serialized if raw else self._on_message
        topic.subscription = self.create_subscription(
            cls,
            sub_name,
            lambda msg: on_message(topic, msg),
            qos,
            event_callbacks=SubscriptionEventCallbacks(incompatible_qos=sub_incompatible),
            raw=raw,
        )
        how = ", serialized" if raw else ""
        log.info(f"{key} ({msgtype}, {entry.model}{how}) -> {out_resolved}")

    def _on_message(self, topic: _Topic, msg: Any) -> None:
        t0 = time.perf_counter()
        c = topic.counters
        c.received += 1
        noise = topic.noise.apply_inplace  # the message is published as noised
        index = topic.noise.frame
        target = _Fields(msg) if topic.wrap else msg
        caught: list[warnings.WarningMessage] = []
        try:
            if topic.stamped:
                log_ns = self.get_clock().now().nanoseconds if topic.log_time else None
                stamp = log_ns if log_ns is not None else stamp_ns(msg.header.stamp)
                last, topic.last_stamp = topic.last_stamp, stamp
                if last is not None and stamp <= last:
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        noise(target, log_ns)
                else:
                    noise(target, log_ns)
            elif topic.in_place and isinstance(msg.data, array.array):
                noise(target, None, np.frombuffer(msg.data, dtype=np.uint8))
            else:
                noise(target)
        except Exception as exc:  # a malformed message: logged, skipped, the node goes on
            c.skipped += 1
            self.get_logger().error(f"topic {c.input} message {index}: skipped: {exc}")
            return
        for w in caught:
            c.warnings += 1
            self.get_logger().warning(f"topic {c.input} message {index}: {w.message}")
        topic.publisher.publish(msg)
        c.published += 1
        c.add_latency(time.perf_counter() - t0)

    def _on_serialized(self, topic: _Topic, raw: bytes) -> None:
        """An Image or PointCloud2 as the middleware serialized it (CDR ``bytes``): its
        fields are read in place, the noise writes the data into a copy of the record,
        and that copy is published as it is (see NoiseNode: the bits are those of the
        deserialized path)."""
        t0 = time.perf_counter()
        c = topic.counters
        noise = topic.noise
        index = noise.frame
        assert topic.parse is not None
        try:
            msg = topic.parse(raw)
        except EncapsulationError:  # not plain CDR: let rclpy deserialize it
            try:
                message = _deserialize(raw, topic.cls)
            except Exception as exc:  # noqa: BLE001 - whatever the middleware says
                self._skip_unread(topic, index, exc)
                return
            self._on_message(topic, message)
            return
        except ValueError as exc:  # truncated, lengths beyond the buffer, ...
            self._skip_unread(topic, index, exc)
            return
        c.received += 1
        try:
            record, out = msg.new_record()
            noise.apply_inplace(msg, None, out)
            msg.finish(record)
        except Exception as exc:  # a malformed message: logged, skipped, the node goes on
            c.skipped += 1
            self.get_logger().error(f"topic {c.input} message {index}: skipped: {exc}")
            return
        topic.publisher.publish(serialized(record))  # the record's own bytes: no copy
        c.published += 1
        c.add_latency(time.perf_counter() - t0)

    def _skip_unread(self, topic: _Topic, index: int, exc: BaseException) -> None:
        """A serialized message that cannot be read: counted, logged with its topic and
        index, skipped; it keeps its index (the next message is frame ``index + 1``),
        as a message the noise refuses does."""
        c = topic.counters
        c.received += 1
        c.skipped += 1
        topic.noise.frame = index + 1
        self.get_logger().error(f"topic {c.input} message {index}: skipped: {exc}")

    def publish_diagnostics(self) -> None:
        """Publish the counters on ``/diagnostics`` now (the timer does it every
        ``diagnostics_period`` seconds)."""
        if self._diagnostics is None:
            return
        stamp = self.get_clock().now().to_msg()
        counters = [t.counters for t in self._topics.values()]
        self._diagnostics.publish(self._report.update(counters, stamp))

    def drain(self, timeout: float = 5.0) -> int:
        """Take every message the middleware still holds for the node's subscriptions
        (taken directly, as an executor would), noise and publish it; stops when none
        is left or after ``timeout`` seconds (s). Returns how many were taken. Call it
        with the node out of any spinning executor (``fastnoise node`` does at
        shutdown): with Reliable QoS a message the node's reader has acknowledged is
        then published, not dropped."""
        deadline = time.monotonic() + timeout
        taken = 0
        progress = True
        while progress and time.monotonic() < deadline:
            progress = False
            for topic in list(self._topics.values()):
                sub = topic.subscription
                with sub.handle:
                    got = sub.handle.take_message(sub.msg_type, sub.raw)
                if got is not None:
                    if sub.raw:
                        self._on_serialized(topic, got[0])
                    else:
                        self._on_message(topic, got[0])
                    taken += 1
                    progress = True
        return taken

    def wait_for_acks(self, timeout: float = 2.0) -> bool:
        """Wait up to ``timeout`` seconds (s) in all until every Reliable subscriber
        has acknowledged what the node published; True when all have."""
        from rclpy.duration import Duration

        deadline = time.monotonic() + timeout
        ok = True
        for t in self._topics.values():
            left = max(0.0, deadline - time.monotonic())
            try:
                done = t.publisher.wait_for_all_acked(Duration(nanoseconds=int(left * 1e9)))
            except Exception:  # pragma: no cover - a middleware without the call
                done = True
            ok = ok and bool(done)
        return ok
