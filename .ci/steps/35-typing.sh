#!/usr/bin/env bash
# Typing: the stubs of the installed wheel match the runtime (stubtest, with a short
# allowlist of justified entries), and user-style code type-checks under
# mypy --strict against them: the API tour of every public name, and the examples.
set -euo pipefail
. .ci/lib.sh

python -m pip install -q "mypy>=1.11" "typing_extensions>=4.15"
# from outside the checkout, so `fastnoise` is the installed wheel, not src/
here=$PWD
cd "$(mktemp -d)"
python -m mypy.stubtest fastnoise --ignore-missing-stub \
  --mypy-config-file "$here/pyproject.toml" \
  --allowlist "$here/tools/stubtest_allowlist.txt"
python -m mypy --strict --config-file "$here/pyproject.toml" \
  "$here/tools/typing/api_tour.py" "$here"/examples/*.py
python "$here/tools/typing/api_tour.py"
