"""cmake/NestedBuild.cmake, the outer CMake project that scikit-build-core configures
(issue 29: a reinstall in a new pip build environment compiles nothing that is
unchanged). Each case builds a one-file C library the way CMakeLists.txt builds
fastnoise (an outer project with LANGUAGES NONE, the real one nested in <build>/core)
and then does what scikit-build-core does on a new build environment: it deletes the
outer CMakeCache.txt and CMakeFiles/ and configures, builds and installs again.

Checked: after the deletion nothing is compiled again; a changed source or a changed
-D value is compiled again and the installed library has the change; a -D no longer
given is dropped from the nested cache; a nested build made by another generator starts
afresh. Needs cmake (>= 3.21), ninja and a C compiler: skipped without them.
"""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NESTED = Path(__file__).resolve().parents[1] / "cmake" / "NestedBuild.cmake"
pytestmark = [
    pytest.mark.python_only,
    pytest.mark.skipif(
        shutil.which("cmake") is None
        or shutil.which("ninja") is None
        or (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")) is None
        or not sys.platform.startswith("linux"),
        reason="needs cmake, ninja and a C compiler (Linux)",
    ),
]

PROJECT = """\
cmake_minimum_required(VERSION 3.21)
if(SKBUILD AND NOT INNER)
  project(outer LANGUAGES NONE)
  include("{nested}")
  fn_nested_build(core INNER)
  return()
endif()
project(inner LANGUAGES C)
add_library(t SHARED t.c)
target_compile_definitions(t PRIVATE "VALUE=${{VALUE}}")
install(TARGETS t DESTINATION lib)
"""


def _run(*cmd: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.build = root / "build"
        self.prefix = root / "prefix-0"
        (root / "CMakeLists.txt").write_text(PROJECT.format(nested=NESTED.as_posix()))
        self.set_source(1)

    def set_source(self, offset: int) -> None:
        (self.root / "t.c").write_text(f"int value(void) {{ return VALUE + {offset}; }}\n")

    def wipe_like_scikit_build_core(self) -> None:
        (self.build / "CMakeCache.txt").unlink(missing_ok=True)
        shutil.rmtree(self.build / "CMakeFiles", ignore_errors=True)

    def install(self, *defines: str, generator: str = "Ninja") -> str:
        """configure, build and install as scikit-build-core does; their output"""
        log = _run("cmake", "-G", generator, "-S", ".", "-B", self.build, "-DSKBUILD=2", *defines,
             cwd=self.root)  # fmt: skip
        log += _run("cmake", "--build", self.build, cwd=self.root)
        # a new, empty prefix each time, as scikit-build-core installs into a new wheel
        # folder (into an old one, cmake --install skips a file whose time differs from
        # the installed one's by less than a second)
        self.prefix = self.root / f"prefix-{len(list(self.root.glob('prefix-*')))}"
        _run("cmake", "--install", self.build, "--prefix", self.prefix, "--strip", cwd=self.root)
        return log

    def value(self) -> int:
        # a copy under a new name each time: dlopen of the same path would return the
        # library loaded before
        copy = self.root / f"lib-{len(list(self.root.glob('lib-*.so')))}.so"
        shutil.copyfile(self.prefix / "lib" / "libt.so", copy)
        return int(ctypes.CDLL(str(copy)).value())


def _compiled(log: str) -> int:
    return len(re.findall(r"Building C object", log))


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


def test_a_new_build_environment_compiles_nothing_again(project):
    assert _compiled(project.install("-DVALUE=10")) == 1
    assert project.value() == 11
    assert (project.build / "core" / "CMakeFiles").is_dir()

    project.wipe_like_scikit_build_core()
    log = project.install("-DVALUE=10")
    assert _compiled(log) == 0 and "no work to do" in log
    assert project.value() == 11


def test_a_changed_source_or_define_is_compiled_and_installed(project):
    project.install("-DVALUE=10")
    project.set_source(5)
    project.wipe_like_scikit_build_core()
    assert _compiled(project.install("-DVALUE=10")) == 1
    assert project.value() == 15

    project.wipe_like_scikit_build_core()
    assert _compiled(project.install("-DVALUE=20")) == 1
    assert project.value() == 25


def test_a_define_no_longer_given_is_dropped_from_the_nested_cache(project):
    project.install("-DVALUE=10", "-DEXTRA_SETTING=on")
    cache = project.build / "core" / "CMakeCache.txt"
    assert "EXTRA_SETTING:STRING=on" in cache.read_text()
    project.wipe_like_scikit_build_core()
    project.install("-DVALUE=10")
    assert "EXTRA_SETTING" not in cache.read_text()
    assert "VALUE:STRING=10" in cache.read_text()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_another_generator_starts_the_nested_build_afresh(project):
    project.install("-DVALUE=10")
    shutil.rmtree(project.build / "CMakeFiles")
    (project.build / "CMakeCache.txt").unlink()
    (project.build / "build.ninja").unlink()
    log = project.install("-DVALUE=30", generator="Unix Makefiles")
    assert "starting afresh" in log and _compiled(log) == 1
    assert project.value() == 31
