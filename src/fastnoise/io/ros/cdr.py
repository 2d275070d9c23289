"""The fields of a serialized ``sensor_msgs/Image`` or ``sensor_msgs/PointCloud2`` that
the noise reads, taken straight from its CDR bytes (what an rclpy subscription made with
``raw=True`` receives, and what a ROS 2 bag stores), with no deserialization.

A parsed message (:class:`CdrImage`, :class:`CdrPointCloud2`) carries the ROS field
names the handlers of :class:`~fastnoise.io.ros.noise.TopicNoise` read (``header.stamp``,
``height``, ``width``, ``encoding``, ``fields``, ...) and ``data``: a 1-D ``uint8`` view
of the data bytes inside the buffer (read-only when the buffer is ``bytes``). Its
:meth:`~CdrMessage.new_record` gives a record of the same size that holds every byte of
the input except the data, and the view of the data's place in it: noised with
``noise.apply_inplace(msg, None, out=view)`` (the ``out`` protocol of the Image and
PointCloud2 handlers), then closed with :meth:`~CdrMessage.finish`, it is the noised
message, serialized, without a second serialization. The bits are those of the same
message deserialized, noised and serialized again.

The layout read is ROS 2's CDR (OMG CDR, XCDR version 1, as rmw_fastrtps_cpp and
rosbags write it):

- a 4-byte encapsulation header: ``00 01`` little-endian, ``00 00`` big-endian, then
  two option bytes; any other kind (XCDR2, parameter lists) is refused with
  :class:`EncapsulationError`, for the caller to deserialize the message instead;
- each primitive aligned to its own size (1, 4 bytes here), counted from the first
  byte after the encapsulation header;
- a string: its ``uint32`` length including the terminating NUL, the bytes, the NUL;
- a sequence: its ``uint32`` element count, then the elements (``uint8[]``: the bytes).

Every message that starts with a ``std_msgs/Header`` holds ``header.stamp.sec``
(int32) at byte :data:`STAMP_OFFSET`, ``stamp.nanosec`` (uint32) 4 bytes later and the
length of ``header.frame_id`` at byte :data:`FRAME_ID_OFFSET`, its characters after it.

A buffer that is too short for what it announces, a string without its NUL, a length
beyond the buffer or bytes left over past the last field is refused with a ValueError
naming the message type, the field and the byte offsets. No rclpy or rosbags import:
this module reads bytes only.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from fastnoise.core.buffers import bytes_with_view

__all__ = [
    "FRAME_ID_OFFSET",
    "PARSERS",
    "STAMP_OFFSET",
    "CdrHeader",
    "CdrImage",
    "CdrMessage",
    "CdrPointCloud2",
    "CdrPointField",
    "CdrTime",
    "EncapsulationError",
    "header_of",
    "parse_image",
    "parse_pointcloud2",
    "record_without_data",
    "serialized",
]

#: byte offset of ``header.stamp.sec`` (``stamp.nanosec`` follows) in a serialized
#: message that starts with a ``std_msgs/Header``
STAMP_OFFSET = 4
#: byte offset of the ``uint32`` length of ``header.frame_id`` (its bytes follow)
FRAME_ID_OFFSET = 12

_ORIGIN = 4  # alignment counts from the byte after the encapsulation header
_LITTLE, _BIG = b"\x00\x01", b"\x00\x00"
_U32 = {"<": struct.Struct("<I"), ">": struct.Struct(">I")}
_I32 = {"<": struct.Struct("<i"), ">": struct.Struct(">i")}
_MAX_PAD = 3  # a serializer may pad the record to a multiple of 4 bytes


def record_without_data(raw: Any, offset: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(record, out)``: a new uint8 array as long as the serialized ``raw`` holding
    all its bytes except the ``size`` data bytes at ``offset``, and ``out``, the view
    of that place (the noise writes the data there: one pass, no second copy). The
    record's memory is a new ``bytes`` object, ``serialized(record)``, to publish once
    it is filled (no ``tobytes`` copy)."""
    src = np.frombuffer(raw, dtype=np.uint8)
    record = bytes_with_view(src.size)[1]
    stop = offset + size
    record[:offset] = src[:offset]
    record[stop:] = src[stop:]
    return record, record[offset:stop]


