#!/usr/bin/env bash
# Back up Blockplan's PostgreSQL database (ADR 0020; README "Scaling out"): pg_dump's custom format, one
# consistent snapshot taken while the application runs, compressed, restorable table by table.
#
#   DATABASE_URL=postgres://... scripts/backup.sh [FILE]
#
# FILE defaults to var/backups/blockplan-<UTC time>.dump (readable by its owner only). Prints the file.
# Restore with scripts/restore.sh FILE TARGET_DATABASE_URL, which proves the copy works.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ "${DATABASE_URL:-}" == postgres* ]] || { echo "backup: set DATABASE_URL to the PostgreSQL database" >&2; exit 1; }
out=${1:-var/backups/blockplan-$(date -u +%Y%m%dT%H%M%SZ).dump}
mkdir -p "$(dirname "$out")"
umask 077
pg_dump --format=custom --compress=6 --no-owner --no-privileges --file "$out.partial" "$DATABASE_URL"
pg_restore --list "$out.partial" > /dev/null   # the archive reads back
mv "$out.partial" "$out"
echo "backup: $out ($(du -h "$out" | cut -f1), $(pg_restore --list "$out" | grep -c ' TABLE DATA ') tables)" >&2
echo "$out"
