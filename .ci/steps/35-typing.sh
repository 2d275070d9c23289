#!/usr/bin/env bash
# Typing: the stubs of the installed wheel match the runtime, checked as a user would
# (a plain `python -m mypy.stubtest fastnoise`: no config file, every module, the
# allowlist holding only Cython internals), and user-style code type-checks under
# mypy --strict against them: the API tour of every public name, the dtype overloads
# of normal/standard_normal, and the examples.
set -euo pipefail
. .ci/lib.sh

python -m pip install -q "mypy>=1.11" "typing_extensions>=4.15"
# from outside the checkout, so `fastnoise` is the installed wheel, not src/, and no
# config of the repository applies
here=$PWD
cd "$(mktemp -d)"
python -m mypy.stubtest fastnoise --allowlist "$here/tools/stubtest_allowlist.txt"
# the shipped modules type-check with mypy's defaults too (no config file)
python -m mypy -p fastnoise
python -m mypy --strict --config-file "$here/pyproject.toml" \
  "$here/tools/typing/api_tour.py" "$here/tools/typing/generator_dtypes.py" \
  "$here"/examples/*.py
python "$here/tools/typing/api_tour.py"
python "$here/tools/typing/generator_dtypes.py"