def serialized(record: np.ndarray) -> bytes:
    """The ``bytes`` object under a record of :func:`record_without_data` (filled: the
    data written, :meth:`CdrMessage.finish` called), for ``Publisher.publish``; no
    copy. TypeError for an array that is not such a record."""
    base = record.base
    if type(base) is not bytes or record.ndim != 1 or record.size != len(base):
        raise TypeError("record must be a whole record made by record_without_data")
    return base


class EncapsulationError(ValueError):
    """The buffer is not plain CDR (``00 01`` or ``00 00``): XCDR2, a parameter list or
    something else; deserialize the message with the middleware instead."""


class CdrTime:
    """``builtin_interfaces/Time``: ``sec`` (s), ``nanosec`` (ns)."""

    __slots__ = ("nanosec", "sec")

    def __init__(self, sec: int, nanosec: int) -> None:
        self.sec = sec
        self.nanosec = nanosec

    def __repr__(self) -> str:
        return f"CdrTime(sec={self.sec}, nanosec={self.nanosec})"


class CdrHeader:
    """``std_msgs/Header``: ``stamp`` and ``frame_id``."""

    __slots__ = ("frame_id", "stamp")

    def __init__(self, stamp: CdrTime, frame_id: str) -> None:
        self.stamp = stamp
        self.frame_id = frame_id

    def __repr__(self) -> str:
        return f"CdrHeader(stamp={self.stamp!r}, frame_id={self.frame_id!r})"


class CdrPointField:
    """``sensor_msgs/PointField``: ``name``, ``offset`` (bytes into the point),
    ``datatype`` (1 INT8 ... 8 FLOAT64), ``count``."""

    __slots__ = ("count", "datatype", "name", "offset")

    def __init__(self, name: str, offset: int, datatype: int, count: int) -> None:
        self.name = name
        self.offset = offset
        self.datatype = datatype
        self.count = count

    def __repr__(self) -> str:
        return (
            f"CdrPointField(name={self.name!r}, offset={self.offset}, "
            f"datatype={self.datatype}, count={self.count})"
        )


class _Reader:
    """Reads one serialized message field by field, checking every bound."""

    __slots__ = ("end", "order", "pos", "view", "what")

    def __init__(self, buf: Any, what: str) -> None:
        try:
            view = memoryview(buf)
        except TypeError:
            raise TypeError(
                f"a serialized {what} must be a bytes-like object, not {type(buf).__name__}"
            ) from None
        if view.ndim != 1 or view.itemsize != 1:
            view = view.cast("B")
        self.view = view
        self.what = what
        self.end = view.nbytes
        if self.end < _ORIGIN:
            raise ValueError(
                f"serialized {what}: {self.end} bytes, fewer than the 4-byte encapsulation header"
            )
        kind = bytes(view[:2])
        if kind == _LITTLE:
            self.order = "<"
        elif kind == _BIG:
            self.order = ">"
        else:
            raise EncapsulationError(
                f"serialized {what}: encapsulation {kind.hex(' ')} is not plain CDR "
                "(00 01 little-endian or 00 00 big-endian)"
            )
        self.pos = _ORIGIN

    def _take(self, size: int, field: str) -> int:
        """The offset of ``size`` bytes of ``field`` at the next ``size``-aligned byte."""
        pos = self.pos
        if size > 1:
            pos += -(pos - _ORIGIN) % size
        if pos + size > self.end:
            raise ValueError(
                f"serialized {self.what}: truncated: field {field!r} needs bytes "
                f"{pos}..{pos + size - 1}, the buffer has {self.end}"
            )
        self.pos = pos + size
        return pos

    def u8(self, field: str) -> int:
        return int(self.view[self._take(1, field)])

    def u32(self, field: str) -> int:
        return int(_U32[self.order].unpack_from(self.view, self._take(4, field))[0])

    def i32(self, field: str) -> int:
        return int(_I32[self.order].unpack_from(self.view, self._take(4, field))[0])

    def sequence(self, field: str, element: int = 1) -> tuple[int, int]:
        """(offset, element count) of a sequence of ``element``-byte items."""
        n = self.u32(field)
        start = self.pos
        if n and element > 1:
            start += -(start - _ORIGIN) % element
        if n * element > self.end - start:
            raise ValueError(
                f"serialized {self.what}: field {field!r} announces {n} x {element} bytes "
                f"at byte {start}, past the end of the {self.end}-byte buffer"
            )
        self.pos = start + n * element
        return start, n

    def string(self, field: str) -> str:
        start, n = self.sequence(field)
        if n == 0:  # some writers give an empty string no terminator
            return ""
        if self.view[start + n - 1] != 0:
            raise ValueError(
                f"serialized {self.what}: string {field!r} at byte {start} does not end "
                "with its NUL terminator"
            )
        raw = bytes(self.view[start : start + n - 1])
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(
                f"serialized {self.what}: string {field!r} at byte {start} is not UTF-8: {exc}"
            ) from None

    def header(self) -> CdrHeader:
        sec = self.i32("header.stamp.sec")
        nanosec = self.u32("header.stamp.nanosec")
        return CdrHeader(CdrTime(sec, nanosec), self.string("header.frame_id"))

    def done(self) -> None:
        left = self.end - self.pos
        if left > _MAX_PAD:
            raise ValueError(
                f"serialized {self.what}: {left} bytes after the last field (byte "
                f"{self.pos} of {self.end}): not this message type"
            )


