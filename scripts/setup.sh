#!/usr/bin/env bash
# Idempotent set-up used by run.sh and test.sh: Python venv and packages, npm packages, the SPA build.
# Each step is skipped when its inputs have not changed since the last run, so a second run is quick.
# Usage: scripts/setup.sh [--test]   (--test also installs test packages and Debian's Chromium)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
WITH_TEST=0
[ "${1:-}" = "--test" ] && WITH_TEST=1

hash_of() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }

# 1. Python 3.11 virtual environment with the dependencies of pyproject.toml.
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PY" -m venv .venv
fi
extras=""
[ $WITH_TEST = 1 ] && extras="test"
stamp=".venv/.install-stamp-${extras:-main}"
want=$(hash_of pyproject.toml)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "==> installing Python packages"
  .venv/bin/python - "$extras" > .venv/requirements.txt <<'PYEOF'
import sys, tomllib
data = tomllib.load(open("pyproject.toml", "rb"))["project"]
deps = list(data["dependencies"])
if sys.argv[1]:
    deps += data["optional-dependencies"][sys.argv[1]]
print("\n".join(deps))
PYEOF
  .venv/bin/python -m pip install -q --disable-pip-version-check -r .venv/requirements.txt
  echo "$want" > "$stamp"
fi

# 2. Debian's Chromium for the browser tests (no browser download: this machine has no such network).
if [ $WITH_TEST = 1 ] && [ ! -x /usr/bin/chromium ]; then
  echo "==> installing Debian's chromium"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

# 3. npm packages and the SPA build.
if [ -f spa/package.json ]; then
  want=$(hash_of spa/package.json spa/package-lock.json)
  if [ ! -d spa/node_modules ] || [ "$(cat spa/node_modules/.install-stamp 2>/dev/null)" != "$want" ]; then
    echo "==> installing npm packages"
    (cd spa && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > spa/node_modules/.install-stamp
  fi
  if [ ! -f spa/dist/index.html ] || [ -n "$(find spa/src spa/index.html spa/vite.config.ts spa/package.json spa/public -newer spa/dist/index.html -type f 2>/dev/null | head -1)" ]; then
    echo "==> building the SPA"
    (cd spa && npm run build --silent)
  fi
fi
