"""The demo organization (docs/behaviour/operations.md §2: ``python manage.py seed_demo``).

Loads, idempotently, a demo training provider built from real data (``project/operations/demo/data``, copied
from ``project/operations/demo/data`` with its sources): the four ICT qualifications and their units with published
nominal hours, Victorian public holidays and school term breaks 2025-2027, plus made-up but plausible
campuses, teachers, study plans, block groups and timetables.

Idempotent: every row has a stable key (domain, email, code, abbreviation, employee ID, name + start
date, plan + unit, teacher + unit); a second run creates nothing and changes nothing. Rows are written
with ``bulk_create`` / ``bulk_update`` and only when missing or different. Timetables are generated only
for a block group that has no sessions yet, so edits made in the demo (allocations) survive a re-run.

What is made up is in :mod:`.content`, the idempotent writes in :mod:`.sync`, the timetables (a small
generator of its own, not the product's scheduling service) in :mod:`.timetables`; this module seeds
each part in turn.
"""

from __future__ import annotations

import json
import random
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import transaction

from project.accounts.models import Organization, User
from project.accounts.validators import password_problems
from project.catalogue.models import Campus, Course, Unit
from project.operations.demo.content import (
    CAMPUSES,
    GROUPS,
    INACTIVE_TEACHERS,
    MISMATCH,
    ORG_DOMAIN,
    ORG_NAME,
    PACKAGING,
    PASSWORD,
    PHONE_AREA,
    ROOMS,
    SPLIT,
    TEACHERS,
    USERS,
    pool_of,
)
from project.operations.demo.sync import Stats, sync, sync_by
from project.operations.demo.timetables import seed_timetables, session_hours
from project.planning.models import BlockGroup, BlockGroupStudyPlan, StudyPlan, StudyPlanUnit
from project.staff.models import Teacher, TeacherUnit
from project.timetabling.models import Holiday, TimetableSession

DATA = Path(__file__).resolve().parent / "data"


# --------------------------------------------------------------------------------------------- helpers


