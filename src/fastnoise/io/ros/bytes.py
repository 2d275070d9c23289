"""The byte field of a message (``data``) as a numpy uint8 array, whatever type the
message library gave it."""

from __future__ import annotations

from typing import Any

import numpy as np


def message_bytes(data: Any) -> np.ndarray:
    """A message's byte field as a 1-D ``uint8`` array (a view where the buffer allows:
    read-only for ``bytes``)."""
    if isinstance(data, np.ndarray):
        if data.dtype == np.uint8 and data.ndim == 1:
            return data
        if data.dtype != np.uint8:
            data = data.view(np.uint8)
        return data.reshape(-1)
    if isinstance(data, list):
        return np.asarray(data, dtype=np.uint8)
    return np.frombuffer(data, dtype=np.uint8)
