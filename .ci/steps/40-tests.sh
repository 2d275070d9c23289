#!/usr/bin/env bash
# The README's test command (tests/ and bench/, timing disabled) and, beside it, the tests
# on the baseline (no-SIMD) path, against the wheel installed in .ci-venv: pytest runs
# from the checkout (the tests read its files) and imports fastnoise from site-packages.
# The second run leaves out the tests marked python_only (specs, registry, deprecations,
# layers): they run no C code of their own, so the first run is enough.
set -euo pipefail
. .ci/lib.sh

# src/ must not be importable: no pythonpath in the pytest configuration, and from the
# repository root `import fastnoise` finds the venv's copy.
if grep -Eq '^[[:space:]]*pythonpath[[:space:]]*=' pyproject.toml; then
  echo "pyproject.toml sets pytest's pythonpath: the tests would import src/" >&2
  exit 1
fi
python - <<'PY'
import sys
import sysconfig
from pathlib import Path

import fastnoise

site = Path(sysconfig.get_paths()["platlib"]).resolve()
where = Path(fastnoise.__file__).resolve()
print(f"-- fastnoise {fastnoise.__version__} from {where}")
if site not in where.parents:
    sys.exit(f"fastnoise is imported from {where}, not from the venv's {site}")
PY

# The two runs go at once, one per core; the step fails if either fails.
pytest_pair build/ci-tests-logs readme scalar \
  -- python -m pytest -q \
  -- env FASTNOISE_SIMD=scalar python -m pytest -q -p no:cacheprovider -m "not python_only" tests
