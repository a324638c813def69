#!/usr/bin/env bash
# Create the Python virtual environments used by the pydraughts-based tests
# (differential perft checks, later protocol tests). Idempotent: a venv that
# already has the pinned version installed is left alone.
#
#   .venv/pd057  pydraughts==0.5.7  (the version pinned by lidraughts bots)
#   .venv/pd067  pydraughts==0.6.7
#
# Usage: .ci/pyenv.sh            (from anywhere; paths are relative to the repo)
# Env:   PYTHON=python3.11 to choose the interpreter (default: python3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"

make_env() {
    local name="$1" spec="$2" version="$3"
    local dir="$ROOT/.venv/$name"
    if [ -x "$dir/bin/python" ] &&
       "$dir/bin/python" -c "import sys, importlib.metadata as m; sys.exit(m.version('pydraughts') != '$version')" 2>/dev/null; then
        echo "pyenv: $dir already has pydraughts $version"
        return 0
    fi
    echo "pyenv: creating $dir with $spec"
    rm -rf "$dir"
    mkdir -p "$ROOT/.venv"
    "$PYTHON" -m venv "$dir"
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$spec"
    "$dir/bin/python" -c "import draughts; print('pyenv: $name ok, pydraughts', '$version')"
}

make_env pd057 "pydraughts==0.5.7" 0.5.7
make_env pd067 "pydraughts==0.6.7" 0.6.7
