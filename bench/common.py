"""Helpers shared by the benchmarks (run as scripts: ``.venv/bin/python bench/<name>.py``).

- :func:`setup_django`: settings, an SQLite default for ``DATABASE_URL`` when the benchmark has one, and
  a migrated database; :func:`runs_argument`: the ``--runs`` option;
- :func:`timed`: milliseconds a call takes; :class:`Rollback`: raised inside ``transaction.atomic()``
  to undo a measured write; :func:`admin_ctx`: the organization's admin acting, as a request would;
- :class:`HistoryOff`: writes without the activity history, the baseline of the recording benchmarks.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.core.tenancy import Ctx

ROOT = Path(__file__).resolve().parents[1]


def setup_django(sqlite_file: str | None = None) -> None:
    """Set Django up for a benchmark script and migrate its database: ``DATABASE_URL`` as given, else
    (with ``sqlite_file``) that SQLite file under var/."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    if sqlite_file is not None:
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / sqlite_file}")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def runs_argument(description: str, default: int) -> int:
    """The benchmark's ``--runs`` (how many timed runs; ``default`` when not given), ``--help`` showing
    ``description``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=default)
    return parser.parse_args().runs


def timed(fn: Callable[[], Any]) -> float:
    """Milliseconds ``fn()`` takes."""
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


class Rollback(Exception):
    """Raised at the end of a measured write inside ``transaction.atomic()``: nothing it wrote stays."""


def admin_ctx(org: Organization) -> Ctx:
    """The organization's first admin acting from the origin "bench" (what a signed-in request passes)."""
    from project.accounts.models import User
    from project.core.tenancy import Ctx

    return Ctx(org=org, user=User.objects.filter(organization=org, role="admin").first(), origin="bench")


class HistoryOff:
    """Within it, writes record no activity (and so capture nothing): the cost of the write alone."""

    def __enter__(self) -> HistoryOff:
        from project.core import changes  # the write unit records through the name it imported

        self.saved = changes.record
        changes.record = lambda ctx, event, **kw: None
        return self

    def __exit__(self, *exc: object) -> None:
        from project.core import changes

        changes.record = self.saved


def stop_server(proc: Any, log: Any) -> None:
    """Stop a server process a benchmark started (SIGTERM, then SIGKILL after 10 s) and delete its log
    file (``log``: the open temporary file its output went to)."""
    import signal
    import subprocess

    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
    os.unlink(log.name)
