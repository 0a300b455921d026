#!/usr/bin/env bash
# Lint, format, type and drift checks of the whole repository (ADR 0021; docs/engineering.md). Prints
# every finding and exits non-zero when any check fails. .ci/run runs it before the tests; the same tools
# run on commit with pre-commit (.pre-commit-config.yaml). To fix what the formatters report:
#   .venv/bin/ruff format . && .venv/bin/ruff check --fix . && (cd spa && npm run format)
set -uo pipefail
cd "$(dirname "$0")/.."
setup_log=$(mktemp)
# The set-up builds the SPA when its sources changed (tsc first): when it fails, say why.
scripts/setup.sh --test >"$setup_log" 2>&1 || { tail -n 40 "$setup_log"; rm -f "$setup_log"; echo "lint: set-up failed"; exit 1; }
rm -f "$setup_log"

failed=()
echo "==> ruff: Python lint (bugs, imports, pyupgrade, Django, security)"
.venv/bin/ruff check . || failed+=(ruff)
echo "==> ruff format: Python formatting"
.venv/bin/ruff format --check . || failed+=(ruff-format)
echo "==> mypy: Python types (django-stubs) of project/ and realtime/"
.venv/bin/mypy || failed+=(mypy)
echo "==> import-linter: layers, what realtime may import, no import cycles (.importlinter; docs/engineering.md, Boundaries)"
.venv/bin/lint-imports --no-cache || failed+=(import-linter)
echo "==> citations: no path outside the repository, no issue number, every docs/behaviour section cited exists"
.venv/bin/python scripts/check_citations.py || failed+=(citations)
echo "==> migrations match the models"
DATABASE_URL="sqlite://:memory:" DJANGO_SETTINGS_MODULE=project.settings .venv/bin/python manage.py makemigrations --check --dry-run \
  || failed+=(migrations)
if [ -f spa/package.json ]; then
  echo "==> Biome: SPA lint (recommended, React hooks, a11y) and formatting"
  (cd spa && npx biome check .) || failed+=(biome)
  echo "==> tsc: SPA types"
  (cd spa && npx tsc -b) || failed+=(tsc)
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "LINT FAILED: ${failed[*]}"
  exit 1
fi
echo "lint: all checks passed"
