"""Writes of courses and units of competency (docs/behaviour/units-and-courses.md §2; docs/behaviour/errors.md §9; docs/behaviour/errors.md §1; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md).

Every write runs in one transaction with its write in one :func:`project.core.changes.org_change` unit, and raises
the typed errors of ``project.core.errors``:

- ``DuplicateCode`` (409 ``duplicate_code``, field ``code``) when the code is already used in the
  organization (codes are compared without regard to case; another organization may use the same code);
- ``StaleWrite`` (412) when ``If-Match`` no longer matches ``updatedAt``;
- ``Conflict`` (409) when a course still has block groups, or a unit is still used by study plans or
  timetable sessions (both are PROTECTed: the row is kept, never a 500).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from django.db import transaction
from django.db.models import ProtectedError

from project.catalogue.models import Course, Room, Unit, room_key
from project.catalogue.schemas import CourseIn, RoomIn, UnitIn
from project.core.changes import Entity, org_change
from project.core.concurrency import assert_fresh
from project.core.errors import Conflict, DuplicateCode
from project.core.tenancy import Ctx, get_in_org, get_locked
from project.core.writes import save_or_raise

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from django.db.models import Func

    from project.accounts.models import Organization
    from project.core.models import TenantModel

COURSE_DUPLICATE = "A course with this code already exists in your organization."
UNIT_DUPLICATE = "A unit with this code already exists in your organization."


def _check_code(model: type[TenantModel], ctx: Ctx, code: str, message: str, exclude_pk: UUID | None = None) -> None:
    qs = model.objects.for_org(ctx.org).filter(code__iexact=code)
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    if qs.exists():
        raise DuplicateCode(message)


# --- courses and units of competency: rows with an organization-unique code --------------------------

CodedRow = TypeVar("CodedRow", Course, Unit)


def _coded_create(ctx: Ctx, model: type[CodedRow], data: CourseIn | UnitIn, *, entity: Entity, duplicate: str) -> CodedRow:
    """Create a course or unit of ``ctx.org`` from every field of ``data``, announced as ``entity``.
    Raises DuplicateCode (409, ``duplicate``) when the code is used in the organization."""
    with transaction.atomic():
        _check_code(model, ctx, data.code, duplicate)
        row = model(organization=ctx.org, **data.model_dump())
        with org_change(ctx, entity, "created", ids=[row.pk]):
            save_or_raise(row, DuplicateCode(duplicate))
    return row


def _coded_update(
    ctx: Ctx,
    model: type[CodedRow],
    row_id: UUID | str,
    data: CourseIn | UnitIn,
    if_match: str | None,
    *,
    entity: Entity,
    duplicate: str,
) -> CodedRow:
    """Replace every field of a course or unit with ``data``, announced as ``entity``. Raises NotFound
    ("Course not found" / "Unit not found"), StaleWrite (412), DuplicateCode (409, ``duplicate``)."""
    with transaction.atomic():
        row = get_locked(model, ctx, row_id, model.__name__)
        assert_fresh(row, if_match)
        _check_code(model, ctx, data.code, duplicate, exclude_pk=row.pk)
        for field, value in data.model_dump().items():
            setattr(row, field, value)
        with org_change(ctx, entity, "updated", ids=[row.pk]):
            save_or_raise(row, DuplicateCode(duplicate))
    return row


def _delete_in_use(ctx: Ctx, row: Course | Unit, *, entity: Entity, in_use: str) -> None:
    """Delete a course or unit, announced as ``entity``; a row a PROTECTed relation still holds is kept and
    answers Conflict (409, ``in_use``), never a 500. Call it inside the delete's transaction."""
    with org_change(ctx, entity, "deleted", ids=[row.pk]):
        try:
            with transaction.atomic():
                row.delete()
        except ProtectedError:
            raise Conflict(in_use) from None


def course_create(*, ctx: Ctx, data: CourseIn) -> Course:
    """Create a course of ``ctx.org``. Raises DuplicateCode."""
    return _coded_create(ctx, Course, data, entity="course", duplicate=COURSE_DUPLICATE)


def course_update(*, ctx: Ctx, course_id: UUID | str, data: CourseIn, if_match: str | None) -> Course:
    """Replace every field of a course. Raises NotFound, StaleWrite, DuplicateCode."""
    return _coded_update(ctx, Course, course_id, data, if_match, entity="course", duplicate=COURSE_DUPLICATE)


def course_delete(*, ctx: Ctx, course_id: UUID | str) -> None:
    """Delete a course. Raises NotFound, or Conflict (409) while block groups use it."""
    with transaction.atomic():
        course = get_locked(Course, ctx, course_id, "Course")
        used = course.block_groups.count()
        if used:
            raise Conflict(
                f"This course is used by {used} block group(s) and cannot be deleted. Move or delete those block groups first."
            )
        _delete_in_use(ctx, course, entity="course", in_use="This course is in use and cannot be deleted.")


# --- units of competency ----------------------------------------------------------------------------


def unit_create(*, ctx: Ctx, data: UnitIn) -> Unit:
    """Create a unit of competency of ``ctx.org``. Raises DuplicateCode."""
    return _coded_create(ctx, Unit, data, entity="unit", duplicate=UNIT_DUPLICATE)


