"""Reads of teacher availability (ADR 0027): the pattern of one teacher, the patterns of many in one
query (the teacher list, the conflict engine, auto-allocation) and the unavailable time the planner board
shades. Every read starts from the organization; another organization's teacher is 404 "Teacher not found".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, time, timedelta
from typing import TYPE_CHECKING, Any

from project.core.tenancy import get_in_org
from project.staff.availability import patterns as av
from project.staff.models import Teacher, TeacherAvailability

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from project.accounts.models import Organization

# The profile's columns as read through the teacher (a LEFT JOIN: None for a teacher without a profile).
PROFILE_FIELDS = (
    "availability_profile__id",
    "availability_profile__custom",
    "availability_profile__windows",
    "availability_profile__preferences",
    "availability_profile__variants",
    "availability_profile__max_hours_per_day",
    "availability_profile__max_hours_per_week",
    "availability_profile__max_days_per_week",
    "availability_profile__campus_ids",
    "availability_profile__preferred_campus_id",
    "availability_profile__preferred_campus_level",
)


def _hours(value: Any) -> float | None:
    """Any: a Decimal, float or None from the database."""
    return float(value) if value is not None else None


def pattern_json(word: str, profile: Sequence[Any] | None) -> dict[str, Any]:
    """The ``AvailabilityPatternOut`` shape (camelCase keys, JSON-ready) of a teacher whose form says
    ``word`` and whose profile columns (:data:`PROFILE_FIELDS` order) are ``profile``; a teacher without a
    profile (``profile`` None or its id None) gets the word's pattern.

    Any: the columns are the row's raw values (JSON lists, decimals, UUIDs)."""
    if profile is None or profile[0] is None:
        return {
            "custom": False,
            "windows": [w.to_dict() for w in av.word_windows(word)],
            "preferences": [],
            "variants": [],
            "maxHoursPerDay": None,
            "maxHoursPerWeek": None,
            "maxDaysPerWeek": None,
            "campusIds": [],
            "preferredCampusId": None,
            "preferredCampusLevel": av.PREFERRED,
        }
    _id, custom, windows, preferences, variants, per_day, per_week, days, campuses, preferred, level = profile
    return {
        "custom": bool(custom),
        "windows": list(windows or []),
        "preferences": list(preferences or []),
        "variants": list(variants or []),
        "maxHoursPerDay": _hours(per_day),
        "maxHoursPerWeek": _hours(per_week),
        "maxDaysPerWeek": days,
        "campusIds": [str(c) for c in campuses or []],
        "preferredCampusId": preferred,
        "preferredCampusLevel": level or av.PREFERRED,
    }


def profile_values(profile: TeacherAvailability | None) -> tuple | None:
    """A loaded profile's columns in :data:`PROFILE_FIELDS` order (None without one)."""
    if profile is None:
        return None
    return (
        profile.pk,
        profile.custom,
        profile.windows,
        profile.preferences,
        profile.variants,
        profile.max_hours_per_day,
        profile.max_hours_per_week,
        profile.max_days_per_week,
        profile.campus_ids,
        profile.preferred_campus_id,
        profile.preferred_campus_level,
    )


def facts_of(word: str, profile: Sequence[Any] | None) -> av.Availability:
    """The pure :class:`project.staff.availability.patterns.Availability` of a teacher (see :func:`pattern_json`)."""
    if profile is None or profile[0] is None:
        return av.of_word(word)
    _id, custom, windows, preferences, variants, per_day, per_week, days, campuses, preferred, level = profile
    return av.from_row(
        custom=bool(custom),
        windows=windows,
        preferences=preferences,
        variants=variants,
        max_hours_per_day=per_day,
        max_hours_per_week=per_week,
        max_days_per_week=days,
        campus_ids=campuses,
        preferred_campus_id=preferred,
        preferred_campus_level=level,
    )


def availability_get(*, org: Organization, teacher_id: UUID | str) -> dict[str, Any]:
    """``GET /api/teachers/{id}/availability``: the ``AvailabilityOut`` shape (snake_case keys for the
    schema). ``updated_at`` is the profile's, or the teacher's while it has none (the version an
    ``If-Match`` compares). 1 query; NotFound "Teacher not found"."""
    teacher = get_in_org(Teacher.objects.for_org(org).select_related("availability_profile"), org, teacher_id, label="Teacher")
    profile = getattr(teacher, "availability_profile", None)
    out = pattern_json(teacher.availability, profile_values(profile))
    return {
        "teacher_id": teacher.pk,
        "availability": teacher.availability,
        "updated_at": profile.updated_at if profile is not None else teacher.updated_at,
        **out,
    }


def availability_list_by_teacher(
    *, org: Organization, teacher_ids: Iterable[object] | None = None
) -> dict[object, av.Availability]:
    """``{teacher id: Availability}`` of the organization's teachers (those of ``teacher_ids`` when given).
    1 query."""
    qs = Teacher.objects.for_org(org)
    if teacher_ids is not None:
        qs = qs.filter(id__in=[i for i in teacher_ids if i is not None])
    return {row[0]: facts_of(row[1], row[2:]) for row in qs.values_list("id", "availability", *PROFILE_FIELDS)}


def availability_unavailable_times(
    *, org: Organization, start: date, end: date, teacher_ids: Iterable[object] | None = None
) -> dict[object, list[dict[str, Any]]]:
    """What the planner board and the allocation grid shade: ``{teacher id: [{"date": date, "start":
    "HH:MM", "end": "HH:MM"}, ...]}``, the times of each day from ``start`` to ``end`` (inclusive, at most
    400 days) outside the teacher's available windows or inside a prohibited preference, within
    07:00-22:00 (the board's day). Only teachers with a painted pattern (``custom``) are shaded: the
    form's word is advice (the soft ``teacher_unavailable``). 1 query."""
    day_from, day_to = time(7, 0), time(22, 0)
    out: dict[object, list[dict[str, Any]]] = {}
    days = [start + timedelta(days=i) for i in range(min((end - start).days + 1, 400))]
    for teacher_id, facts in availability_list_by_teacher(org=org, teacher_ids=teacher_ids).items():
        if not facts.custom:
            continue
        spans: list[dict[str, Any]] = []
        for day in days:
            open_ = _free_spans(facts, day, day_from, day_to)
            at = day_from
            for a, b in open_:
                if a > at:
                    spans.append({"date": day, "start": av.hm(at), "end": av.hm(a)})
                at = max(at, b)
            if at < day_to:
                spans.append({"date": day, "start": av.hm(at), "end": av.hm(day_to)})
        out[teacher_id] = spans
    return out


def _free_spans(facts: av.Availability, day: date, lo: time, hi: time) -> list[tuple[time, time]]:
    """The available spans of ``day`` clipped to ``[lo, hi)``, prohibited preferences cut out, sorted."""
    weekday = day.weekday()
    spans = sorted((max(w.start, lo), min(w.end, hi)) for w in facts.windows_on(day) if w.start < hi and w.end > lo)
    for p in facts.preferences:
        if p.level != av.PROHIBITED or p.weekday != weekday:
            continue
        cut: list[tuple[time, time]] = []
        for a, b in spans:
            if p.end <= a or p.start >= b:
                cut.append((a, b))
                continue
            if a < p.start:
                cut.append((a, p.start))
            if p.end < b:
                cut.append((p.end, b))
        spans = cut
    return sorted(spans)
