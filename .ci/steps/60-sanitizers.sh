#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer: the C core and the extensions built
# with -DFN_SANITIZE=ON (no recovery, Cython bounds checks on, results from malloc),
# tests/ run against that build on the default and the scalar path (at once, one core
# each) with the sanitizer runtimes preloaded, less the tests marked python_only (specs, registry,
# deprecations, layers: no C code of their own; step 40 runs them). First a canary with
# a planted overflow must die with an AddressSanitizer report, or this job could not
# catch a real one.
set -euo pipefail
. .ci/lib.sh

need_apt gcc gcc libc6-dev
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
for lib in "$asan" "$ubsan"; do
  if [ ! -e "$lib" ]; then
    echo "sanitizer runtime $lib is missing (gcc's libasan/libubsan)" >&2
    exit 1
  fi
done

san_venv=$PWD/.ci-venv-san
"$CI_PYTHON" -m venv --clear "$san_venv"
spy=$san_venv/bin/python
"$spy" -m pip install -q --upgrade pip
mapfile -t build_requires < <("$spy" -c '
import tomllib
with open("pyproject.toml", "rb") as f:
    print("\n".join(tomllib.load(f)["build-system"]["requires"]))')
"$spy" -m pip install -q "${build_requires[@]}" "cmake>=3.21" ninja
"$spy" -m pip install -q --no-build-isolation ".[test]" \
  -C cmake.define.FN_SANITIZE=ON -C build-dir=build/ci-sanitize

export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
preload="$asan $ubsan"

echo "-- canary: a planted heap overflow must be reported"
if LD_PRELOAD=$preload "$spy" tools/sanitizer_canary.py >canary.log 2>&1; then
  cat canary.log
  echo "the planted overflow was not reported: the sanitizer build is not checking" >&2
  exit 1
fi
grep -m1 "AddressSanitizer: heap-buffer-overflow" canary.log
rm -f canary.log

# The two paths run at once, one per core; the step fails if either fails.
echo "-- tests/ under ASan + UBSan, default and scalar paths at once"
pytest_pair build/ci-sanitize-logs default scalar \
  -- env LD_PRELOAD="$preload" "$spy" -m pytest -q -p no:cacheprovider -m "not python_only" tests \
  -- env LD_PRELOAD="$preload" FASTNOISE_SIMD=scalar "$spy" -m pytest -q -p no:cacheprovider \
  -m "not python_only" tests