def unit_update(*, ctx: Ctx, unit_id: UUID | str, data: UnitIn, if_match: str | None) -> Unit:
    """Replace every field of a unit. Raises NotFound, StaleWrite, DuplicateCode."""
    return _coded_update(ctx, Unit, unit_id, data, if_match, entity="unit", duplicate=UNIT_DUPLICATE)


def unit_delete(*, ctx: Ctx, unit_id: UUID | str) -> None:
    """Delete a unit. Raises NotFound, or Conflict (409) while study plans or timetable sessions use it.

    Teacher qualifications for the unit are removed with it (they mean nothing without the unit).
    """
    with transaction.atomic():
        unit = get_locked(Unit, ctx, unit_id, "Unit")
        plans = unit.plan_units.count()
        sessions = unit.sessions.count()
        if plans or sessions:
            parts = []
            if plans:
                parts.append(f"{plans} study plan(s)")
            if sessions:
                parts.append(f"{sessions} timetable session(s)")
            raise Conflict(f"This unit is used by {' and '.join(parts)} and cannot be deleted. Remove it from those first.")
        _delete_in_use(ctx, unit, entity="unit", in_use="This unit is in use and cannot be deleted.")


# --- rooms (ADR 0019) ------------------------------------------------------------------------

ROOM_DUPLICATE = "A room with this code already exists in your organization."


def _room_key_sql() -> Func:
    """``room_key`` of a session's room text in SQL: lower case without spaces, hyphens, underscores."""
    from django.db.models import Value
    from django.db.models.functions import Lower, Replace

    expr: Func = Lower("room")
    for ch in (" ", "-", "_"):
        expr = Replace(expr, Value(ch), Value(""))
    return expr


def _check_room_code(ctx: Ctx, code: str, exclude_pk: UUID | None = None) -> None:
    qs = Room.objects.for_org(ctx.org).filter(key=room_key(code))
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    if qs.exists():
        raise DuplicateCode(ROOM_DUPLICATE)


def _room_fields(ctx: Ctx, room: Room, data: RoomIn) -> None:
    from project.catalogue.models import Campus

    values = data.model_dump()
    campus_id = values.pop("campus_id")
    room.campus = get_in_org(Campus.objects.for_org(ctx.org), ctx.org, campus_id, "Campus") if campus_id else None
    for field, value in values.items():
        setattr(room, field, value)


def _link_sessions(ctx: Ctx, room: Room) -> int:
    """Sessions whose room text names ``room`` (by key) point at it and say its code. Returns how many."""
    from project.timetabling.models import TimetableSession

    sessions = TimetableSession.objects.for_org(ctx.org)
    named = sessions.annotate(_key=_room_key_sql()).filter(_key=room.key).exclude(room_record=room)
    count = sessions.filter(pk__in=list(named.values_list("pk", flat=True))).update(room_record=room, room=room.code)
    return count + sessions.filter(room_record=room).exclude(room=room.code).update(room=room.code)


def room_create(*, ctx: Ctx, data: RoomIn) -> Room:
    """Create a room of ``ctx.org``; sessions whose room text matches its code (case and spacing ignored)
    are linked to it. Raises DuplicateCode (409), NotFound for another organization's campus."""
    with transaction.atomic():
        _check_room_code(ctx, data.code)
        room = Room(organization=ctx.org)
        _room_fields(ctx, room, data)
        with org_change(ctx, "room", "created", ids=[room.pk]):
            save_or_raise(room, DuplicateCode(ROOM_DUPLICATE))
            _link_sessions(ctx, room)
    return room


def room_update(*, ctx: Ctx, room_id: UUID | str, data: RoomIn, if_match: str | None) -> Room:
    """Replace every field of a room; its sessions follow a new code. Raises NotFound, StaleWrite (412),
    DuplicateCode (409)."""
    with transaction.atomic():
        room = get_locked(Room, ctx, room_id, "Room")
        assert_fresh(room, if_match)
        _check_room_code(ctx, data.code, exclude_pk=room.pk)
        _room_fields(ctx, room, data)
        with org_change(ctx, "room", "updated", ids=[room.pk]):
            save_or_raise(room, DuplicateCode(ROOM_DUPLICATE))
            _link_sessions(ctx, room)
    return room


def room_delete(*, ctx: Ctx, room_id: UUID | str) -> None:
    """Delete a room that no session names. Raises NotFound, or Conflict (409) while sessions use it
    (make it inactive instead: its sessions keep it)."""
    with transaction.atomic():
        room = get_locked(Room, ctx, room_id, "Room")
        used = room.sessions.count()
        if used:
            raise Conflict(f"This room is used by {used} timetable session(s) and cannot be deleted. Make it inactive instead.")
        with org_change(ctx, "room", "deleted", ids=[room.pk]):
            room.delete()


def room_resolve(org: Organization, room_id: UUID | str | None, text: str | None) -> tuple[str, UUID | None]:
    """The ``(room text, room record id)`` a session write stores (ADR 0019): a ``room_id`` of the
    organization wins (its code is the text); else a text that matches a room's code, case and spacing
    ignored, is linked and spelled as the code; else the text as given, unlinked. NotFound "Room not
    found" for an unknown or another organization's ``room_id``."""
    if room_id is not None:
        room = get_in_org(Room.objects.for_org(org), org, room_id, "Room")
        return room.code, room.pk
    text = (text or "").strip()
    if not text:
        return "", None
    room = Room.objects.for_org(org).filter(key=room_key(text)).only("pk", "code").first()
    return (room.code, room.pk) if room is not None else (text, None)
