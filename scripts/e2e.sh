#!/usr/bin/env bash
# Starts a real server (daphne) on a fresh database with the demo data and runs the browser tests in
# spa/e2e against it with playwright-core and Debian's Chromium. Screenshots go to e2e-artifacts/.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
E2E_PORT=${E2E_PORT:-8765}
export BASE_URL="http://localhost:${E2E_PORT}"
export WEBAUTHN_ORIGIN="$BASE_URL"
export WEBAUTHN_RP_ID=localhost
export DJANGO_SETTINGS_MODULE=project.settings
export AXES_FAILURE_LIMIT=${AXES_FAILURE_LIMIT:-50}
mkdir -p var e2e-artifacts

if [[ "${DATABASE_URL:-}" == postgres* ]]; then
  base="${DATABASE_URL%/*}"
  psql "$base/postgres" -q -c "DROP DATABASE IF EXISTS blockplan_e2e WITH (FORCE)" -c "CREATE DATABASE blockplan_e2e" >/dev/null || exit 1
  export DATABASE_URL="$base/blockplan_e2e"
else
  rm -f var/e2e.sqlite3
  export DATABASE_URL="sqlite:///$ROOT/var/e2e.sqlite3"
fi
.venv/bin/python manage.py migrate --noinput -v0 || exit 1
.venv/bin/python manage.py seed_demo > var/e2e-seed.log || exit 1

.venv/bin/daphne -b 127.0.0.1 -p "$E2E_PORT" project.asgi:application > var/e2e-server.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null' EXIT
for _ in $(seq 1 100); do
  curl -sf "$BASE_URL/api/auth/user" -o /dev/null -w '' 2>/dev/null; code=$?
  if curl -s -o /dev/null -w '%{http_code}' "$BASE_URL/api/auth/user" | grep -q 401; then break; fi
  sleep 0.2
done

cd spa && node --test --test-concurrency=1 e2e/
