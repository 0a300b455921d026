"""Steps the write services share (docs/engineering.md, Rules: Change events; errors of docs/behaviour/errors.md §1)."""

from __future__ import annotations

from django.db import IntegrityError, models, transaction


def save_or_raise(row: models.Model, error: Exception) -> None:
    """Save ``row`` in a savepoint; when a unique constraint refuses it (a concurrent write took the code
    or the pair first) raise ``error`` (a 409 of ``project.core.errors``) instead of a 500. The write's
    own transaction stays usable."""
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        raise error from None
