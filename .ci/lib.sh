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
