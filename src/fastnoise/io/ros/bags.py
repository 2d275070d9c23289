"""Reading and writing ROS 1 bags, ROS 2 bags (sqlite3 and mcap storage) and bare
``.mcap`` files with ``rosbags`` (the ``fastnoise[ros]`` extra), keeping what a noise
pass must not change.

What the output keeps from the input: every connection's topic, message type, message
definition and its hash (md5sum for ROS 1, RIHS01 for ROS 2), QoS profiles and
serialization format (ROS 2), caller id and latching (ROS 1), the compression setting
(ROS 1 chunk compression bz2/lz4; ROS 2 file or message compression, and compressed mcap
chunks), the ROS 2 ``custom_data``, and the message order (the reader's: timestamp
order, ties in recorded order). Messages of topics without a model are copied as raw
bytes, so they are byte-identical. What it does not keep: the storage layout (chunk
sizes, a split bag's files: the output is one file), compressed mcap chunks are
re-compressed with zstd (rosbags writes no lz4), and a ROS 2 bag is written in rosbag2
metadata version 8 or 9 (9 unless the input is 8).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.io.suite.names import normalize_topic

__all__ = ["BagInput", "Codec", "bag_kind", "data_span", "open_bag"]


def _rosbags() -> None:
    try:
        import rosbags  # noqa: F401
    except ImportError:
        raise ImportError(
            "bags and MCAP files need rosbags: pip install 'fastnoise[ros]'"
        ) from None


def bag_kind(path: str | os.PathLike[str]) -> str | None:
    """ "ros1" (a ``.bag`` file), "ros2" (a folder with ``metadata.yaml``), "mcap" (a
    bare ``.mcap`` file) or None."""
    p = Path(path)
    if p.is_dir():
        return "ros2" if (p / "metadata.yaml").is_file() else None
    suffix = p.suffix.lower()
    if suffix == ".bag":
        return "ros1"
    if suffix == ".mcap":
        return "mcap"
    return None


class Codec:
    """Deserializes and serializes the messages of one connection with the types of its
    own message definition (or a stock store when the bag has none)."""

    def __init__(self, conn: Any, ros1: bool) -> None:
        from rosbags.interfaces import MessageDefinitionFormat
        from rosbags.typesys import Stores, get_types_from_idl, get_types_from_msg, get_typestore

        self.msgtype = conn.msgtype
        self.ros1 = ros1
        fmt = conn.msgdef.format
        if fmt == MessageDefinitionFormat.NONE or not conn.msgdef.data:
            store = get_typestore(Stores.ROS1_NOETIC if ros1 else Stores.ROS2_HUMBLE)
            if conn.msgtype not in store.types:
                raise ValueError(
                    f"the bag stores no definition of {conn.msgtype} and rosbags knows none"
                )
        else:
            store = get_typestore(Stores.EMPTY)
            if fmt == MessageDefinitionFormat.MSG:
                store.register(get_types_from_msg(conn.msgdef.data, conn.msgtype))
            else:
                sep = "=" * 80 + "\n"
                text = conn.msgdef.data
                types: dict[str, Any] = {}
                if text.startswith(f"{sep}IDL: "):
                    for part in text.split(sep)[1:]:
                        types.update(get_types_from_idl(part.split("\n", 1)[1]))
                else:
                    types.update(get_types_from_idl(text))
                store.register(types)
        self.store = store

    def deserialize(self, raw: bytes | memoryview) -> Any:
        """The message; its arrays view ``raw`` where rosbags allows (no copy)."""
        if self.ros1:
            return self.store.deserialize_ros1(raw, self.msgtype)
        # a memoryview: rosbags slices off the CDR header without copying the message
        return self.store.deserialize_cdr(memoryview(raw), self.msgtype)

    def serialize(self, msg: Any, raw: bytes | memoryview) -> memoryview:
        """``msg`` serialized like ``raw`` was (CDR byte order kept)."""
        if self.ros1:
            return self.store.serialize_ros1(msg, self.msgtype)
        little = bytes(raw[1:2]) != b"\x00"
        return self.store.serialize_cdr(msg, self.msgtype, little_endian=little)


def data_span(msg: Any, raw: bytes | memoryview) -> tuple[int, int] | None:
    """(offset, length) of ``msg.data``'s bytes inside the serialized ``raw`` when the
    deserialized array views them (rosbags does for uint8[] fields), else None.

    A message whose only change is the contents of ``data`` (an Image or PointCloud2
    after noise) then serializes to ``raw`` with those bytes replaced: the output record
    is written without serializing the message again.
    """
    data = getattr(msg, "data", None)
    if not isinstance(data, np.ndarray) or data.dtype != np.uint8 or data.ndim != 1:
        return None
    base = np.frombuffer(raw, dtype=np.uint8)
    if not np.shares_memory(data, base) or data.strides != (1,):
        return None
    off = data.ctypes.data - base.ctypes.data
    if off < 0 or off + data.size > base.size:
        return None
    return off, data.size


@dataclass
class TopicInfo:
    """A topic of a bag (normalized name)."""

    name: str
    msgtype: str
    count: int
    connections: list[Any] = field(default_factory=list)


@dataclass
class BagInput:
    """An open input bag: its reader, kind and what its output must keep."""

    path: Path
    kind: str
    reader: Any
    version: int = 9
    storage: str = ""  #: "sqlite3" or "mcap" (ROS 2)
    compression: str = "none"  #: a description, for reports
    topics: dict[str, TopicInfo] = field(default_factory=dict)

    @property
    def message_count(self) -> int:
        return sum(t.count for t in self.topics.values())

    def messages(self, connections: list[Any] | None = None) -> Iterator[tuple[Any, int, Any]]:
        return self.reader.messages(connections or ())

    def close(self) -> None:
        self.reader.close()

    # ---- writing ---------------------------------------------------------------------
    def writer(self, target: Path) -> tuple[Any, dict[int, Any], Callable[[], Path]]:
        """A writer at ``target`` (a file for ROS 1; the bag folder for ROS 2 and mcap)
        with every input connection added, the map input connection id -> output
        connection, and a function that closes it and returns the written path."""
        if self.kind == "ros1":
            return self._writer1(target)
        return self._writer2(target)

    def _writer1(self, target: Path) -> tuple[Any, dict[int, Any], Callable[[], Path]]:
        from rosbags.rosbag1 import Writer
        from rosbags.rosbag1.reader import decompressors

        writer = Writer(target)
        names = {id(f): n for n, f in decompressors.items()}
        chunk_kinds = {names.get(id(c.decompressor), "none") for c in self.reader.chunks.values()}
        chunk_kinds.discard("none")
        if chunk_kinds:
            kind = sorted(chunk_kinds)[0]
            writer.set_compression(Writer.CompressionFormat[kind.upper()])
        writer.open()
        conns: dict[int, Any] = {}
        for c in sorted(self.reader.connections, key=lambda c: c.id):
            same = next(
                (
                    o
                    for o in writer.connections
                    if (o.topic, o.msgtype, o.msgdef.data, o.digest, o.ext)
                    == (c.topic, c.msgtype, c.msgdef.data, c.digest, c.ext)
                ),
                None,
            )
            conns[c.id] = same or writer.add_connection(
                c.topic,
                c.msgtype,
                msgdef=c.msgdef.data,
                md5sum=c.digest,
                callerid=c.ext.callerid,
                latching=c.ext.latching,
            )

        def close() -> Path:
            writer.close()
            return target

        return writer, conns, close

    def _writer2(self, target: Path) -> tuple[Any, dict[int, Any], Callable[[], Path]]:
        from rosbags.rosbag2 import StoragePlugin, Writer
        from rosbags.rosbag2.enums import CompressionFormat, CompressionMode

        plugin = StoragePlugin.MCAP if self.storage == "mcap" else StoragePlugin.SQLITE3
        writer = Writer(target, version=8 if self.version == 8 else 9, storage_plugin=plugin)
        mode = self.reader.compression_mode
        if mode == "file":
            writer.set_compression(CompressionMode.FILE, CompressionFormat.ZSTD)
        elif mode == "message":
            writer.set_compression(CompressionMode.MESSAGE, CompressionFormat.ZSTD)
        elif self._mcap_chunks_compressed():
            writer.set_compression(CompressionMode.STORAGE, CompressionFormat.ZSTD)
        custom = getattr(getattr(self.reader.storage, "metadata", None), "custom", None)
        for k, v in (custom or {}).items():
            writer.set_custom_data(str(k), str(v))
        writer.open()
        conns: dict[int, Any] = {}
        for c in sorted(self.reader.connections, key=lambda c: c.id):
            msgdef, digest = c.msgdef.data, c.digest
            if not digest:  # bags before rosbag2 v7 store no hash: take rosbags' types
                store = Codec(c, ros1=False).store
                msgdef = msgdef or store.generate_msgdef(c.msgtype, ros_version=2)[0]
                digest = store.hash_rihs01(c.msgtype)
            conns[c.id] = writer.add_connection(
                c.topic,
                c.msgtype,
                msgdef=msgdef,
                rihs01=digest,
                serialization_format=c.ext.serialization_format,
                offered_qos_profiles=c.ext.offered_qos_profiles,
            )

        def close() -> Path:
            writer.close()
            if self.kind == "mcap":
                return target / f"{target.name}.mcap"
            return target

        return writer, conns, close

    def _mcap_chunks_compressed(self) -> bool:
        storage = self.reader.storage
        storages = getattr(storage, "storages", None) or [storage]
        return any(
            getattr(ch, "compression", "") for s in storages for ch in getattr(s, "chunks", [])
        )


def _ros2_version(path: Path) -> int:
    from ruamel.yaml import YAML

    try:
        meta = YAML(typ="safe").load((path / "metadata.yaml").read_text())
        return int(meta["rosbag2_bagfile_information"]["version"])
    except Exception:  # noqa: BLE001 - the reader reports a broken file itself
        return 9


def open_bag(path: str | os.PathLike[str]) -> BagInput:
    """Open a ROS 1 bag, ROS 2 bag folder or bare ``.mcap`` file for reading."""
    _rosbags()
    p = Path(path)
    kind = bag_kind(p)
    if kind is None:
        raise ValueError(
            f"{p}: not a bag: give a ROS 1 .bag file, a ROS 2 bag folder (with "
            "metadata.yaml) or an .mcap file"
        )
    try:
        if kind == "ros1":
            from rosbags.rosbag1 import Reader as Reader1

            reader: Any = Reader1(p)
        else:
            from rosbags.rosbag2 import Reader as Reader2

            reader = Reader2(p)
        reader.open()
    except Exception as exc:  # rosbags' ReaderError and friends
        raise ValueError(f"{p}: cannot read the bag: {exc}") from None
    bag = BagInput(path=p, kind=kind, reader=reader)
    if kind == "ros1":
        bag.version = 2
        from rosbags.rosbag1.reader import decompressors

        names = {id(f): n for n, f in decompressors.items()}
        kinds = sorted({names.get(id(c.decompressor), "?") for c in reader.chunks.values()})
        bag.compression = "chunks: " + ", ".join(kinds) if kinds else "none"
        counts: dict[int, int] = {}
        for ci in reader.chunk_infos:
            for cid, n in ci.connection_counts.items():
                counts[cid] = counts.get(cid, 0) + n
    else:
        if kind == "ros2":
            bag.version = _ros2_version(p)
            storage = reader.storage
            inner = storage.storages[0] if getattr(storage, "storages", None) else None
            bag.storage = "mcap" if type(inner).__name__ == "McapReader" else "sqlite3"
        else:
            bag.storage = "mcap"
        mode = reader.compression_mode
        if mode:
            bag.compression = f"{mode} ({reader.compression_format})"
        elif bag._mcap_chunks_compressed():
            bag.compression = "mcap chunks"
        counts = {c.id: c.msgcount for c in reader.connections}
    for c in reader.connections:
        name = normalize_topic(c.topic)
        info = bag.topics.setdefault(name, TopicInfo(name, c.msgtype, 0))
        info.connections.append(c)
        info.count += counts.get(c.id, 0)
    return bag
