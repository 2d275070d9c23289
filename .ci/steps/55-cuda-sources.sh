#!/usr/bin/env bash
# The GPU path without a GPU (issue 18): the kernels fastnoise.cuda compiles at run time
# must build, and must compute the CPU's bits.
#  1. nvcc (CUDA 13 on this machine kind; the step says so and skips this part where it
#     is missing) compiles csrc/device/kernels.cu for Ampere and Hopper with the
#     options of the run-time build, warnings as errors;
#  2. NVRTC itself, from the nvidia-cuda-nvrtc wheel, compiles it to PTX without a GPU
#     (NVRTC has no standard headers: the guards of csrc/fnhd.h are what this checks),
#     and the PTX shows only correctly rounded, unfused float operations;
#  3. the thread bodies, built as host C from the sources installed in the wheel,
#     give the CPU kernels' bits (tests/test_cuda_host.py; 2 and 3 must not skip).
set -euo pipefail
. .ci/lib.sh

opts=(--fmad=false --prec-sqrt=true --prec-div=true --ftz=false -std=c++17
  -Werror all-warnings -Icsrc -Icsrc/device)
if command -v nvcc >/dev/null 2>&1; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  for arch in sm_80 sm_90; do
    echo "-- nvcc -arch=$arch csrc/device/kernels.cu"
    nvcc "${opts[@]}" -arch=$arch -c csrc/device/kernels.cu -o "$out/kernels_$arch.o"
  done
else
  echo "-- nvcc not found: the nvcc compile is skipped (NVRTC and host checks still run)"
fi

python -m pip install -q "nvidia-cuda-nvrtc>=13,<14"
log=$(mktemp)
status=0
python -m pytest -q -p no:cacheprovider -rs tests/test_cuda_host.py tests/test_camera_gpu_host.py \
  tests/test_lidar_gpu_host.py >"$log" 2>&1 || status=$?
cat "$log"
if [ "$status" -ne 0 ]; then
  exit "$status"
fi
if grep -q "SKIPPED" "$log"; then
  echo "the GPU sources' host checks must not skip here" >&2
  exit 1
fi
