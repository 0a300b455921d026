#!/usr/bin/env bash
# Runs Blockplan with the embedded default (SQLite, in-memory channel layer, one process) and demo data,
# at http://localhost:${PORT:-8000}. Safe to run again: every step is idempotent and quick the second time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export DJANGO_SETTINGS_MODULE=project.settings
export LOG_FORMAT=${LOG_FORMAT:-console}  # a person at a terminal; deployments keep JSON lines (ADR 0020)
.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python manage.py collectstatic --noinput -v0
.venv/bin/python manage.py seed_demo
PORT=${PORT:-8000}
echo "==> Blockplan at http://localhost:${PORT} (Ctrl+C stops it)"
exec .venv/bin/daphne --websocket_timeout -1 -b "${BIND:-0.0.0.0}" -p "$PORT" project.asgi:application