class CdrMessage:
    """What the two parsed types share: the source buffer, the data span and the record
    written back (see :mod:`fastnoise.io.ros.cdr`)."""

    __slots__ = ("_source", "data", "data_offset", "data_size", "header")

    #: the ROS message type, "pkg/Name"
    msgtype = ""

    def __init__(self, source: memoryview, header: CdrHeader, offset: int, size: int) -> None:
        self._source = source
        self.header = header
        #: byte offset of the first data byte in the serialized message
        self.data_offset = offset
        #: bytes of data in the serialized message
        self.data_size = size
        #: the data bytes, a 1-D uint8 view into the source buffer
        self.data: np.ndarray = np.frombuffer(source, dtype=np.uint8, count=size, offset=offset)

    @property
    def size(self) -> int:
        """Bytes of the serialized message."""
        return self._source.nbytes

    def new_record(self) -> tuple[np.ndarray, np.ndarray]:
        """``(record, out)``: a new uint8 array of the serialized message's size holding
        every byte of it except the data, and ``out``, the view of the data's place in
        it (for ``TopicNoise.apply_inplace(msg, None, out)``)."""
        return record_without_data(self._source, self.data_offset, self.data_size)

    def finish(self, record: np.ndarray) -> np.ndarray:
        """Close ``record`` (from :meth:`new_record`) after the noise: the data is put
        at its place when the handler left it elsewhere (same size only), and the
        scalar fields a handler may change are written; returns ``record``. ValueError
        when the message's layout changed (the serialized form cannot grow or shrink)."""
        start, size = self.data_offset, self.data_size
        data = self.data
        place = record[start : start + size]
        if not (isinstance(data, np.ndarray) and data.dtype == np.uint8 and data.shape == (size,)):
            got = getattr(data, "shape", type(data).__name__)
            raise ValueError(
                f"serialized {self.msgtype}: the noised data ({got}) does not fit the "
                f"{size} bytes of the record"
            )
        if data.ctypes.data != place.ctypes.data:
            place[...] = data
        return record


class CdrImage(CdrMessage):
    """A serialized ``sensor_msgs/Image``: ``header``, ``height``, ``width`` (pixels),
    ``encoding``, ``is_bigendian``, ``step`` (bytes per row) and ``data``."""

    __slots__ = ("encoding", "height", "is_bigendian", "step", "width")
    msgtype = "sensor_msgs/Image"
    height: int
    width: int
    encoding: str
    is_bigendian: int
    step: int


