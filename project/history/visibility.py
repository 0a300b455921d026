"""Who may read and who may undo which change (docs/adr/0023): one rule for the activity history
(``GET /api/activity``, its detail) and for the change events a socket receives (:mod:`realtime.scoping`).

- **Read.** An administrator reads every change of the organization. A member reads every change except
  the admin-only entities (``ADMIN_ONLY_READ``: users, whose activities name their email, and display
  links, whose writes concern secret links); of ``user`` changes a member still reads those of their own
  account alone (``ids == [their id]``: TOTP turned on in another tab, their own profile).
- **Undo.** Judged by the actor's role at undo time (the request's user, read afresh by each request):
  a change of an admin-only write (``ADMIN_ONLY_WRITE``: rooms, the organization's details and single
  sign-on, users, display links; their endpoints answer 403 to a member) may be undone by an
  administrator only, even by the member who made it while still an administrator.

The rule exists twice in one place: :func:`may_read` for one change (an event, an activity row) and
:func:`readable_filter` for a query of activities (the list's count and pages); a test checks they agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q

ADMIN = "admin"
ADMIN_ONLY_READ = frozenset({"user", "display_link"})
ADMIN_ONLY_WRITE = frozenset({"user", "display_link", "organization", "room"})


def may_read(*, role: str | None, user_id: object, entity: str | None, ids: Sequence[object] | None) -> bool:
    """Whether a signed-in user of ``role`` (``"admin"`` / ``"user"``) with id ``user_id`` may read a
    change of ``entity`` to the rows ``ids`` (strings or UUIDs)."""
    if role == ADMIN or entity not in ADMIN_ONLY_READ:
        return True
    return entity == "user" and user_id is not None and [str(i) for i in ids or []] == [str(user_id)]


def readable_filter(*, role: str | None, user_id: object) -> Q:
    """:func:`may_read` as a filter on :class:`project.history.models.Activity` rows (``entity``, ``ids``):
    an empty ``Q()`` for an administrator."""
    if role == ADMIN:
        return Q()
    hidden = Q(entity__in=sorted(ADMIN_ONLY_READ))
    if user_id is not None:
        hidden &= ~Q(entity="user", ids=[str(user_id)])
    return ~hidden


def may_undo_entity(*, role: str | None, entity: str) -> bool:
    """Whether a user of ``role`` may undo (or redo) a change of ``entity`` at all: admin-only writes need
    an administrator now, whoever made them. Whose change it is is judged apart (a member undoes only
    their own)."""
    return role == ADMIN or entity not in ADMIN_ONLY_WRITE
