"""Preferred days of a block group: free text in, sorted day numbers out (docs/behaviour/block-groups.md §3).

Accepted: day names or their first three letters in any case, or numbers (1 Monday .. 6 Saturday,
0 or 7 Sunday), separated by commas or spaces: "Monday, Wednesday", "mon wed", "1,3".
Answers use ISO numbers 1 Monday .. 7 Sunday.
"""

from __future__ import annotations

import re

_NAMES = {
    "monday": 1,
    "tuesday": 2,
    "wednesday": 3,
    "thursday": 4,
    "friday": 5,
    "saturday": 6,
    "sunday": 7,
}
_TOKENS: dict[str, int] = {}
for _name, _num in _NAMES.items():
    _TOKENS[_name] = _num
    _TOKENS[_name[:3]] = _num
_TOKENS.update({"tues": 2, "wednes": 3, "thur": 4, "thurs": 4})

INVALID_DAYS_MESSAGE = "Preferred days must name at least one day, e.g. 'Monday, Wednesday' or '1,3'"


def parse_preferred_days(text: str | None) -> list[int]:
    """Sorted unique ISO day numbers (1 Monday .. 7 Sunday) named in ``text``; [] when none.

    Unknown words are ignored; numbers outside 0-7 are ignored; 0 and 7 both mean Sunday.
    """
    if not text:
        return []
    days: set[int] = set()
    for token in re.split(r"[\s,;/]+", str(text).strip().lower()):
        if not token:
            continue
        if token.isdigit():
            n = int(token)
            if 0 <= n <= 7:
                days.add(7 if n == 0 else n)
            continue
        token = token.strip(".")
        if token in _TOKENS:
            days.add(_TOKENS[token])
    return sorted(days)
