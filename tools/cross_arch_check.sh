#!/usr/bin/env bash
# Build the random core for aarch64 (the plain C path) and run it under qemu: its
# normals must hash to the digests in tests/test_reproducibility.py, as the x86-64
# scalar, AVX2 and AVX-512 builds do. Needs (Debian):
#   apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
flags="-O3 -std=c11 -ffp-contract=off -fno-math-errno -fno-trapping-math -Icsrc"
for src in csrc/normal.c csrc/dispatch.c; do
  aarch64-linux-gnu-gcc $flags -c "$src" -o "$out/$(basename "$src" .c).o"
done
aarch64-linux-gnu-gcc $flags -DFN_SUFFIX=_scalar -c csrc/normal_kern.c -o "$out/kern.o"
aarch64-linux-gnu-gcc $flags -static tools/dump_normals.c "$out"/*.o -lm -o "$out/dump"
qemu-aarch64 "$out/dump" > "$out/normals.bin"
python3 - "$out/normals.bin" <<'PY'
import hashlib, sys
raw = open(sys.argv[1], "rb").read()
n = 1 << 22
print("float64", hashlib.sha256(raw[: 8 * n]).hexdigest())
print("float32", hashlib.sha256(raw[8 * n :]).hexdigest())
PY
rm -r "$out"
