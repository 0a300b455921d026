#!/usr/bin/env bash
# Starts a real server (daphne) on a fresh database with the demo data and runs the browser tests in
# spa/e2e against it with playwright-core and Debian's Chromium. Screenshots go to e2e-artifacts/.
# E2E_CLUSTER=1 (PostgreSQL and Redis) runs them through nginx in front of two daphne processes instead.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
E2E_PORT=${E2E_PORT:-8765}
export BASE_URL="http://localhost:${E2E_PORT}"
export WEBAUTHN_ORIGIN="$BASE_URL"
export WEBAUTHN_RP_ID=localhost
export DJANGO_SETTINGS_MODULE=project.settings
export AXES_FAILURE_LIMIT=${AXES_FAILURE_LIMIT:-50}
export AXES_IP_FAILURE_LIMIT=${AXES_IP_FAILURE_LIMIT:-1000}
mkdir -p var e2e-artifacts

if [[ "${DATABASE_URL:-}" == postgres* ]]; then
  base="${DATABASE_URL%/*}"
  db="blockplan_e2e_${E2E_PORT}"
  psql "$base/postgres" -q -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null || exit 1
  export DATABASE_URL="$base/$db"
else
  rm -f "var/e2e-${E2E_PORT}.sqlite3"
  export DATABASE_URL="sqlite:///$ROOT/var/e2e-${E2E_PORT}.sqlite3"
fi
.venv/bin/python manage.py migrate --noinput -v0 || exit 1
.venv/bin/python manage.py collectstatic --noinput -v0 || exit 1  # Swagger UI's and the admin's assets
.venv/bin/python manage.py seed_demo > "var/e2e-seed-${E2E_PORT}.log" || exit 1

# A DNS server of the tests' own (tests/sso/dns_server.py) answers the server's domain-verification look-ups
# (docs/adr/0024) from the JSON file E2E_DNS_RECORDS, which the browser tests write.
export E2E_DNS_RECORDS="$ROOT/var/e2e-dns-${E2E_PORT}.json"
echo '{}' > "$E2E_DNS_RECORDS"
.venv/bin/python tests/sso/dns_server.py --port 0 --records "$E2E_DNS_RECORDS" > "var/e2e-dns-${E2E_PORT}.log" 2>&1 &
DNS=$!
for _ in $(seq 1 100); do grep -q "listening" "var/e2e-dns-${E2E_PORT}.log" && break; sleep 0.1; done
export DOMAIN_VERIFICATION_NAMESERVER=127.0.0.1
DOMAIN_VERIFICATION_PORT=$(sed -n 's/^DNS server listening on 127.0.0.1:\([0-9]*\)$/\1/p' "var/e2e-dns-${E2E_PORT}.log")
export DOMAIN_VERIFICATION_PORT
[ -n "$DOMAIN_VERIFICATION_PORT" ] || { echo "the test DNS server did not start"; cat "var/e2e-dns-${E2E_PORT}.log"; kill $DNS 2>/dev/null; exit 1; }

if [ "${E2E_CLUSTER:-0}" = 1 ]; then
  # Through the scaled-out deployment (ADR 0020): nginx with deploy/nginx.conf on E2E_PORT in front of two
  # daphne processes sharing PostgreSQL and Redis. cluster.test.mjs restarts them with these variables.
  [[ "${DATABASE_URL:-}" == postgres* && "${REDIS_URL:-}" == redis* ]] || { echo "E2E_CLUSTER=1 needs PostgreSQL and Redis"; exit 1; }
  export EMAIL_URL=${EMAIL_URL:-dummy://}  # production settings need a mail choice: this run sends none
  export CLUSTER_PORT="$E2E_PORT" CLUSTER_APP_PORT=$((E2E_PORT + 100)) CLUSTER_DIR="$ROOT/var/cluster-e2e-${E2E_PORT}" CLUSTER_MIGRATE=0
  scripts/cluster.sh stop >/dev/null 2>&1
  scripts/cluster.sh start 2 > "var/e2e-server-${E2E_PORT}.log" 2>&1 || { cat "var/e2e-server-${E2E_PORT}.log"; exit 1; }
  trap '"$ROOT/scripts/cluster.sh" stop >/dev/null 2>&1; kill $DNS 2>/dev/null' EXIT
else
  .venv/bin/daphne --websocket_timeout -1 -b 127.0.0.1 -p "$E2E_PORT" project.asgi:application > "var/e2e-server-${E2E_PORT}.log" 2>&1 &
  SERVER=$!
  trap 'kill $SERVER $DNS 2>/dev/null; wait $SERVER 2>/dev/null' EXIT
fi
for _ in $(seq 1 150); do
  if curl -s -o /dev/null -w '%{http_code}' "$BASE_URL/api/auth/user" | grep -q 401; then break; fi
  sleep 0.2
done

# Usage: scripts/e2e.sh [spa/e2e/file.test.mjs ...]   (default: every test file in spa/e2e)
files=()
for f in "$@"; do files+=("$(realpath "$f")"); done
cd spa
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(ls e2e/*.test.mjs)
fi
node --test --test-concurrency=1 "${files[@]}"
