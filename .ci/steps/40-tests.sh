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

# The two runs go at once, one per core (each pytest is one process), so the step takes
# the time of the slower; each has its own temporary directory and log, printed whole
# when both are done, and the step fails if either fails.
logs=build/ci-tests-logs
mkdir -p "$logs"
python -m pytest -q --basetemp="$logs/tmp-readme" >"$logs/readme.log" 2>&1 &
pid_readme=$!
FASTNOISE_SIMD=scalar python -m pytest -q -p no:cacheprovider -m "not python_only" \
  --basetemp="$logs/tmp-scalar" tests >"$logs/scalar.log" 2>&1 &
pid_scalar=$!
rc_readme=0
rc_scalar=0
wait "$pid_readme" || rc_readme=$?
wait "$pid_scalar" || rc_scalar=$?
echo "-- the README's test command (exit $rc_readme)"
cat "$logs/readme.log"
echo "-- scalar path (exit $rc_scalar)"
cat "$logs/scalar.log"
if [ "$rc_readme" -ne 0 ] || [ "$rc_scalar" -ne 0 ]; then
  exit 1
fi
