"""CompressedImage codecs (OpenCV): decode to an array, encode back (split out of
:mod:`fastnoise.io.ros.messages`, which re-exports them)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.io.ros.bytes import message_bytes


def _cv2() -> Any:
    try:
        import cv2
    except ImportError:
        raise ImportError(
            "CompressedImage and image files need OpenCV: pip install 'fastnoise[files]'"
        ) from None
    return cv2


def compressed_codec(fmt: str, data: np.ndarray) -> str:
    """ ".png" or ".jpg": the codec of a CompressedImage (its ``format``, else its magic
    bytes). ``compressedDepth`` raises ValueError."""
    low = fmt.lower()
    if "compresseddepth" in low:
        raise ValueError(
            f"CompressedImage format {fmt!r} (compressedDepth) is not handled: its PNG "
            "holds quantized depth; record the raw depth Image (32FC1) instead"
        )
    if "png" in low:
        return ".png"
    if "jpeg" in low or "jpg" in low:
        return ".jpg"
    head = bytes(data[:4])
    if head.startswith(b"\x89PNG"):
        return ".png"
    if head.startswith(b"\xff\xd8"):
        return ".jpg"
    raise ValueError(f"CompressedImage format {fmt!r}: neither JPEG nor PNG")


def decode_compressed_image(msg: Any) -> np.ndarray:
    """The pixels of a ``sensor_msgs/CompressedImage`` (JPEG or PNG) as OpenCV decodes
    them: (H, W) grey or (H, W, 3|4) in B, G, R[, A] order, uint8 or uint16."""
    cv2 = _cv2()
    data = message_bytes(msg.data)
    if data.size == 0:
        raise ValueError(f"CompressedImage ({msg.format!r}) has empty data: no image to decode")
    compressed_codec(msg.format, data)
    try:
        img = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    except cv2.error as exc:  # a header OpenCV refuses outright
        msg_ = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"CompressedImage ({msg.format!r}) could not be decoded: {msg_}") from None
    if img is None:
        raise ValueError(f"CompressedImage ({msg.format!r}) could not be decoded")
    return img


def encode_compressed_image(
    msg: Any, pixels: np.ndarray, quality: int = 95, png_compression: int = 3
) -> None:
    """Encode ``pixels`` (OpenCV channel order) into ``msg.data`` with the codec of
    ``msg.format`` (JPEG at ``quality`` 0..100, PNG at level ``png_compression`` 0..9);
    ``msg.format`` is kept."""
    cv2 = _cv2()
    ext = compressed_codec(msg.format, message_bytes(msg.data))
    params = (
        [cv2.IMWRITE_JPEG_QUALITY, int(quality)]
        if ext == ".jpg"
        else [cv2.IMWRITE_PNG_COMPRESSION, int(png_compression)]
    )
    ok, buf = cv2.imencode(ext, pixels, params)
    if not ok:
        raise ValueError(f"CompressedImage ({msg.format!r}) could not be encoded")
    msg.data = buf.reshape(-1)
