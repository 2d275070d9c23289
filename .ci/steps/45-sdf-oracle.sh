#!/usr/bin/env bash
# load_sensors against sdformat itself (issue #25): install Debian's libsdformat-dev
# (sdformat 12), build the small oracle tools/sdf_oracle/sdf_oracle.cc against it, and
# run tests/test_sdf_oracle.py with it on the real SDF files of tests/data/sdf. Budget:
# under 2 minutes with the apt install and the build (about 30 s of them here).
set -euo pipefail
. .ci/lib.sh

if ! pkg-config --exists sdformat12 2>/dev/null; then
  apt_install libsdformat-dev pkg-config g++
fi
need_apt g++ g++
mkdir -p build
# shellcheck disable=SC2046  # pkg-config prints several words on purpose
g++ -O1 -std=c++17 tools/sdf_oracle/sdf_oracle.cc -o build/sdf_oracle \
  $(pkg-config --cflags --libs sdformat12)
FASTNOISE_SDF_ORACLE=$PWD/build/sdf_oracle \
  python -m pytest -q -p no:cacheprovider tests/test_sdf_oracle.py -rs