def load_json(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def quarter(value: Decimal) -> Decimal:
    """Round to the form's 0.25-hour step."""
    return (value * 4).quantize(Decimal("1"), rounding=ROUND_HALF_UP) / 4


# --------------------------------------------------------------------------------------------- parts


def seed_org_and_users(stats: Stats) -> Organization:
    if password_problems(PASSWORD):  # the demo must sign in under the password rules it ships with
        raise RuntimeError("the demo password must satisfy the password rules")
    org, created = Organization.objects.get_or_create(
        domain=ORG_DOMAIN, defaults={"name": ORG_NAME, "timezone": "Australia/Melbourne"}
    )
    wanted = {"name": ORG_NAME, "is_active": True, "website": "https://demo.blockplan.edu.au", "phone": "03 9000 0000"}
    diff = {k: v for k, v in wanted.items() if getattr(org, k) != v}
    if diff:
        for k, v in diff.items():
            setattr(org, k, v)
        org.save()
    stats.add("organization", int(created), int(bool(diff) and not created))
    # Argon2 is slow on purpose (about a second here): hash and check the shared demo password once.
    encoded: str | None = None

    def has_demo_password(user: User) -> bool:
        nonlocal encoded
        if encoded is not None and user.password == encoded:
            return True
        if user.password and user.check_password(PASSWORD):
            encoded = encoded or user.password
            return True
        return False

    def demo_password() -> str:
        """The demo password encoded (once)."""
        nonlocal encoded
        encoded = encoded or make_password(PASSWORD)
        return encoded

    n_created = n_updated = 0
    for email, first, last, role in USERS:
        user = User.objects.filter(email=email).first()
        values = {
            "first_name": first,
            "last_name": last,
            "organization_id": org.pk,
            "role": role,
            "is_active": True,
            "must_change_password": False,
            "is_totp_enabled": False,
            "totp_secret": "",
        }
        if user is None:
            user = User(email=email, **values)
            user.password = demo_password()
            user.save()
            n_created += 1
            continue
        diff = {k: v for k, v in values.items() if getattr(user, k) != v}
        for k, v in diff.items():
            setattr(user, k, v)
        if not has_demo_password(user):
            user.password = demo_password()
            diff["password"] = True
        if diff:
            user.save()
            n_updated += 1
    stats.add("users", n_created, n_updated)
    return org


def seed_catalogue(
    org: Organization, stats: Stats
) -> tuple[list[dict[str, Any]], dict[str, Campus], dict[str, Course], dict[str, Unit]]:
    """The campuses, the courses of the qualifications data and their units with published hours;
    answers the qualifications (JSON) and the rows by abbreviation or code."""
    qualifications = load_json("qualifications.json")
    campuses = sync_by(
        Campus.objects.for_org(org),
        "abbreviation",
        ({"abbreviation": a, "name": n, "address": addr, "is_active": True} for a, n, addr in CAMPUSES),
        org=org,
        stats=stats,
        label="campuses",
    )
    courses = sync_by(
        Course.objects.for_org(org),
        "code",
        (
            {
                "code": q["code"],
                "name": q["title"],
                "level": q["level"],
                "is_active": True,
                "description": (
                    f"{q['title']} ({q['code']}), nationally recognised. Packaging rules: "
                    f"{PACKAGING[q['code']][0]} core + {PACKAGING[q['code']][1]} elective units."
                ),
            }
            for q in qualifications
        ),
        org=org,
        stats=stats,
        label="courses",
    )
    # A unit appears in several qualifications; its figure is the first published one, preferring a
    # Victorian nominal-hours figure. Units with no published figure are left out.
    units: dict[str, dict] = {}
    for q in qualifications:
        for u in q["units"]:
            if u["nominalHours"] is None:
                continue
            basis = u.get("hoursBasis") or ""
            current = units.get(u["code"])
            better = current is None or (basis.startswith("victorian") and not current["_basis"].startswith("victorian"))
            if better:
                units[u["code"]] = {
                    "code": u["code"],
                    "name": u["title"],
                    "nominal_hours": int(u["nominalHours"]),
                    "is_core": bool(u["core"]),
                    "prerequisites": ", ".join(u.get("prerequisites") or []),
                    "description": f"Nominal hours basis: {basis}.",
                    "_basis": basis,
                }
    unit_rows = [{k: v for k, v in row.items() if k != "_basis"} for row in units.values()]
    units_by_code = sync_by(Unit.objects.for_org(org), "code", unit_rows, org=org, stats=stats, label="units")
    return qualifications, campuses, courses, units_by_code


def plan_hours(course_code: str, unit_code: str, nominal: int) -> dict[str, Decimal]:
    """The seven hour fields of a plan unit: 60/15/10 % of nominal facilitated, the balance self-directed
    (structured learning 60 %, cumulative assessment 40 %); MISMATCH units are off by a few hours."""
    n = Decimal(nominal)
    hours = {f: quarter(n * share) for f, share in SPLIT.items()}
    hours["work_integrated_learning_hours"] = Decimal("0")
    balance = n - sum(hours.values())
    hours["structured_learning_hours"] = quarter(balance * Decimal("0.6"))
    hours["cumulative_assessment_hours"] = balance - hours["structured_learning_hours"]
    hours["work_integrated_learning_balance_hours"] = Decimal("0")
    hours["face_to_face_hours"] += MISMATCH.get((course_code, unit_code), Decimal("0"))
    return {k: v.quantize(Decimal("0.01")) for k, v in hours.items()}


def seed_plans(
    org: Organization, qualifications: list[dict[str, Any]], units_by_code: dict[str, Unit], stats: Stats
) -> dict[str, StudyPlan]:
    """One study plan per course: its core units with published hours, then electives with published hours
    up to the packaging rule's elective count, in the data file's order."""
    plan_rows, members, names = [], {}, {}
    for q in qualifications:
        cores = [u for u in q["units"] if u["core"] and u["nominalHours"] is not None]
        electives = [u for u in q["units"] if not u["core"] and u["nominalHours"] is not None]
        chosen = cores + electives[: PACKAGING[q["code"]][1]]
        members[q["code"]] = chosen
        names[q["code"]] = f"{q['code']} {q['title']} - standard delivery"
        plan_rows.append(
            {
                "name": names[q["code"]],
                "description": (
                    f"Delivery sequence for {q['code']}: {len(cores)} core and "
                    f"{len(chosen) - len(cores)} elective units with published nominal hours."
                ),
                "total_nominal_hours": sum(int(u["nominalHours"]) for u in chosen),
                "is_active": True,
            }
        )
    plans = sync_by(StudyPlan.objects.for_org(org), "name", plan_rows, org=org, stats=stats, label="study plans")
    by_course = {code: plans[name] for code, name in names.items()}
    rows = []
    for code, chosen in members.items():
        plan = by_course[code]
        for seq, u in enumerate(chosen, 1):
            rows.append(
                {
                    "study_plan_id": plan.pk,
                    "unit_id": units_by_code[u["code"]].pk,
                    "sequence_order": seq,
                    "year_level": 1,
                    "is_cluster": False,
                    "cluster_group": "",
                    **plan_hours(code, u["code"], int(u["nominalHours"])),
                }
            )
    sync(StudyPlanUnit.objects.for_org(org), ("study_plan_id", "unit_id"), rows, org=org, stats=stats, label="study plan units")
    return by_course


def seed_holidays(org: Organization, stats: Stats) -> list[Holiday]:
    rows = []
    for h in load_json("holidays_vic.json"):
        note = h.get("note") or ""
        if h.get("confirmed") is False:
            note = ("To be confirmed. " + note).strip()
        rows.append(
            {
                "name": h["name"],
                "type": h["type"],
                "start_date": date.fromisoformat(h["startDate"]),
                "end_date": date.fromisoformat(h["endDate"]),
                "year": int(h["year"]),
                "description": note,
                "is_recurring": False,
                "is_active": True,
            }
        )
    out = sync(Holiday.objects.for_org(org), ("name", "start_date"), rows, org=org, stats=stats, label="holidays")
    return list(out.values())


def seed_teachers(
    org: Organization, units_by_code: dict[str, Unit], plans_units: dict[str, list[Unit]], stats: Stats
) -> dict[str, Teacher]:
    """24 teachers, each qualified for 6-15 units of their specialties; every planned unit gets at least
    two qualified day teachers and one evening teacher."""
    rng = random.Random(2026)  # noqa: S311 — reproducible demo data, not a secret
    rows = []
    for i, (emp, first, last, employment, availability, hours, _spec) in enumerate(TEACHERS):
        email_local = f"{first}.{last}".lower().replace("'", "")
        rows.append(
            {
                "employee_id": emp,
                "first_name": first,
                "last_name": last,
                "email": f"{email_local}@{ORG_DOMAIN}",
                "phone": f"{PHONE_AREA}{100 + i * 7:03d} {2000 + i * 37:04d}",
                "job_title": "Teacher, Information Technology" if employment != "sessional" else "Sessional Teacher, ICT",
                "employment_type": employment,
                "expiry_date": date(2027, 6, 30) if employment == "fixed_term" else None,
                "availability": availability,
                "max_weekly_hours": hours,
                "is_active": emp not in INACTIVE_TEACHERS,
                "qualifications": "TAE40122 Certificate IV in Training and Assessment; "
                + rng.choice(
                    [
                        "Bachelor of Information Technology",
                        "Bachelor of Computer Science",
                        "Diploma of Information Technology",
                        "Master of Cyber Security",
                        "Bachelor of Business (Information Systems)",
                        "CCNA certification",
                    ]
                ),
            }
        )
    teachers = sync_by(Teacher.objects.for_org(org), "employee_id", rows, org=org, stats=stats, label="teachers")

    pools: dict[str, list[str]] = {}
    for code in sorted(units_by_code):
        pools.setdefault(pool_of(code), []).append(code)
    held: dict[str, list[str]] = {}
    for emp, *_rest, specialties in TEACHERS:
        candidates = [c for s in specialties for c in pools.get(s, [])]
        rng.shuffle(candidates)
        want = rng.randint(6, 15)
        mine = list(dict.fromkeys(candidates))[:want]
        if len(mine) < 6:  # a narrow specialty: top up from general ICT units
            extra = [c for c in pools["ict"] + pools["business"] if c not in mine]
            mine += extra[: 6 - len(mine)]
        held[emp] = mine
    # Coverage: each unit of a plan with at least two day-capable and one evening-capable active teachers.
    active = [t for t in TEACHERS if t[0] not in INACTIVE_TEACHERS]
    planned = sorted({u.code for units in plans_units.values() for u in units})
    for code in planned:
        for kinds, need in ((("day", "both"), 2), (("evening", "both"), 1)):
            have = [t for t in active if t[4] in kinds and code in held[t[0]]]
            while len(have) < need:
                pool = [t for t in active if t[4] in kinds and code not in held[t[0]] and len(held[t[0]]) < 15]
                if not pool:
                    break
                pick = min(pool, key=lambda t: (pool_of(code) not in t[6], len(held[t[0]]), t[0]))
                held[pick[0]].append(code)
                have.append(pick)
    tu_rows = [
        {
            "teacher_id": teachers[emp].pk,
            "unit_id": units_by_code[code].pk,
            "proficiency_level": "expert" if j % 5 == 0 else "competent",
        }
        for emp, codes in held.items()
        for j, code in enumerate(codes)
    ]
    sync(TeacherUnit.objects.for_org(org), ("teacher_id", "unit_id"), tu_rows, org=org, stats=stats, label="teacher units")
    return teachers


def seed_block_groups(
    org: Organization, campuses: dict[str, Campus], courses: dict[str, Course], plans: dict[str, StudyPlan], stats: Stats
) -> dict[str, BlockGroup]:
    rows = [
        {
            "code": g.code,
            "name": g.name,
            "course_id": courses[g.course].pk,
            "campus_id": campuses[g.campus].pk,
            "delivery_mode": g.delivery_mode,
            "study_mode": g.study_mode,
            "cohort_size": g.cohort_size,
            "start_date": g.start,
            "preferred_days": g.preferred_days,
            "session_duration": session_hours(*g.templates[0]),
            "sessions_per_day": len(g.templates),
            "status": g.status,
        }
        for g in GROUPS
    ]
    groups = sync_by(BlockGroup.objects.for_org(org), "code", rows, org=org, stats=stats, label="block groups")
    links = [{"block_group_id": groups[g.code].pk, "study_plan_id": plans[g.course].pk} for g in GROUPS]
    sync(
        BlockGroupStudyPlan.objects.for_org(org),
        ("block_group_id", "study_plan_id"),
        links,
        org=org,
        stats=stats,
        label="plan assignments",
    )
    return groups


# --------------------------------------------------------------------------------------------- entry point


def seed_demo() -> tuple[Organization, Stats]:
    """Load or refresh the demo organization in one transaction. Returns it and what was written."""
    stats = Stats()
    with transaction.atomic():
        org = seed_org_and_users(stats)
        qualifications, campuses, courses, units_by_code = seed_catalogue(org, stats)
        plans = seed_plans(org, qualifications, units_by_code, stats)
        plan_unit_objs = {
            code: [pu.unit for pu in StudyPlanUnit.objects.for_org(org).filter(study_plan=plan).select_related("unit")]
            for code, plan in plans.items()
        }
        holidays = seed_holidays(org, stats)
        seed_teachers(org, units_by_code, plan_unit_objs, stats)
        groups = seed_block_groups(org, campuses, courses, plans, stats)
        seed_timetables(org, groups, plans, holidays, stats)
        seed_rooms(org, campuses, stats)
    return org, stats


def seed_rooms(org: Organization, campuses: dict[str, Campus], stats: Stats) -> None:
    """The campuses' rooms (``ROOMS``), and the sessions that name them linked to them (ADR 0019)."""
    from project.catalogue.models import Room, room_key

    by_abbr = {c.abbreviation: c for c in campuses.values()}
    rooms = sync_by(
        Room.objects.for_org(org),
        "code",
        (
            {
                "code": code,
                "key": room_key(code),
                "name": name,
                "campus": by_abbr.get(campus) if campus else None,
                "capacity": capacity,
                "type": kind,
                "features": list(features),
                "is_active": True,
            }
            for code, name, campus, capacity, kind, features in ROOMS
        ),
        org=org,
        stats=stats,
        label="rooms",
    )
    for code, room in rooms.items():
        TimetableSession.objects.for_org(org).filter(room=code, room_record=None).update(room_record=room)
