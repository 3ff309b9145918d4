#!/usr/bin/env bash
# One-time, idempotent set-up: a virtualenv in .venv with navbench installed (editable, dev
# extras), plus the one system library the CPU renderer needs (Mesa's OSMesa).
# Every failure ends with a one-line explanation of what is missing and how to get it.
set -uo pipefail

VENV=${VENV:-.venv}
PY=${PYTHON:-python3}
STAMP="$VENV/.navbench-installed"

die() { echo "navbench set-up: $*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi
}

apt_install() {
  command -v apt-get >/dev/null 2>&1 || return 1
  if [ ! -f /tmp/.navbench-apt-updated ]; then
    as_root apt-get update -qq >/dev/null 2>&1 && touch /tmp/.navbench-apt-updated
  fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null 2>&1
}

# 1. Python >= 3.10
command -v "$PY" >/dev/null 2>&1 || die "'$PY' not found: install Python >= 3.10 (apt-get install python3 python3-venv)."
"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
  || die "Python >= 3.10 is required, '$PY' is $("$PY" -V 2>&1)."

# 2. virtualenv
if [ ! -x "$VENV/bin/python" ]; then
  if ! "$PY" -m venv "$VENV" >/dev/null 2>&1; then
    rm -rf "$VENV"
    ver=$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    echo "navbench set-up: installing python${ver}-venv (needed for virtualenvs)..."
    apt_install "python${ver}-venv" || apt_install python3-venv \
      || die "cannot create a virtualenv: install the 'python3-venv' package (apt-get install python3-venv)."
    "$PY" -m venv "$VENV" || die "cannot create a virtualenv in $VENV."
  fi
fi

# 3. the package (re-installed only when pyproject.toml changed)
want=$(sha1sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$want" ]; then
  echo "navbench set-up: installing navbench and its dependencies into $VENV (a few minutes the first time)..."
  "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  "$VENV/bin/python" -m pip install -q -e '.[dev]' \
    || die "pip could not install navbench's dependencies (see the pip output above)."
  echo "$want" > "$STAMP"
fi

# 4. the renderer's system library (MuJoCo renders on the CPU through Mesa's OSMesa)
if ! ldconfig -p 2>/dev/null | grep -q 'libOSMesa\.so'; then
  echo "navbench set-up: installing libosmesa6 (CPU rendering for MuJoCo)..."
  apt_install libosmesa6 \
    || echo "navbench set-up: warning: could not install libosmesa6; rendering (RGB/depth sensors) will be unavailable until 'apt-get install libosmesa6'." >&2
fi
exit 0
