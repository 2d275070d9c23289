#!/usr/bin/env bash
# Compile every csrc/*.c with gcc and with clang, warnings as errors, the way
# CMakeLists.txt builds them: plain sources once; *_kern.c once per SIMD target with
# -DFN_SUFFIX=_<target> and that target's flags (scalar: none; avx2; avx512). Then
# everything once more for aarch64, with a cross gcc and with clang --target: there
# simd.h's FN_X86 is 0, only the scalar kernels exist and the kernels take their plain
# C branches (no __SSE2__/__AVX2__). This compiles what the local build cannot run:
# the AVX-512 kernels on a CPU without AVX-512, the other compiler, the non-x86 code.
# Nothing is linked or run; tools/cross_arch_check.sh runs the aarch64 core under qemu.
set -euo pipefail
. .ci/lib.sh

need_apt gcc gcc libc6-dev
need_apt clang clang
need_apt aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu libc6-dev-arm64-cross

flags=(-std=c11 -Wall -Wextra -Werror -Wno-unused-parameter -ffp-contract=off
  -fno-math-errno -fno-trapping-math -Icsrc -c)
declare -A target_flags=(
  [scalar]=""
  [avx2]="-mavx2 -mfma"
  [avx512]="-mavx512f -mavx512dq -mavx512vl -mavx512bw -mavx2 -mfma"
)

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
jobs=$out/jobs
n=0
# job COMPILER_WORDS -- EXTRA_FLAGS... SOURCE: one compile, -O2 and -O3 (CMake's level;
# some warnings depend on the optimiser)
job() {
  local cc=$1
  shift
  local src=${*: -1}
  local opt
  for opt in -O2 -O3; do
    n=$((n + 1))
    echo "$cc ${flags[*]} $opt ${*:1:$#-1} $src -o $out/$n.o" >>"$jobs"
  done
}

for cc in gcc clang; do
  for src in csrc/*.c; do
    case $src in
      *_kern.c)
        for t in scalar avx2 avx512; do
          job "$cc" ${target_flags[$t]} "-DFN_SUFFIX=_$t" "$src"
        done
        ;;
      *) job "$cc" "$src" ;;
    esac
  done
done
for cc in aarch64-linux-gnu-gcc "clang --target=aarch64-linux-gnu"; do
  for src in csrc/*.c; do
    case $src in
      *_kern.c) job "$cc" -DFN_SUFFIX=_scalar "$src" ;;
      *) job "$cc" "$src" ;;
    esac
  done
done

compile() {
  local log
  # shellcheck disable=SC2086
  if ! log=$($1 2>&1); then
    printf 'FAILED: %s\n%s\n' "$1" "$log"
    return 1
  fi
}
export -f compile

gcc --version | head -1
clang --version | head -1
aarch64-linux-gnu-gcc --version | head -1
echo "-- $n compiles (${#target_flags[@]} x86-64 targets, aarch64; gcc and clang; -O2 and -O3)"
if ! xargs -P "$(nproc)" -d '\n' -n 1 bash -c 'compile "$0"' <"$jobs"; then
  echo "some compiles failed (above)" >&2
  exit 1
fi
echo "-- all $n compiled without warnings"
