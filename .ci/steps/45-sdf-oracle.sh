#!/usr/bin/env bash
# load_sensors against sdformat itself (issue #25): install Debian's libsdformat-dev
# (sdformat 12), build the small oracle tools/sdf_oracle/sdf_oracle.cc against it, and
# run tests/test_sdf_oracle.py with it on the real SDF files of tests/data/sdf: the 47
# loose ones and all 579 of the upstream archives (one oracle process per core, up to
# 4). -rP prints the counts (files, parsed by both, refused by both, explained
# differences, sensors compared). Budget: under 2 minutes with the apt install and the
# build. The two 3k_shapes.sdf files (about 30 s of sdformat CPU each, no sensor) join
# only with FASTNOISE_SDF_ORACLE_SLOW=1.
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
  python -m pytest -q -p no:cacheprovider tests/test_sdf_oracle.py -rsP
