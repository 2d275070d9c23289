# Sourced by the .ci/steps scripts: defaults for a step run on its own
# (bash .ci/steps/NN-name.sh from the repository root) and small helpers.

CI_PYTHON=${CI_PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}
CI_VENV=${CI_VENV:-$PWD/.ci-venv}

# apt_install PACKAGE...: apt-get install (CI runs as root on a fresh Debian/Ubuntu).
apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "no apt-get: install $* first" >&2
    return 1
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
  fi
  echo "-- apt-get install $*"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# need_apt COMMAND PACKAGE...: install the packages only when COMMAND is missing.
need_apt() {
  local cmd=$1
  shift
  if ! command -v "$cmd" >/dev/null 2>&1; then
    echo "-- $cmd is missing"
    apt_install "$@"
  fi
}

# pytest_pair LOGDIR NAME_A NAME_B -- CMD_A... -- CMD_B...: run two pytest commands at
# once, one per core (each pytest is one process), so the step takes the time of the
# slower. Each gets its own --basetemp and log under LOGDIR, printed whole when both are
# done; returns nonzero if either failed. Put environment settings in the commands with
# `env VAR=value`.
pytest_pair() {
  local logs=$1 name_a=$2 name_b=$3
  shift 3
  local -a cmd_a=() cmd_b=()
  if [ "${1:-}" != "--" ]; then
    echo "pytest_pair: expected -- before the first command" >&2
    return 2
  fi
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    cmd_a+=("$1")
    shift
  done
  if [ $# -eq 0 ] || [ ${#cmd_a[@]} -eq 0 ]; then
    echo "pytest_pair: expected two commands separated by --" >&2
    return 2
  fi
  shift
  cmd_b=("$@")
  mkdir -p "$logs"
  "${cmd_a[@]}" --basetemp="$logs/tmp-$name_a" >"$logs/$name_a.log" 2>&1 &
  local pid_a=$!
  "${cmd_b[@]}" --basetemp="$logs/tmp-$name_b" >"$logs/$name_b.log" 2>&1 &
  local pid_b=$!
  local rc_a=0 rc_b=0
  wait "$pid_a" || rc_a=$?
  wait "$pid_b" || rc_b=$?
  echo "-- $name_a (exit $rc_a)"
  cat "$logs/$name_a.log"
  echo "-- $name_b (exit $rc_b)"
  cat "$logs/$name_b.log"
  if [ "$rc_a" -eq 0 ] && [ "$rc_b" -eq 0 ]; then
    # the tests' files (a few hundred MB: recorded clouds, bags) are not needed once
    # both runs passed; a failed run keeps them for a look
    rm -rf "$logs/tmp-$name_a" "$logs/tmp-$name_b"
    return 0
  fi
  disk_report
  return 1
}

# disk_report: the free space where the checkout lies, printed when a step fails (a
# full disk fails tests in ways that name something else: fixtures, pytest itself).
disk_report() {
  echo "-- free space: $(df -h --output=avail . | tail -n 1 | tr -d ' ') on $(df --output=target . | tail -n 1)"
}
