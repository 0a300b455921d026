"""Re-planning around late changes (ADR 0015): what a change hits.

A *change* is a closure (days nobody teaches: a holiday or term break, saved or proposed, optionally of
one campus: a campus closure day) or a teacher's leave (saved or proposed, whole days or part days).
:func:`replan_change` resolves the request into a :class:`Change`; :func:`replan_impact` answers which sessions it
hits, by block group and by teacher, with hours (``GET /api/replan/impact``).

A session is hit when it is not cancelled and
- closure: its date is one of the closed days (of the campus of its block group, when a campus is given);
- leave: its teacher is the teacher on leave, its date in the leave, and for part-day leave its hours
  overlap the leave's (``conflicts.LeaveSpan.covers``).

Reads only: 3-4 queries whatever the number of sessions.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, time, timedelta
from typing import TYPE_CHECKING
from uuid import UUID

from django.db.models import Max, Min, Q

from project.core.errors import ValidationFailed
from project.core.tenancy import Ctx, get_in_org
from project.staff.models import Teacher
from project.timetabling import conflicts as cf
from project.timetabling.calendar import holiday_spans, week_start
from project.timetabling.models import Holiday, TimetableSession
from project.timetabling.replan.change import Change, change_row, unresolved_row
from project.timetabling.replan.moves import SEARCH_MONTHS, closure_moves

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.planning.models import BlockGroup

CLOSURE = "closure"
LEAVE = "leave"
MAX_RANGE_DAYS = 400


def _range(start: date | None, end: date | None) -> tuple[date, date]:
    if start is None:
        raise ValidationFailed.field("start", "Start date is required")
    if end is None:
        raise ValidationFailed.field("end", "End date is required")
    if end < start:
        raise ValidationFailed.field("end", "End date must be on or after start date")
    if (end - start).days > MAX_RANGE_DAYS:
        raise ValidationFailed.field("end", f"The range can be at most {MAX_RANGE_DAYS} days")
    return start, end


def replan_change(
    org: Organization,
    *,
    holiday_id: UUID | None = None,
    leave_id: UUID | None = None,
    teacher_id: UUID | None = None,
    campus_id: UUID | None = None,
    start: date | None = None,
    end: date | None = None,
    start_time: time | None = None,
    end_time: time | None = None,
) -> Change:
    """The change a request names (see :func:`_change_of`), with ``params``: the fields given, as the API
    spells them (``{"holidayId": "…", "start": "2026-02-04"}``), which a stored proposal keeps."""
    given = {
        "holidayId": holiday_id,
        "leaveId": leave_id,
        "teacherId": teacher_id,
        "campusId": campus_id,
        "start": start,
        "end": end,
        "startTime": start_time,
        "endTime": end_time,
    }
    change = _change_of(
        org,
        holiday_id=holiday_id,
        leave_id=leave_id,
        teacher_id=teacher_id,
        campus_id=campus_id,
        start=start,
        end=end,
        start_time=start_time,
        end_time=end_time,
    )
    change.params = {k: v.isoformat() if isinstance(v, date | time) else str(v) for k, v in given.items() if v is not None}
    return change


def _change_of(
    org: Organization,
    *,
    holiday_id: UUID | None = None,
    leave_id: UUID | None = None,
    teacher_id: UUID | None = None,
    campus_id: UUID | None = None,
    start: date | None = None,
    end: date | None = None,
    start_time: time | None = None,
    end_time: time | None = None,
) -> Change:
    """The change a request names, in this order: a saved holiday (``holiday_id``), saved leave
    (``leave_id``), proposed leave (``teacher_id`` with ``start``/``end`` and optional times), or a
    proposed closure (``start``/``end``, optional ``campus_id``). Raises NotFound for ids of another
    organization and ValidationFailed (400) for a missing or bad range."""
    from project.catalogue.models import Campus
    from project.staff.leave.services import leave_check_times
    from project.staff.models import Teacher, TeacherLeave

    if holiday_id is not None:
        holiday = get_in_org(Holiday.objects.for_org(org), org, holiday_id, label="Holiday")
        if holiday.is_recurring:  # every year it falls in while the organization has sessions
            bounds = TimetableSession.objects.for_org(org).aggregate(lo=Min("actual_date"), hi=Max("actual_date"))
            lo, hi = bounds["lo"] or holiday.start_date, bounds["hi"] or holiday.end_date
            spans = [(s.start, s.end) for s in holiday_spans([holiday], lo, hi)] or [(holiday.start_date, holiday.end_date)]
        else:
            spans = [(holiday.start_date, holiday.end_date)]
        kind_label = "Term break" if holiday.type == Holiday.Type.TERM_BREAK else "Holiday"
        return Change(CLOSURE, f"{kind_label} {holiday.name}", spans=spans)
    if leave_id is not None:
        leave = get_in_org(TeacherLeave.objects.for_org(org).select_related("teacher"), org, leave_id, label="Leave")
        span = cf.LeaveSpan(leave.start_date, leave.end_date, leave.start_time, leave.end_time, leave.reason)
        return Change(
            LEAVE,
            f"{leave.teacher.full_name}'s leave",
            spans=[(leave.start_date, leave.end_date)],
            teacher_id=leave.teacher_id,
            leave=span,
        )
    start, end = _range(start, end)
    if teacher_id is not None:
        teacher = get_in_org(Teacher.objects.for_org(org), org, teacher_id, label="Teacher")
        leave_check_times(start_time, end_time)
        span = cf.LeaveSpan(start, end, start_time, end_time, "")
        return Change(LEAVE, f"{teacher.full_name}'s leave", spans=[(start, end)], teacher_id=teacher.pk, leave=span)
    campus = get_in_org(Campus.objects.for_org(org), org, campus_id, label="Campus") if campus_id is not None else None
    description = f"Closure of {campus.name}" if campus is not None else "Closure"
    return Change(CLOSURE, description, spans=[(start, end)], campus_id=campus.pk if campus is not None else None)


def replan_hit_sessions(org: Organization, change: Change) -> list[dict]:
    """The sessions ``change`` hits (see the module), by date and start time: ``[{id, blockGroupId,
    blockGroupCode, blockGroupName, teacherId, teacherName, actualDate, startTime, endTime, actualHours}]``
    (1 query)."""
    q = Q()
    for lo, hi in change.spans:
        q |= Q(actual_date__gte=lo, actual_date__lte=hi)
    qs = TimetableSession.objects.for_org(org).filter(q).exclude(status=TimetableSession.Status.CANCELLED)
    if change.kind == LEAVE:
        qs = qs.filter(teacher_id=change.teacher_id)
    elif change.campus_id is not None:
        qs = qs.filter(block_group__campus_id=change.campus_id)
    rows = qs.order_by("actual_date", "start_time", "block_group__code").values_list(
        "id",
        "block_group_id",
        "block_group__code",
        "block_group__name",
        "teacher_id",
        "teacher__first_name",
        "teacher__last_name",
        "actual_date",
        "start_time",
        "end_time",
        "actual_hours",
    )
    out = []
    for sid, gid, code, name, tid, first, last, day, begin, finish, hours in rows:
        if change.leave is not None and not change.leave.covers(day, begin, finish):
            continue
        out.append(
            {
                "id": sid,
                "blockGroupId": gid,
                "blockGroupCode": code,
                "blockGroupName": name,
                "teacherId": tid,
                "teacherName": Teacher.name_of(first, last) if tid is not None else "Unassigned",
                "actualDate": day,
                "startTime": begin,
                "endTime": finish,
                "actualHours": float(hours or 0),
            }
        )
    return out


def replan_impact(org: Organization, change: Change) -> dict:
    """``{kind, description, start, end, sessionCount, hours, blockGroupCount, teacherCount,
    byBlockGroup: [{blockGroupId, code, name, sessionCount, hours, sessionIds}], byTeacher: [{teacherId
    (null: unassigned), name, sessionCount, hours}], sessions: [...replan_hit_sessions]}``; hours are
    ``actualHours`` summed; groups by code, teachers by name."""
    sessions = replan_hit_sessions(org, change)
    groups: dict = {}
    teachers: dict = {}
    for s in sessions:
        g = groups.setdefault(
            s["blockGroupId"],
            {
                "blockGroupId": s["blockGroupId"],
                "code": s["blockGroupCode"],
                "name": s["blockGroupName"],
                "sessionCount": 0,
                "hours": 0.0,
                "sessionIds": [],
            },
        )
        g["sessionCount"] += 1
        g["hours"] += s["actualHours"]
        g["sessionIds"].append(s["id"])
        t = teachers.setdefault(
            s["teacherId"],
            {
                "teacherId": s["teacherId"],
                "name": s["teacherName"],
                "sessionCount": 0,
                "hours": 0.0,
            },
        )
        t["sessionCount"] += 1
        t["hours"] += s["actualHours"]
    return {
        "kind": change.kind,
        "description": change.description,
        "start": change.start,
        "end": change.end,
        "sessionCount": len(sessions),
        "hours": round(sum(s["actualHours"] for s in sessions), 2),
        "blockGroupCount": len(groups),
        "teacherCount": sum(1 for k in teachers if k is not None),
        "byBlockGroup": sorted(({**g, "hours": round(g["hours"], 2)} for g in groups.values()), key=lambda g: g["code"]),
        "byTeacher": sorted(
            ({**t, "hours": round(t["hours"], 2)} for t in teachers.values()),
            key=lambda t: (t["teacherId"] is None, t["name"]),
        ),
        "sessions": sessions,
    }


# ----------------------------------------------------------------------------------------- proposal

REALLOCATION_SECONDS = 5.0
STALE = "The timetable changed since this proposal was made. Make a new proposal and try again."


def _window(change: Change, hits: list[dict], groups: Iterable[BlockGroup]) -> tuple[date, date]:
    """The dates a proposal reads: from the week of the first hit session (or the change) to ``SEARCH_MONTHS`` past
    the latest end date of the hit groups (closures) or the end of the last hit week (leave)."""
    first = min([change.start] + [s["actualDate"] for s in hits])
    if change.kind == LEAVE:
        last = max([change.end] + [s["actualDate"] for s in hits])
        return week_start(first), week_start(last) + timedelta(days=6)
    ends = [cf.add_months(g.end_date or first, SEARCH_MONTHS) for g in groups]
    return week_start(first), max(ends + [cf.add_months(change.end, SEARCH_MONTHS)])


def _groups_of(org: Organization, hits: list[dict]) -> list[BlockGroup]:
    from project.planning.models import BlockGroup

    return list(BlockGroup.objects.for_org(org).filter(pk__in={s["blockGroupId"] for s in hits}))


def _version(org: Organization, lo: date, hi: date, session_ids: list[object]) -> str:
    """Digest of what a proposal depends on: the sessions of [lo, hi], teachers, qualifications, holidays
    and leave (aggregates, 5 queries), and the sessions it changes."""
    import hashlib

    from django.db.models import Count

    from project.staff.models import Teacher, TeacherLeave, TeacherUnit

    parts = [lo.isoformat(), hi.isoformat(), ",".join(sorted(str(i) for i in session_ids))]
    parts.append(
        str(
            TimetableSession.objects.for_org(org)
            .filter(actual_date__gte=lo, actual_date__lte=hi)
            .aggregate(n=Count("id"), last=Max("updated_at"), assigned=Count("teacher_id"))
        )
    )
    for model in (Teacher, TeacherUnit, Holiday, TeacherLeave):
        parts.append(str(model.objects.for_org(org).aggregate(n=Count("id"), last=Max("updated_at"))))
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


def _scope(
    sessions: list[dict], block_group_ids: Iterable[UUID | str] | None = None, session_ids: Iterable[UUID | str] | None = None
) -> list[dict]:
    if block_group_ids:
        wanted = {str(i) for i in block_group_ids}
        sessions = [s for s in sessions if str(s["blockGroupId"]) in wanted]
    if session_ids:
        wanted = {str(i) for i in session_ids}
        sessions = [s for s in sessions if str(s["id"]) in wanted]
    return sessions


MAKE_UP, SHIFT, REALLOCATE = "makeUp", "shift", "reallocate"
LABELS = {MAKE_UP: "Make-up", SHIFT: "Shift", REALLOCATE: "Another teacher"}
KEEP_PROPOSALS = timedelta(days=1)


def _figures(hits: list[dict], changes: list[dict], unresolved: list[dict], extended: list[dict[str, object]]) -> dict:
    """``{sessionsHit, sessionsMoved, hoursMovedToOtherWeek, teachersChanged (sessions that get another
    teacher), unresolved, endDatesExtended}``; hours are ``actualHours``."""
    moved = [c for c in changes if c["from"]["actualDate"] != c["to"]["actualDate"]]
    return {
        "sessionsHit": len(hits),
        "sessionsMoved": len(moved),
        "hoursMovedToOtherWeek": round(
            sum(c["actualHours"] for c in moved if week_start(c["from"]["actualDate"]) != week_start(c["to"]["actualDate"])), 2
        ),
        "teachersChanged": sum(1 for c in changes if c["from"]["teacherId"] != c["to"]["teacherId"]),
        "unresolved": len(unresolved),
        "endDatesExtended": extended,
    }


def _preselect(options: dict[str, dict]) -> str:
    """The option that leaves fewest sessions unresolved, then moves fewest sessions, then extends fewest
    end dates (make-up first on a tie)."""
    return min(
        options,
        key=lambda k: (
            options[k]["figures"]["unresolved"],
            options[k]["figures"]["sessionsMoved"],
            len(options[k]["figures"]["endDatesExtended"]),
            k != MAKE_UP,
        ),
    )


def _soundly(
    org: Organization, change: Change, hits: list[dict], found: dict[str, tuple[list[dict], list[dict], list[dict[str, object]]]]
) -> dict[str, tuple[list[dict], list[dict], list[dict[str, object]]]]:
    """Each option without the changes whose final state :func:`replan_final_conflicts` (apply's check) refuses:
    a session already double-booked where it stays (leave keeps dates), or one a dropped change leaves in
    the way. A hit session so dropped is unresolved with the conflict's message; rounds until none is
    refused (1 query, then 6 per option and round)."""
    ids = {str(c["sessionId"]) for changes, _u, _e in found.values() for c in changes}
    if not ids:
        return found
    rows = {str(r.pk): r for r in TimetableSession.objects.for_org(org).select_related("block_group", "unit").filter(pk__in=ids)}
    hit_ids = {str(s["id"]) for s in hits}
    out = {}
    for key, (changes, unresolved, extended) in found.items():
        changes, unresolved = list(changes), list(unresolved)
        while changes:
            writes = [
                [
                    str(c["sessionId"]),
                    c["to"]["actualDate"].isoformat(),
                    None if c["to"]["teacherId"] is None else str(c["to"]["teacherId"]),
                ]
                for c in changes
            ]
            refused: dict[str, str] = {}
            for conflict in replan_final_conflicts(org, change, rows, writes):
                for sid in conflict.session_ids:
                    if str(sid) in rows and any(w[0] == str(sid) for w in writes):
                        refused.setdefault(str(sid), conflict.message)
            if not refused:
                break
            for c in changes:
                sid = str(c["sessionId"])
                if sid in refused and sid in hit_ids:
                    unresolved.append(
                        {
                            "sessionId": c["sessionId"],
                            "blockGroupCode": c["blockGroupCode"],
                            "unitCode": c["unitCode"],
                            "actualDate": c["from"]["actualDate"],
                            "startTime": c["from"]["startTime"],
                            "endTime": c["from"]["endTime"],
                            "reason": f"Would still be in conflict: {refused[sid]}",
                        }
                    )
            changes = [c for c in changes if str(c["sessionId"]) not in refused]
        kept_groups = {c["blockGroupId"] for c in changes if c["from"]["actualDate"] != c["to"]["actualDate"]}
        out[key] = (changes, unresolved, [e for e in extended if e["blockGroupId"] in kept_groups])
    return out


def replan_propose(
    ctx: Ctx,
    change: Change,
    *,
    block_group_ids: Iterable[UUID | str] | None = None,
    session_ids: Iterable[UUID | str] | None = None,
) -> dict:
    """A proposal that fixes every session ``change`` hits (of the chosen block groups or sessions), stored
    so that ``replan_apply`` writes exactly it (ADR 0015). Writes only the proposal row, never a session.

    Closures get two options (:mod:`project.timetabling.replan.moves`), the coordinator chooses:
    - ``makeUp``: only the hit sessions move, each to its nearest free slot (same week first, on the
      group's preferred days, then any weekday; then later weeks), same time, teacher and room; unit
      order and the group's "next unit in a new week" kept.
    - ``shift``: a hit session takes the next free date of its group and, where the group is full, later
      sessions of the group at that time move up one slot each (unit order kept); CP-SAT, hinted with the
      greedy plan, keeps the fewest unresolved, then fewest moved.
    Either may go past a block group's end date (up to ``SEARCH_MONTHS``); the end date then becomes the
    last teaching day plus one month (docs/behaviour/generation.md). Leave has one option, ``reallocate``: each hit
    session keeps its time and gets another qualified, available teacher (auto-allocation rules).
    ``preselected`` is the option with fewest unresolved, then fewest sessions moved.

    The change's fields (``change.params``) and the scope are stored with the proposal, so that apply
    re-reads this change and an apply naming a change must name this one. Raises NotFound for a scope id
    of another organization.

    Answer: ``{id, version, kind, description, start, end, preselected, options: [{key, label, changes,
    unresolved, figures}], changes, unresolved, figures}`` (the last three: the preselected option's);
    ``changes: [{sessionId, blockGroupId, blockGroupCode, unitCode, reason, actualHours, from:
    {actualDate, startTime, endTime, teacherId, teacherName}, to: {...}}]``, ``unresolved: [{sessionId,
    blockGroupCode, unitCode, actualDate, startTime, endTime, reason}]``, ``figures`` as
    :func:`_figures`.
    """
    from django.utils import timezone

    from project.timetabling.models import ReplanProposal
    from project.timetabling.replan.moves import Board, make_up_moves

    hits = _scope(replan_hit_sessions(ctx.org, change), block_group_ids, session_ids)
    lo, hi = _window(change, hits, _groups_of(ctx.org, hits))
    version = _version(ctx.org, lo, hi, [s["id"] for s in hits])
    found: dict[str, tuple[list[dict], list[dict], list[dict[str, object]]]] = {}
    if change.kind == LEAVE:
        found[REALLOCATE] = _reallocate(ctx, change, hits)
    else:
        board = Board(ctx.org, change, hits, (lo, hi)) if hits else None
        found[MAKE_UP] = make_up_moves(ctx.org, change, hits, (lo, hi), board=board)
        found[SHIFT] = closure_moves(ctx.org, change, hits, (lo, hi), board=board)
    sound = _soundly(ctx.org, change, hits, found)
    options = {
        key: {"key": key, "label": LABELS[key], "changes": c, "unresolved": u, "figures": _figures(hits, c, u, e)}
        for key, (c, u, e) in sound.items()
    }
    chosen = _preselect(options)
    ReplanProposal.objects.for_org(ctx.org).filter(created_at__lt=timezone.now() - KEEP_PROPOSALS).delete()
    row = ReplanProposal.objects.for_org(ctx.org).create(
        organization=ctx.org,
        change={
            **change.params,
            **({"blockGroupIds": sorted(str(i) for i in block_group_ids)} if block_group_ids else {}),
            **({"sessionIds": sorted(str(i) for i in session_ids)} if session_ids else {}),
        },
        version=version,
        preselected=chosen,
        options={
            key: {
                "writes": [
                    [
                        str(c["sessionId"]),
                        c["to"]["actualDate"].isoformat(),
                        None if c["to"]["teacherId"] is None else str(c["to"]["teacherId"]),
                    ]
                    for c in o["changes"]
                ]
            }
            for key, o in options.items()
        },
    )
    return {
        "id": row.pk,
        "version": version,
        "kind": change.kind,
        "description": change.description,
        "start": change.start,
        "end": change.end,
        "preselected": chosen,
        "options": list(options.values()),
        "changes": options[chosen]["changes"],
        "unresolved": options[chosen]["unresolved"],
        "figures": options[chosen]["figures"],
    }


def _reallocate(ctx: Ctx, change: Change, hits: list[dict]) -> tuple[list[dict], list[dict], list[dict[str, object]]]:
    from project.timetabling import auto_allocation as aa

    if not hits:
        return [], [], []
    problem = aa.reallocation_problem(ctx, [s["id"] for s in hits], {change.teacher_id: [change.leave]})
    solution = aa.solve(problem, REALLOCATION_SECONDS)
    slot_of = {s.id: s for s in problem.targets}
    reason = f"{hits[0]['teacherName']} is on leave"
    changes, unresolved = [], []
    for s in hits:
        slot = slot_of.get(s["id"])
        unit = slot.unit_code if slot is not None else ""
        teacher = solution.assignment.get(s["id"])
        if teacher is None:
            why = problem.reasons.get(s["id"]) or (
                f"Every teacher qualified for {unit} is needed elsewhere or would exceed their maximum weekly hours"
            )
            unresolved.append(unresolved_row(s, unit, why))
        else:
            changes.append(
                change_row(
                    s, unit, reason, day=s["actualDate"], teacher_id=teacher, teacher_name=problem.data.teachers[teacher].name
                )
            )
    return changes, unresolved, []


# ------------------------------------------------------------------------------------------- apply

NOT_PROPOSED = "The changes must be the proposal's, unchanged. Make a new proposal."
OTHER_CHANGE = "The change is not the one this proposal was made for."


def replan_final_conflicts(
    org: Organization, change: Change, rows: dict[str, TimetableSession], writes: list[list]
) -> list[cf.Conflict]:
    """Every hard conflict the sessions ``writes`` touches would hold once written, those that were already
    there included (docs/behaviour/conflicts.md §1 and the re-plan's own rules, ADR 0015): double booking of the group,
    teacher or room, a holiday or term break, the teacher's leave (saved or the proposed change's), a day
    the change closes (of its campus), and a teacher the session is given who is not of the organization,
    inactive or not qualified for its unit. ``rows``: the stored sessions by id text, locked, block group
    and unit loaded; ``writes``: ``[[sessionId, actualDate (ISO), teacherId or None]]``. 6 queries."""
    proposed: list[cf.Slot] = []
    for sid, day, teacher in writes:
        slot = cf.Slot.of(rows[sid])
        slot.date = date.fromisoformat(day)
        slot.teacher_id = None if teacher is None else UUID(teacher)
        proposed.append(slot)
    ids = {s.id for s in proposed}
    others = cf.load_neighbourhood(org, proposed, exclude_ids=ids)
    lo, hi = week_start(min(s.date for s in proposed)), week_start(max(s.date for s in proposed)) + timedelta(days=6)
    data = cf.load_data(org, lo, hi, {s.teacher_id for s in proposed if s.teacher_id is not None})
    found = cf.hard(cf.detect(others + proposed, data, focus=ids))
    closed = {d for a, b in change.spans for d in (a + timedelta(days=n) for n in range((b - a).days + 1))}
    for slot in proposed:
        row = rows[str(slot.id)]
        where = f"{slot.group_code} {slot.unit_code} on {slot.date.isoformat()} {slot.start.strftime('%H:%M')}"
        if (
            change.kind == CLOSURE
            and slot.date in closed
            and slot.status != cf.CANCELLED
            and (change.campus_id is None or row.block_group.campus_id == change.campus_id)
        ):
            found.append(cf.Conflict(cf.HOLIDAY, cf.HARD, [slot.id], f"{where} falls on {change.description}", slot.date))
        if (
            change.leave is not None
            and slot.teacher_id == change.teacher_id
            and change.leave.covers(slot.date, slot.start, slot.end)
        ):
            found.append(cf.Conflict(cf.TEACHER_ON_LEAVE, cf.HARD, [slot.id], f"{where}: {change.description}", slot.date))
        if slot.teacher_id is not None and slot.teacher_id != row.teacher_id:
            facts = data.teachers.get(slot.teacher_id)
            if facts is None or not facts.is_active or (slot.teacher_id, slot.unit_id) not in data.qualified:
                found.append(
                    cf.Conflict(cf.TEACHER_UNQUALIFIED, cf.HARD, [slot.id], f"{where}: the teacher cannot take it", slot.date)
                )
    unique = {c.key: c for c in found}
    return sorted(unique.values(), key=lambda c: (c.date or date.min, c.type))


def replan_apply(
    ctx: Ctx,
    proposal_id: UUID | str,
    *,
    version: str | None,
    option: str | None = None,
    changes: list[dict] | None = None,
    request: dict | None = None,
) -> dict:
    """Write one option of a stored proposal exactly, all-or-nothing, with one change event (entity
    ``timetable_session``, action ``replanned``): one activity in the history, undone as one step.

    ``proposal_id``: ``POST /api/replan/propose``'s ``id`` (NotFound "Re-plan proposal not found" for an
    unknown id or another organization's); ``version``: its ``version``; ``option``: one of its options'
    keys (default: ``preselected``; another key is a 400 on ``option``). ``changes`` (optional, as older
    clients send them: ``[{session_id, actual_date, teacher_id}]``) must be the option's changes exactly,
    else ValidationFailed on ``changes``; ``request``: the change's and scope's fields the body names, if
    any, must be those of the proposal, else ValidationFailed.
    Refused with StaleWrite (412) when the version differs or anything the proposal read changed since,
    and with SchedulingConflict (409 ``conflict``, naming the sessions) when the final state of a session
    it touches would hold a hard conflict (:func:`replan_final_conflicts`, old ones included); nothing is written
    then. Block groups whose last teaching day moves past their end date get the last day plus one month
    (docs/behaviour/generation.md).
    Answer: ``{applied: true, option, sessionIds, endDatesExtended: [{blockGroupId, code, from, to}]}``.
    """
    from django.db import transaction
    from django.utils import timezone

    from project.core.changes import org_change
    from project.core.errors import SchedulingConflict, StaleWrite
    from project.planning.models import BlockGroup
    from project.timetabling.calendar import TermCalendar
    from project.timetabling.models import ReplanProposal

    with transaction.atomic():
        proposal = get_in_org(
            ReplanProposal.objects.for_org(ctx.org).select_for_update(), ctx.org, proposal_id, "Re-plan proposal"
        )
        stored = proposal.change or {}
        if request:
            named = {k: v for k, v in request.items() if k in _CHANGE_KEYS.values()}
            if named and named != {k: v for k, v in stored.items() if k in _CHANGE_KEYS.values()}:
                raise ValidationFailed(OTHER_CHANGE)  # another change, or this one named partly
            if any(sorted(request[k]) != stored.get(k) for k in ("blockGroupIds", "sessionIds") if k in request):
                raise ValidationFailed(OTHER_CHANGE)
        key = option or proposal.preselected
        if key not in proposal.options:
            raise ValidationFailed.field("option", f"Choose one of the proposal's options: {', '.join(proposal.options)}")
        writes: list[list] = proposal.options[key]["writes"]
        if changes is not None:
            sent = {
                (
                    str(c["session_id"]),
                    c["actual_date"].isoformat(),
                    None if c.get("teacher_id") is None else str(c["teacher_id"]),
                )
                for c in changes
            }
            if len(sent) != len(changes) or sent != {tuple(w) for w in writes}:
                raise ValidationFailed.field("changes", NOT_PROPOSED)
        if not version or version != proposal.version:
            raise StaleWrite(STALE)
        fields = {k: stored.get(v) for k, v in _CHANGE_KEYS.items()}
        for name in ("holiday_id", "leave_id", "teacher_id", "campus_id"):
            fields[name] = None if fields[name] is None else UUID(str(fields[name]))
        for name in ("start", "end"):
            fields[name] = None if fields[name] is None else date.fromisoformat(str(fields[name]))
        for name in ("start_time", "end_time"):
            fields[name] = None if fields[name] is None else time.fromisoformat(str(fields[name]))
        change = replan_change(ctx.org, **fields)
        scope_groups, scope_sessions = stored.get("blockGroupIds"), stored.get("sessionIds")
        hits = _scope(replan_hit_sessions(ctx.org, change), scope_groups, scope_sessions)
        groups = {
            g.pk: g
            for g in BlockGroup.objects.for_org(ctx.org).select_for_update().filter(pk__in={s["blockGroupId"] for s in hits})
        }
        lo, hi = _window(change, hits, groups.values())
        if version != _version(ctx.org, lo, hi, [s["id"] for s in hits]):
            raise StaleWrite(STALE)
        if not writes:
            return {"applied": True, "option": key, "sessionIds": [], "endDatesExtended": []}
        rows = {
            str(r.pk): r
            for r in TimetableSession.objects.for_org(ctx.org)
            .select_for_update()
            .select_related("block_group", "unit")
            .filter(pk__in=[w[0] for w in writes])
        }
        if len(rows) != len({w[0] for w in writes}):
            raise StaleWrite(STALE)
        conflicts = replan_final_conflicts(ctx.org, change, rows, writes)
        if conflicts:
            names = ", ".join(sorted({str(i) for c in conflicts for i in c.session_ids if str(i) in rows}))
            raise SchedulingConflict(
                f"The re-plan would leave {len(conflicts)} hard conflict{'s' if len(conflicts) != 1 else ''} "
                f"(sessions {names}). Make a new proposal.",
                [c.to_dict() for c in conflicts],
            )
        with org_change(ctx, "timetable_session", "replanned", ids=[rows[w[0]].pk for w in writes]):
            terms = TermCalendar.for_org(ctx.org)
            now = timezone.now()
            last: dict = {}
            for sid, iso, teacher in writes:
                row = rows[sid]
                day = date.fromisoformat(iso)
                row.actual_date = day
                row.day_of_week = day.isoweekday()
                start = row.block_group.start_date or day
                row.week_number = (week_start(day) - week_start(start)).days // 7 + 1
                row.term = terms.term_of(day)
                row.teacher_id = None if teacher is None else UUID(teacher)
                row.updated_at = now
                last[row.block_group_id] = max(last.get(row.block_group_id, day), day)
            TimetableSession.objects.for_org(ctx.org).bulk_update(
                list(rows.values()), ["actual_date", "day_of_week", "week_number", "term", "teacher", "updated_at"]
            )
            extended = []
            for gid, day in sorted(last.items(), key=lambda kv: groups[kv[0]].code):
                group = groups[gid]
                if group.end_date is not None and day > group.end_date:
                    latest = (
                        TimetableSession.objects.for_org(ctx.org)
                        .filter(block_group_id=gid)
                        .exclude(status=TimetableSession.Status.CANCELLED)
                        .aggregate(hi=Max("actual_date"))["hi"]
                        or day
                    )
                    extended.append(
                        {"blockGroupId": gid, "code": group.code, "from": group.end_date, "to": cf.add_months(latest, 1)}
                    )
                    group.end_date = cf.add_months(latest, 1)
                    group.save(update_fields=["end_date", "updated_at"])
            return {"applied": True, "option": key, "sessionIds": [rows[w[0]].pk for w in writes], "endDatesExtended": extended}


# The change's fields in a stored proposal's ``change`` (the request's JSON names) -> ``replan_change``'s keywords.
_CHANGE_KEYS = {
    "holiday_id": "holidayId",
    "leave_id": "leaveId",
    "teacher_id": "teacherId",
    "campus_id": "campusId",
    "start": "start",
    "end": "end",
    "start_time": "startTime",
    "end_time": "endTime",
}
