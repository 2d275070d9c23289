#!/usr/bin/env bash
# Build and install the package with its test and lint extras into .ci-venv.
set -euo pipefail
. .ci/lib.sh

"$CI_VENV/bin/python" -m pip install -q ".[test,lint]"
