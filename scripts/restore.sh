#!/usr/bin/env bash
# Restore a backup of scripts/backup.sh into a fresh database and prove the copy works (ADR 0020).
#
#   scripts/restore.sh FILE TARGET_DATABASE_URL [--email EMAIL] [--compare-with SOURCE_URL]
#
# Creates the target database (refuses one that exists: a restore never overwrites), restores into it,
# then runs manage.py restore_check on it: the row count of every table, every migration applied, and
# with --email a sign-in as that user (password from RESTORE_CHECK_PASSWORD), with --compare-with the
# same row counts as the source. To go live on the copy, point DATABASE_URL at it and restart
# (scripts/cluster.sh restart). Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
file=$1 target=$2
shift 2
[ -r "$file" ] || { echo "restore: cannot read $file" >&2; exit 1; }
[[ "$target" == postgres* ]] || { echo "restore: the target must be a PostgreSQL URL" >&2; exit 1; }
name=${target##*/}
name=${name%%\?*}
[[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "restore: unusual database name '$name'" >&2; exit 1; }
maintenance="${target%/*}/postgres"
if [ "$(psql "$maintenance" -tAc "SELECT 1 FROM pg_database WHERE datname = '$name'")" = 1 ]; then
  echo "restore: database $name exists; a restore goes into a fresh database" >&2
  exit 1
fi
psql "$maintenance" -q -c "CREATE DATABASE \"$name\"" >/dev/null
pg_restore --no-owner --no-privileges --exit-on-error --dbname "$target" "$file"
echo "restore: $file restored into $name" >&2
DATABASE_URL="$target" REDIS_URL="" .venv/bin/python manage.py restore_check "$@"
