#!/usr/bin/env bash
# Runs every test suite: the Django suite (pytest), the SPA component tests (vitest) and the end-to-end
# tests in Debian's Chromium against a running server. Installs what they need first.
# With DATABASE_URL / REDIS_URL set (as .ci/run does), the suites run on PostgreSQL and Redis.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test || exit 1
export DJANGO_SETTINGS_MODULE=project.settings

failed=()
echo "==> migrations match the models (a model change without its migration fails here)"
# On an empty in-memory SQLite database: the check compares models with migration files, not with a server.
DATABASE_URL="sqlite://:memory:" .venv/bin/python manage.py makemigrations --check --dry-run || failed+=(migrations)

echo "==> Django test suite (database: ${DATABASE_URL:-sqlite})"
.venv/bin/python -m pytest -q -p no:cacheprovider "$@" || failed+=(pytest)

if [ -f spa/package.json ]; then
  echo "==> SPA component tests (vitest)"
  (cd spa && npx vitest run) || failed+=(vitest)
  echo "==> end-to-end tests (Chromium)"
  scripts/e2e.sh || failed+=(e2e)
  if [[ "${DATABASE_URL:-}" == postgres* && "${REDIS_URL:-}" == redis* ]]; then
    echo "==> end-to-end tests of live collaboration through the cluster (nginx + 2 daphne, PostgreSQL, Redis)"
    E2E_CLUSTER=1 E2E_PORT=8790 scripts/e2e.sh spa/e2e/collab.test.mjs spa/e2e/cluster.test.mjs || failed+=(e2e-cluster)
  else
    echo "==> (the cluster's end-to-end tests need PostgreSQL and Redis: skipped on the embedded default)"
  fi
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED suites: ${failed[*]}"
  exit 1
fi
echo "all suites passed"
