"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest

from fastnoise.core import simd


@pytest.fixture(params=simd.simd_paths_available())
def simd_path(request):
    """Runs the test once per kernel path this CPU has, then restores the path."""
    before = simd.simd_path()
    simd.set_simd_path(request.param)
    yield request.param
    simd.set_simd_path(before)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "needs_recycling: a test of the recycled result memory, which a sanitizer build "
        "turns off (each result gets its own malloc block there, so ASan sees overflows)",
    )


def pytest_collection_modifyitems(config, items):
    from fastnoise.core.buffers import SANITIZED

    if not SANITIZED:
        return
    skip = pytest.mark.skip(reason="sanitizer build: results are not recycled")
    for item in items:
        if "needs_recycling" in item.keywords:
            item.add_marker(skip)
