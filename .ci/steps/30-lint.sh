#!/usr/bin/env bash
# The linters of the lint extra, on the checkout.
set -euo pipefail
. .ci/lib.sh

ruff check .
ruff format --check .
cython-lint src/fastnoise
clang-format --dry-run --Werror csrc/*.c csrc/*.h csrc/device/*.h csrc/device/*.c csrc/device/*.cu
# The layers and the absence of import cycles (pyproject.toml [tool.importlinter]), on
# the checkout's sources rather than the installed wheel; well under a second.
PYTHONPATH=src lint-imports --no-cache --no-logo
