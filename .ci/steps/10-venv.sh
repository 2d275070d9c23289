#!/usr/bin/env bash
# A fresh virtual environment, .ci-venv, for the steps after the build: the repaired
# wheel and its test and lint extras go into it, nothing from the checkout.
set -euo pipefail
. .ci/lib.sh

if ! "$CI_PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then
  apt_install python3-venv
fi
"$CI_PYTHON" -m venv --clear "$CI_VENV"
"$CI_VENV/bin/python" -m pip install -q --upgrade pip
"$CI_VENV/bin/python" --version
