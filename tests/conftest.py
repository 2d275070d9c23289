"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest

import fastnoise


@pytest.fixture(params=fastnoise.simd_paths_available())
def simd_path(request):
    """Runs the test once per kernel path this CPU has, then restores the path."""
    before = fastnoise.simd_path()
    fastnoise.set_simd_path(request.param)
    yield request.param
    fastnoise.set_simd_path(before)


#: Marks a test of the recycled result memory, which a sanitizer build turns off (each
#: result gets its own malloc block there, so ASan sees overflows past its end).
needs_recycling = pytest.mark.skipif(
    __import__("fastnoise.core.buffers", fromlist=["SANITIZED"]).SANITIZED,
    reason="sanitizer build: results are not recycled",
)
