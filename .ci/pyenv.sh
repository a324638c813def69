#!/usr/bin/env bash
# Create the Python virtual environments used by the pydraughts-based tests
# (differential perft checks now, protocol tests later). Idempotent: a venv that
# already has the pinned pydraughts is kept; only missing extras get installed.
#
#   .venv/pd057  pydraughts==0.5.7  (the version pinned by lidraughts bots)
#   .venv/pd067  pydraughts==0.6.7
#
# Usage: .ci/pyenv.sh            (from anywhere; paths are relative to the repo)
# Env:   PYTHON=python3.11       interpreter that creates the venvs (default: python3)
#        PYENV_EXTRA="pkg==1.2"  more pip requirements for both venvs (space-separated)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
read -r -a EXTRA <<< "${PYENV_EXTRA:-}"

pip_install() {
    "$1/bin/python" -m pip install --quiet --disable-pip-version-check "${@:2}"
}

make_env() {
    local name="$1" version="$2"
    local dir="$ROOT/.venv/$name"
    if [ -x "$dir/bin/python" ] &&
       "$dir/bin/python" -c "import sys, importlib.metadata as m; sys.exit(m.version('pydraughts') != '$version')" 2>/dev/null; then
        echo "pyenv: $dir has pydraughts $version"
    else
        echo "pyenv: creating $dir with pydraughts==$version"
        rm -rf "$dir"
        mkdir -p "$ROOT/.venv"
        "$PYTHON" -m venv "$dir"
        pip_install "$dir" "pydraughts==$version"
    fi
    if [ "${#EXTRA[@]}" -gt 0 ]; then
        pip_install "$dir" "${EXTRA[@]}"
    fi
    "$dir/bin/python" -c "import draughts" # fail here, not in a test, if the install is broken
}

make_env pd057 0.5.7
make_env pd067 0.6.7
