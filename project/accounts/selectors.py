"""Reads of the accounts area (docs/engineering.md, Layout). Every read of another app's rows goes through ``for_org``."""

from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.db.models import Model, QuerySet
from django.utils import timezone
from pydantic.alias_generators import to_camel

from project.accounts.models import Organization, Passkey, User
from project.accounts.schemas import DEFAULT_PREFERENCES, DEFAULT_THEME
from project.core.errors import NotFound
from project.core.tenancy import Ctx, get_in_org


def user_get_by_email(email: str) -> User | None:
    """The user with this email (stored lower case), any organization, or None."""
    return User.objects.select_related("organization").filter(email=(email or "").strip().lower()).first()


def user_get_by_id(user_id: UUID | str) -> User | None:
    return User.objects.select_related("organization").filter(pk=user_id).first()


def user_list(org: Organization) -> QuerySet[User]:
    """The users of one organization, ordered by name then email; one query however many."""
    return org.users.select_related("organization").order_by("first_name", "last_name", "email")


def user_get(org: Organization, user_id: UUID | str) -> User:
    """A user of ``org`` by id, else NotFound 'User not found' (another organization's id included)."""
    return get_in_org(user_list(org), org, user_id, label="User")


def passkey_list(user: User) -> QuerySet[Passkey]:
    return user.passkeys.order_by("-created_at")


def passkey_get(user: User, passkey_id: UUID | str) -> Passkey:
    passkey = user.passkeys.filter(pk=passkey_id).first()
    if passkey is None:
        raise NotFound("Passkey not found")
    return passkey


def settings_get(user: User) -> dict:
    """``{theme, preferences, updatedAt}`` of a user whose settings were saved; NotFound otherwise.

    docs/behaviour/accounts.md §8: GET /api/auth/settings answers 404 until the first save (the SPA then uses defaults).
    """
    if not isinstance(user.settings, dict):
        raise NotFound("Settings not found")
    return settings_with_defaults(user.settings) | {"updatedAt": user.updated_at}


def settings_with_defaults(saved: dict | None) -> dict:
    """Saved settings completed with the defaults of docs/behaviour/accounts.md §8."""
    saved = saved if isinstance(saved, dict) else {}
    stored = saved.get("preferences")
    prefs = stored if isinstance(stored, dict) else {}
    return {
        "theme": saved.get("theme") or DEFAULT_THEME,
        "preferences": {key: prefs.get(key, default) for key, default in DEFAULT_PREFERENCES.items()},
    }


# ------------------------------------------------------------------------------------------ data export


def _json_value(value: Any) -> Any:
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, UUID):
        return str(value)
    return value


def _rows(queryset: QuerySet[Model]) -> list[dict]:
    """``values()`` rows with camelCase keys and JSON-ready values (``organization`` left out)."""
    out = []
    for row in queryset.values():
        out.append({to_camel(key): _json_value(value) for key, value in row.items() if key != "organization_id"})
    return out


def user_data_export(ctx: Ctx) -> dict:
    """The signed-in user's data export (POST /api/auth/export-data).

    ``{exportedAt, user, settings, passkeys, organization, courses, units, campuses, studyPlans,
    studyPlanUnits, blockGroups, blockGroupStudyPlans, teachers, teacherUnits, sessions, holidays}``.
    Secrets are left out: no password hash, TOTP secret, passkey public key or credential id. A fixed
    number of queries (one per list).
    """
    from project.accounts.schemas import OrganizationOut, PasskeyOut, UserOut
    from project.catalogue.models import Campus, Course, Unit
    from project.planning.models import BlockGroup, BlockGroupStudyPlan, StudyPlan, StudyPlanUnit
    from project.staff.models import Teacher, TeacherUnit
    from project.timetabling.models import Holiday, TimetableSession

    org = ctx.org
    user = ctx.member
    return {
        "exportedAt": timezone.now().isoformat(),
        "user": UserOut.from_orm(user).model_dump(mode="json", by_alias=True),
        "settings": settings_with_defaults(user.settings) if isinstance(user.settings, dict) else None,
        "passkeys": [PasskeyOut.from_orm(p).model_dump(mode="json", by_alias=True) for p in passkey_list(user)],
        "organization": OrganizationOut.from_orm(org).model_dump(mode="json", by_alias=True),
        "courses": _rows(Course.objects.for_org(org).order_by("code")),
        "units": _rows(Unit.objects.for_org(org).order_by("code")),
        "campuses": _rows(Campus.objects.for_org(org).order_by("name")),
        "studyPlans": _rows(StudyPlan.objects.for_org(org).order_by("name")),
        "studyPlanUnits": _rows(StudyPlanUnit.objects.for_org(org).order_by("study_plan_id", "sequence_order")),
        "blockGroups": _rows(BlockGroup.objects.for_org(org).order_by("code")),
        "blockGroupStudyPlans": _rows(BlockGroupStudyPlan.objects.for_org(org).order_by("created_at")),
        "teachers": _rows(Teacher.objects.for_org(org).order_by("last_name", "first_name")),
        "teacherUnits": _rows(TeacherUnit.objects.for_org(org).order_by("created_at")),
        "sessions": _rows(TimetableSession.objects.for_org(org).order_by("actual_date", "start_time")),
        "holidays": _rows(Holiday.objects.for_org(org).order_by("start_date")),
    }
