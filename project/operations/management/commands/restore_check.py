"""``manage.py restore_check``: prove a restored database is a working Blockplan (ADR 0020).

Run against the restored copy (``DATABASE_URL`` naming it; ``scripts/restore.sh`` does). Prints the row
count of every table, then checks that:

- every migration of this code is applied (a backup of an older release needs ``migrate`` first);
- with ``--compare-with URL``: every table has the same number of rows as that database (the source,
  when it has not changed since the backup);
- with ``--email``: that user signs in through the real sign-in call (``POST /api/auth/login``), the
  password read from ``RESTORE_CHECK_PASSWORD`` (never a command-line argument: it would show in ``ps``).

Exits 1 naming what failed.
"""

from __future__ import annotations

import json
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def _counts(cursor: Any, tables: list[str]) -> dict[str, int]:
    out = {}
    for table in tables:
        cursor.execute(f'SELECT count(*) FROM "{table}"')  # noqa: S608 — table names from the database's own catalogue
        out[table] = cursor.fetchone()[0]
    return out


class Command(BaseCommand):
    help = "Check a restored database: row counts per table, migrations, optionally a sign-in and a comparison."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--email", help="sign in as this user (password from RESTORE_CHECK_PASSWORD)")
        parser.add_argument("--compare-with", metavar="URL", help="a PostgreSQL URL whose tables must have the same row counts")

    def handle(self, *args: Any, email: str | None = None, compare_with: str | None = None, **options: Any) -> None:
        problems: list[str] = []
        tables = sorted(connection.introspection.table_names())
        with connection.cursor() as cursor:
            counts = _counts(cursor, tables)
        width = max(len(t) for t in tables)
        for table in tables:
            self.stdout.write(f"{table:<{width}}  {counts[table]:>9}")
        self.stdout.write(f"{len(tables)} tables, {sum(counts.values())} rows")

        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if pending:
            problems.append(f"{len(pending)} migration(s) not applied (run manage.py migrate)")
        else:
            self.stdout.write("migrations: all applied")

        if compare_with:
            import psycopg

            with psycopg.connect(compare_with) as other, other.cursor() as cursor:
                theirs = _counts(cursor, tables)
            differ = {t: (counts[t], theirs[t]) for t in tables if counts[t] != theirs[t]}
            if differ:
                problems.append("row counts differ (restored, source): " + json.dumps(differ))
            else:
                self.stdout.write(f"row counts: equal to the source in all {len(tables)} tables")

        if email:
            problems.extend(self._sign_in(email))

        if problems:
            raise CommandError("restore check failed: " + "; ".join(problems))
        self.stdout.write(self.style.SUCCESS("restore check passed"))

    def _sign_in(self, email: str) -> list[str]:
        from django.test import Client

        password = os.environ.get("RESTORE_CHECK_PASSWORD")
        if not password:
            return ["--email needs RESTORE_CHECK_PASSWORD in the environment"]
        client = Client(HTTP_HOST="localhost", REMOTE_ADDR="127.0.0.1")
        response = client.post("/api/auth/login", {"email": email, "password": password}, content_type="application/json")
        if response.status_code != 200:
            return [f"sign-in as {email} answered {response.status_code}"]
        me = client.get("/api/auth/user")
        if me.status_code != 200 or me.json().get("user", {}).get("email") != email:
            return [f"after signing in as {email}, /api/auth/user answered {me.status_code}"]
        self.stdout.write(f"sign-in: {email} signed in and read their account")
        return []
