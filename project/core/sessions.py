"""The session engine: Django's database sessions, read with one plain SQL statement (ADR 0013).

Every signed-in request reads its session row. Django's ``db`` engine does it with
``Session.objects.get(...)``: building and compiling that query and a model instance each time was a
quarter of the CPU of a cached list read under 32 concurrent clients (py-spy, ``bench/reads_bench.py
--clients 32``, ADR 0013). This engine runs the same statement (the key, not expired) as SQL written once;
saving, expiry, cycling and clearing are Django's. ``SESSION_ENGINE = "project.core.sessions"``.
"""

from __future__ import annotations

import logging

from django.contrib.sessions.backends import db
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.exceptions import SuspiciousOperation
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> AbstractBaseSession | None:
        model = self.model
        alias = router.db_for_read(model)
        connection = connections[alias]
        quote = connection.ops.quote_name
        table = quote(model._meta.db_table)
        try:
            key = self.session_key
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT {quote('session_data')}, {quote('expire_date')} FROM {table} "  # noqa: S608 — identifiers quoted by the backend; values are parameters
                    f"WHERE {quote('session_key')} = %s AND {quote('expire_date')} > %s",
                    [key, timezone.now()],
                )
                row = cursor.fetchone()
        except SuspiciousOperation as e:  # as Django's engine: logged, and no session
            logging.getLogger(f"django.security.{e.__class__.__name__}").warning(str(e))
            row = None
        if row is None or key is None:  # (a session without a key has no row)
            self._session_key = None
            return None
        return model(session_key=key, session_data=row[0], expire_date=row[1])