class CdrPointCloud2(CdrMessage):
    """A serialized ``sensor_msgs/PointCloud2``: ``header``, ``height``, ``width``,
    ``fields`` (:class:`CdrPointField`), ``is_bigendian``, ``point_step`` and
    ``row_step`` (bytes), ``data`` and ``is_dense``. A handler may clear ``is_dense``
    (a point made NaN); :meth:`finish` writes it. ``height``, ``width`` and
    ``row_step`` cannot change (the serialized form keeps its size)."""

    __slots__ = (
        "_dense_offset",
        "_layout",
        "fields",
        "height",
        "is_bigendian",
        "is_dense",
        "point_step",
        "row_step",
        "width",
    )
    msgtype = "sensor_msgs/PointCloud2"
    height: int
    width: int
    fields: list[CdrPointField]
    is_bigendian: int
    point_step: int
    row_step: int
    is_dense: bool
    _dense_offset: int
    _layout: tuple[int, int, int, int]

    def finish(self, record: np.ndarray) -> np.ndarray:
        if (self.height, self.width, self.point_step, self.row_step) != self._layout:
            raise ValueError(
                f"serialized {self.msgtype}: height, width, point_step or row_step changed "
                f"from {self._layout}: points cannot be removed in the serialized message"
            )
        super().finish(record)
        record[self._dense_offset] = 1 if self.is_dense else 0
        return record


def parse_image(buf: Any) -> CdrImage:
    """The :class:`CdrImage` of a serialized ``sensor_msgs/Image`` (bytes, bytearray,
    memoryview or a uint8 array; not copied)."""
    r = _Reader(buf, CdrImage.msgtype)
    header = r.header()
    height = r.u32("height")
    width = r.u32("width")
    encoding = r.string("encoding")
    is_bigendian = r.u8("is_bigendian")
    step = r.u32("step")
    offset, size = r.sequence("data")
    r.done()
    msg = CdrImage(r.view, header, offset, size)
    msg.height, msg.width, msg.encoding = height, width, encoding
    msg.is_bigendian, msg.step = is_bigendian, step
    return msg


def parse_pointcloud2(buf: Any) -> CdrPointCloud2:
    """The :class:`CdrPointCloud2` of a serialized ``sensor_msgs/PointCloud2`` (bytes,
    bytearray, memoryview or a uint8 array; not copied)."""
    r = _Reader(buf, CdrPointCloud2.msgtype)
    header = r.header()
    height = r.u32("height")
    width = r.u32("width")
    n = r.u32("fields")
    # a PointField takes 13 bytes at least (an empty name, offset, datatype, count)
    if n * 13 > r.end - r.pos:
        raise ValueError(
            f"serialized {r.what}: field 'fields' announces {n} PointFields at byte "
            f"{r.pos}, more than the {r.end}-byte buffer holds"
        )
    fields = []
    for i in range(n):
        name = r.string(f"fields[{i}].name")
        offset = r.u32(f"fields[{i}].offset")
        datatype = r.u8(f"fields[{i}].datatype")
        fields.append(CdrPointField(name, offset, datatype, r.u32(f"fields[{i}].count")))
    is_bigendian = r.u8("is_bigendian")
    point_step = r.u32("point_step")
    row_step = r.u32("row_step")
    offset, size = r.sequence("data")
    dense_offset = r._take(1, "is_dense")
    is_dense = r.view[dense_offset]
    r.done()
    msg = CdrPointCloud2(r.view, header, offset, size)
    msg.height, msg.width, msg.fields = height, width, fields
    msg.is_bigendian, msg.point_step, msg.row_step = is_bigendian, point_step, row_step
    msg.is_dense = bool(is_dense)
    msg._dense_offset = dense_offset
    msg._layout = (height, width, point_step, row_step)
    return msg


def header_of(buf: Any) -> CdrHeader:
    """The ``std_msgs/Header`` at the start of a serialized message (stamp and
    ``frame_id``)."""
    return _Reader(buf, "message").header()


#: message type ("pkg/Name") -> its parser
PARSERS = {
    CdrImage.msgtype: parse_image,
    CdrPointCloud2.msgtype: parse_pointcloud2,
}
