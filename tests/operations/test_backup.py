"""Backups (ADR 0020): ``scripts/backup.sh`` then ``scripts/restore.sh`` on a small organization (the
demo's), proved by the restore check: every table's row count equal to the source, every migration
applied, and a sign-in on the restored copy. A wrong password and an existing target both fail.

Needs PostgreSQL (``DATABASE_URL``); skipped on the embedded SQLite default."""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DB_URL = os.environ.get("DATABASE_URL", "")
DEMO_ADMIN = "admin@demo.blockplan.edu.au"
DEMO_PASSWORD = "Blockplan-Demo-2026!"

pytestmark = pytest.mark.skipif(
    not DB_URL.startswith(("postgres://", "postgresql://")), reason="backups are of PostgreSQL (DATABASE_URL)"
)


def _env(url: str, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "RESTORE_CHECK_PASSWORD"}}
    env.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="project.settings", PYTHONPATH=str(ROOT), **extra)
    return env


@pytest.fixture(scope="module")
def databases():
    import psycopg

    parsed = urlparse(DB_URL)
    tag = secrets.token_hex(4)
    names = {"source": f"bp_backup_src_{tag}", "copy": f"bp_backup_copy_{tag}", "copy2": f"bp_backup_copy2_{tag}"}
    admin_url = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{names["source"]}"')
    urls = {k: parsed._replace(path=f"/{v}").geturl() for k, v in names.items()}
    try:
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=_env(urls["source"]), check=True, timeout=300
        )
        subprocess.run(
            [PYTHON, "manage.py", "seed_demo"], cwd=ROOT, env=_env(urls["source"]), check=True, timeout=300, capture_output=True
        )
        yield urls
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            for name in names.values():
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_backup_and_restore_into_a_fresh_database_is_proved(databases, tmp_path):
    dump = tmp_path / "nightly.dump"
    made = subprocess.run(
        ["scripts/backup.sh", str(dump)], cwd=ROOT, env=_env(databases["source"]), capture_output=True, text=True, timeout=300
    )
    assert made.returncode == 0, made.stderr
    assert made.stdout.strip() == str(dump) and dump.stat().st_size > 10_000
    assert oct(dump.stat().st_mode & 0o777) == "0o600"  # a backup holds password hashes: its owner only

    restored = subprocess.run(
        ["scripts/restore.sh", str(dump), databases["copy"], "--email", DEMO_ADMIN, "--compare-with", databases["source"]],
        cwd=ROOT,
        env=_env(databases["source"], RESTORE_CHECK_PASSWORD=DEMO_PASSWORD),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert restored.returncode == 0, restored.stdout + restored.stderr
    out = restored.stdout
    sessions = next(line for line in out.splitlines() if line.startswith("timetabling_timetablesession "))
    assert int(sessions.split()[-1]) > 500  # the demo's timetable came back
    assert "migrations: all applied" in out and "row counts: equal to the source in all" in out
    assert f"sign-in: {DEMO_ADMIN} signed in" in out and "restore check passed" in out
    assert DEMO_PASSWORD not in out + restored.stderr

    # A restore never overwrites: the copy exists now.
    again = subprocess.run(
        ["scripts/restore.sh", str(dump), databases["copy"]],
        cwd=ROOT,
        env=_env(databases["source"]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 1 and "exists" in again.stderr


def test_the_restore_check_fails_on_a_wrong_password_or_a_changed_source(databases, tmp_path):
    dump = tmp_path / "b.dump"
    subprocess.run(
        ["scripts/backup.sh", str(dump)], cwd=ROOT, env=_env(databases["source"]), check=True, capture_output=True, timeout=300
    )
    # The source changes after the backup: the comparison says which table differs.
    subprocess.run(
        [
            PYTHON,
            "manage.py",
            "shell",
            "-c",
            "from project.catalogue.models import Course; from project.accounts.models import Organization;"
            "Course.objects.create(organization=Organization.objects.first(), code='AFTER-BACKUP', name='Later')",
        ],
        cwd=ROOT,
        env=_env(databases["source"]),
        check=True,
        capture_output=True,
        timeout=120,
    )
    failed = subprocess.run(
        ["scripts/restore.sh", str(dump), databases["copy2"], "--email", DEMO_ADMIN, "--compare-with", databases["source"]],
        cwd=ROOT,
        env=_env(databases["source"], RESTORE_CHECK_PASSWORD="not-the-password"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert failed.returncode == 1
    assert "row counts differ" in failed.stderr and "catalogue_course" in failed.stderr
    assert f"sign-in as {DEMO_ADMIN} answered 401" in failed.stderr
