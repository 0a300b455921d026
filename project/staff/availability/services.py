"""Writes of teacher availability (ADR 0027).

:func:`availability_put` replaces a teacher's pattern, preferences, variants, limits and campuses in one
transaction, emits ``teacher updated`` once (the history captures the profile row, and the teacher row
when the form's word changes, so undo restores both) and keeps the form's ``availability`` word in step
with the painted windows (:func:`project.staff.availability.patterns.derive_word`). :func:`availability_follow_word` is the
other direction: the teacher form's word rewrites a pattern that was never painted.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import transaction

from project.catalogue.models import Campus
from project.core.changes import org_change
from project.core.concurrency import assert_fresh
from project.core.errors import NotFound
from project.core.tenancy import Ctx, get_in_org, get_locked
from project.staff.availability import patterns as av
from project.staff.models import Teacher, TeacherAvailability


def _window_json(w: dict[str, Any], *, level: bool = False) -> dict[str, Any]:
    out = {"weekday": w["weekday"], "start": av.hm(w["start"]), "end": av.hm(w["end"])}
    if level:
        out["level"] = w["level"]
    return out


def _sorted(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(items, key=lambda w: (w["weekday"], w["start"], w["end"], w.get("level", "")))


def availability_put(*, ctx: Ctx, teacher_id: UUID | str, data: dict[str, Any], if_match: str | None) -> TeacherAvailability:
    """Replace the availability of a teacher of ``ctx.org`` with ``data`` (snake_case keys of
    ``AvailabilityIn``, times as ``datetime.time``). The pattern becomes ``custom`` (painted): a session
    outside it is then a hard conflict. Windows are stored ``HH:MM``, sorted by weekday and time.

    ``if_match``: the profile's ``updatedAt`` (the teacher's while it has none); stale: StaleWrite 412 and
    nothing changes. NotFound 404 "Teacher not found", "Campus not found" (a campus id of another
    organization or none). Emits ``teacher updated`` with the teacher's id.
    """
    with transaction.atomic():
        teacher = get_locked(Teacher, ctx, teacher_id, "Teacher")
        profile = TeacherAvailability.objects.for_org(ctx.org).select_for_update().filter(teacher=teacher).first()
        assert_fresh(profile if profile is not None else teacher, if_match)
        campus_ids = list(dict.fromkeys(data.get("campus_ids") or []))
        if campus_ids:
            known = set(Campus.objects.for_org(ctx.org).filter(id__in=campus_ids).values_list("id", flat=True))
            if len(known) != len(campus_ids):
                raise NotFound("Campus not found")
        preferred = data.get("preferred_campus_id")
        if preferred is not None:
            get_in_org(Campus, ctx.org, preferred, label="Campus")
        if profile is None:
            profile = TeacherAvailability(organization=ctx.org, teacher=teacher)
        profile.custom = True
        profile.windows = _sorted([_window_json(w) for w in data.get("windows") or []])
        profile.preferences = _sorted([_window_json(p, level=True) for p in data.get("preferences") or []])
        profile.variants = sorted(
            (
                {
                    "name": v.get("name") or "",
                    "startDate": v["start_date"].isoformat(),
                    "endDate": v["end_date"].isoformat(),
                    "windows": _sorted([_window_json(w) for w in v.get("windows") or []]),
                }
                for v in data.get("variants") or []
            ),
            key=lambda v: (v["startDate"], v["endDate"], v["name"]),
        )
        profile.max_hours_per_day = data.get("max_hours_per_day")
        profile.max_hours_per_week = data.get("max_hours_per_week")
        profile.max_days_per_week = data.get("max_days_per_week")
        profile.campus_ids = [str(c) for c in campus_ids]
        profile.preferred_campus_id = preferred
        profile.preferred_campus_level = data.get("preferred_campus_level") or av.PREFERRED
        with org_change(ctx, "teacher", "updated", ids=[teacher.pk]):
            profile.save()
            word = av.derive_word(av.window_of(w) for w in profile.windows)
            if word != teacher.availability:
                teacher.availability = word
                teacher.save(update_fields=["availability", "updated_at"])
    return profile


def availability_follow_word(ctx: Ctx, teacher: Teacher) -> None:
    """The teacher form changed ``teacher.availability``: a pattern that was never painted (``custom``
    false, or none yet) becomes the word's (:func:`project.staff.availability.patterns.word_windows`); a painted
    one is left as it is. Call inside the form's write transaction (its change event covers this)."""
    profile = TeacherAvailability.objects.for_org(ctx.org).select_for_update().filter(teacher=teacher).first()
    if profile is not None and profile.custom:
        return
    windows = [w.to_dict() for w in av.word_windows(teacher.availability)]
    if profile is None:
        TeacherAvailability(organization=ctx.org, teacher=teacher, custom=False, windows=windows).save()
    elif profile.windows != windows:
        profile.windows = windows
        profile.save(update_fields=["windows", "updated_at"])
