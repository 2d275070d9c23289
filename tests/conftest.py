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
