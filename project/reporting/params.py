"""Query-parameter parsing shared by the report, grid and dashboard endpoints.

Every parser raises :class:`project.core.errors.ValidationFailed` (400 ``validation_error`` with a
``path`` naming the parameter), so no malformed query string can yield a 500.

- ``year``: an integer from 2000 to 2100; absent or blank means the current year in the user's timezone.
- ``term``: 1 to 4; absent, blank or ``all`` means the whole year.
- ``start`` / ``end``: required, exactly ``YYYY-MM-DD``.
- The user's timezone: ``user.settings.preferences.timezone`` when it names a valid IANA zone, else
  Australia/Melbourne (docs/behaviour/terms-and-holidays.md, docs/behaviour/screens.md).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.utils import timezone

from project.core.errors import ValidationFailed

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import User

DEFAULT_TZ = "Australia/Melbourne"
MIN_YEAR, MAX_YEAR = 2000, 2100
YEAR_MESSAGE = f"Year must be a number between {MIN_YEAR} and {MAX_YEAR}"
TERM_MESSAGE = "Term must be 1, 2, 3 or 4"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def user_timezone(user: User | None) -> ZoneInfo:
    """The zone of ``user.settings.preferences.timezone``, or Australia/Melbourne when unset or invalid."""
    name = None
    settings = getattr(user, "settings", None)
    if isinstance(settings, dict):
        prefs = settings.get("preferences")
        if isinstance(prefs, dict):
            name = prefs.get("timezone")
    if isinstance(name, str) and name.strip():
        try:
            return ZoneInfo(name.strip())
        except Exception:  # noqa: S110 — unknown or malformed zone name: fall back
            pass
    return ZoneInfo(DEFAULT_TZ)


def today_for(user: User | None) -> date:
    """Today's date in the user's timezone."""
    return timezone.now().astimezone(user_timezone(user)).date()


def parse_year(value: object, user: User | None) -> int:
    """``year`` query value -> int in 2000..2100; None/blank -> the current year for ``user``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return today_for(user).year
    text = str(value).strip()
    if not re.fullmatch(r"-?\d{1,6}", text):
        raise ValidationFailed.field("year", YEAR_MESSAGE)
    year = int(text)
    if year < MIN_YEAR or year > MAX_YEAR:
        raise ValidationFailed.field("year", YEAR_MESSAGE)
    return year


def parse_term(value: object) -> int | None:
    """``term`` query value -> 1..4, or None for all terms (absent, blank or ``all``)."""
    if value is None:
        return None
    text = str(value).strip().lower()
    if text in {"", "all"}:
        return None
    if text not in {"1", "2", "3", "4"}:
        raise ValidationFailed.field("term", TERM_MESSAGE)
    return int(text)


def parse_iso_date(value: object, name: str, label: str) -> date:
    """A required ``YYYY-MM-DD`` query value; 400 with ``path [name]`` when missing or malformed."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ValidationFailed.field(name, f"{label} is required")
    text = str(value).strip()
    if not _DATE.match(text):
        raise ValidationFailed.field(name, f"{label} must be a date in the format YYYY-MM-DD")
    try:
        day = datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        raise ValidationFailed.field(name, f"{label} must be a date in the format YYYY-MM-DD") from None
    if day.year < MIN_YEAR or day.year > MAX_YEAR:
        raise ValidationFailed.field(name, f"{label} must be between {MIN_YEAR} and {MAX_YEAR}")
    return day
