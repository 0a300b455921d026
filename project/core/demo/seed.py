"""The demo organization (decisions.md §8: ``python manage.py seed_demo``).

Loads, idempotently, a demo training provider built from real data (``project/core/demo/data``, copied
from ``shared/data`` with its sources): the four ICT qualifications and their units with published
nominal hours, Victorian public holidays and school term breaks 2025-2027, plus made-up but plausible
campuses, teachers, study plans, block groups and timetables.

Idempotent: every row has a stable key (domain, email, code, abbreviation, employee ID, name + start
date, plan + unit, teacher + unit); a second run creates nothing and changes nothing. Rows are written
with ``bulk_create`` / ``bulk_update`` and only when missing or different. Timetables are generated only
for a block group that has no sessions yet, so edits made in the demo (allocations) survive a re-run.

The timetable generator here is deliberately small and self-contained (it follows decisions.md §3 in
spirit: preferred days, templates, holidays as cancelled sessions, units in plan order); the product's
scheduling service is not used.
"""

from __future__ import annotations

import calendar as pycalendar
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from project.accounts.models import Organization, User
from project.accounts.validators import password_problems
from project.catalogue.models import Campus, Course, Unit
from project.planning.days import parse_preferred_days
from project.planning.models import BlockGroup, BlockGroupStudyPlan, StudyPlan, StudyPlanUnit
from project.staff.models import Teacher, TeacherUnit
from project.timetabling.calendar import TermCalendar, holiday_by_date, holiday_spans, week_start
from project.timetabling.models import Holiday, TimetableSession

DATA = Path(__file__).resolve().parent / "data"

ORG_NAME = "Blockplan Demo TAFE"
ORG_DOMAIN = "demo.blockplan.edu.au"
PASSWORD = "Blockplan-Demo-2026!"  # noqa: S105 — the demo's documented password (README)
USERS = (
    # email, first name, last name, role
    ("admin@demo.blockplan.edu.au", "Alex", "Morgan", User.Role.ADMIN),
    ("coordinator@demo.blockplan.edu.au", "Jordan", "Lee", User.Role.USER),
    ("coordinator2@demo.blockplan.edu.au", "Sam", "Papadopoulos", User.Role.USER),
)

CAMPUSES = (
    ("CBD", "Melbourne CBD Campus", "120 La Trobe Street, Melbourne VIC 3000"),
    ("FTS", "Footscray Campus", "45 Nicholson Street, Footscray VIC 3011"),
    ("DAN", "Dandenong Campus", "12 Cheltenham Road, Dandenong VIC 3175"),
)

# Rooms of the campuses (issue 19): (code, name, campus, capacity, type, features). The demo groups' rooms
# are among them; capacities are typical of a TAFE's IT labs.
ROOMS = (
    ("CBD-2.01", "General classroom", "CBD", 32, "classroom", ()),
    ("CBD-3.12", "Cyber security lab", "CBD", 24, "computer_lab", ("Cisco rack", "Isolated network")),
    ("CBD-3.14", "Computer lab", "CBD", 30, "computer_lab", ("Dual monitors",)),
    ("FTS-1.10", "Classroom", "FTS", 28, "classroom", ()),
    ("FTS-G.07", "Networking lab", "FTS", 24, "computer_lab", ("Cisco rack",)),
    ("DAN-1.04", "Computer lab", "DAN", 20, "computer_lab", ()),
    ("DAN-WS1", "Hardware workshop", "DAN", 16, "workshop", ("Workbenches", "ESD mats")),
    ("Online", "Online classroom (Teams)", None, None, "online", ()),
)

# Plan hour split of a unit's nominal hours (made-up but typical): the rest is self-directed.
SPLIT = {
    "face_to_face_hours": Decimal("0.60"),
    "facilitated_e_learning_hours": Decimal("0.15"),
    "in_class_assessment_hours": Decimal("0.10"),
}
# Units whose plan hours deliberately differ from nominal, so the "Hour Mismatch" warning has content.
MISMATCH = {("22603VIC", "VU23220"): Decimal("6"), ("ICT30120", "ICTPRG302"): Decimal("-4")}

# (employee id, first, last, employment type, availability, max weekly hours, specialties, active)
TEACHERS = (
    ("BP1001", "Aisha", "Rahman", "ongoing", "day", 30, ("cyber", "network")),
    ("BP1002", "Benjamin", "Walsh", "ongoing", "both", 28, ("network", "systems")),
    ("BP1003", "Chloe", "Nguyen", "ongoing", "day", 25, ("programming", "web")),
    ("BP1004", "Daniel", "O'Connor", "fixed_term", "day", 24, ("business",)),
    ("BP1005", "Eleni", "Georgiou", "ongoing", "both", 30, ("cyber",)),
    ("BP1006", "Farid", "Haidari", "sessional", "evening", 15, ("network", "cyber")),
    ("BP1007", "Grace", "Thompson", "ongoing", "day", 26, ("business", "ict")),
    ("BP1008", "Hamish", "MacGregor", "fixed_term", "both", 22, ("systems", "cloud")),
    ("BP1009", "Isabella", "Rossi", "ongoing", "day", 30, ("web", "programming")),
    ("BP1010", "Jack", "Williams", "sessional", "evening", 18, ("ict", "business")),
    ("BP1011", "Kirra", "Anderson", "ongoing", "day", 28, ("ict", "systems")),
    ("BP1012", "Liam", "Tran", "fixed_term", "day", 21, ("cyber", "programming")),
    ("BP1013", "Mia", "Kowalski", "ongoing", "both", 25, ("web", "ict")),
    ("BP1014", "Nathan", "Singh", "ongoing", "day", 30, ("network",)),
    ("BP1015", "Olivia", "Brown", "sessional", "evening", 16, ("business", "ict")),
    ("BP1016", "Patrick", "Murphy", "fixed_term", "day", 20, ("systems",)),
    ("BP1017", "Quynh", "Pham", "ongoing", "day", 27, ("programming", "cloud")),
    ("BP1018", "Ravi", "Patel", "ongoing", "both", 30, ("cyber", "systems")),
    ("BP1019", "Sophie", "Clarke", "fixed_term", "day", 23, ("business", "web")),
    ("BP1020", "Tariq", "Hussein", "sessional", "evening", 15, ("programming", "web")),
    ("BP1021", "Una", "Fitzgerald", "ongoing", "day", 24, ("ict", "cyber")),
    ("BP1022", "Vikram", "Sharma", "fixed_term", "both", 26, ("network", "cloud")),
    ("BP1023", "Wei", "Zhang", "ongoing", "day", 29, ("systems", "ict")),
    ("BP1024", "Zoe", "Mitchell", "sessional", "day", 15, ("business",)),
)
INACTIVE_TEACHERS = {"BP1024"}  # on leave: shows the "Show inactive teachers" switch
PHONE_AREA = "03 9"  # Melbourne landlines


def _pool_of(code: str) -> str:
    if code.startswith("BSB"):
        return "business"
    if code.startswith(("VU232", "ICTCYS")):
        return "cyber"
    if code.startswith("ICTNWK"):
        return "network"
    if code.startswith("ICTPRG"):
        return "programming"
    if code.startswith("ICTWEB"):
        return "web"
    if code.startswith("ICTCLD"):
        return "cloud"
    if code.startswith("ICTSAS"):
        return "systems"
    return "ict"


@dataclass(frozen=True)
class GroupSpec:
    code: str
    name: str
    course: str
    campus: str
    delivery_mode: str
    study_mode: str
    cohort_size: int
    start: date
    preferred_days: str
    status: str
    templates: tuple[tuple[time, time], ...] = ((time(9), time(12)), (time(13), time(16)))
    timetable_until: date | None = None  # generate sessions up to this date (None: no timetable)
    allocate_until: date | None = None  # allocate teachers to sessions up to this date
    session_status: str = "scheduled"
    room: str = ""


GROUPS = (
    GroupSpec(
        "ICT30120-2025-S1-FT",
        "Cert III IT 2025 Semester 1 Full Time",
        "ICT30120",
        "DAN",
        "on_campus",
        "full_time",
        18,
        date(2025, 2, 3),
        "Monday, Tuesday",
        "completed",
        timetable_until=date(2025, 12, 19),
        allocate_until=date(2025, 12, 19),
        session_status="completed",
        room="DAN-1.04",
    ),
    GroupSpec(
        "22603VIC-2025-S2-PT",
        "Cyber Security 2025 Semester 2 Part Time",
        "22603VIC",
        "CBD",
        "remote",
        "part_time",
        16,
        date(2025, 7, 22),
        "Tue, Thu",
        "consolidated",
    ),
    GroupSpec(
        "22603VIC-2026-S2-FT",
        "Cyber Security 2026 Semester 2 Full Time",
        "22603VIC",
        "CBD",
        "on_campus",
        "full_time",
        22,
        date(2026, 7, 13),
        "Monday, Tuesday, Wednesday",
        "active",
        timetable_until=date(2027, 6, 30),
        allocate_until=date(2026, 12, 31),
        room="CBD-3.12",
    ),
    GroupSpec(
        "ICT40120-2026-PT-EVE",
        "Cert IV IT 2026 Part Time Evening (online)",
        "ICT40120",
        "CBD",
        "remote",
        "part_time",
        25,
        date(2026, 2, 10),
        "Tue, Thu",
        "active",
        templates=((time(18), time(21)),),
        timetable_until=date(2027, 6, 30),
        allocate_until=date(2026, 12, 31),
        room="Online",
    ),
    GroupSpec(
        "ICT50220-2026-S2-FT",
        "Diploma of IT 2026 Semester 2 Full Time",
        "ICT50220",
        "FTS",
        "on_campus",
        "full_time",
        20,
        date(2026, 7, 20),
        "Wednesday, Thursday",
        "active",
        timetable_until=date(2027, 6, 30),
        allocate_until=date(2027, 3, 31),
        room="FTS-G.07",
    ),
    GroupSpec(
        "ICT40120-2026-S1-FT",
        "Cert IV IT 2026 Semester 1 Full Time",
        "ICT40120",
        "DAN",
        "on_campus",
        "full_time",
        24,
        date(2026, 2, 2),
        "Monday, Wednesday, Friday",
        "active",
    ),
    GroupSpec(
        "ICT30120-2027-S1-FT",
        "Cert III IT 2027 Semester 1 Full Time",
        "ICT30120",
        "DAN",
        "on_campus",
        "full_time",
        20,
        date(2027, 2, 1),
        "Monday, Tuesday",
        "planned",
    ),
    GroupSpec(
        "ICT50220-2027-S1-PT",
        "Diploma of IT 2027 Semester 1 Part Time",
        "ICT50220",
        "FTS",
        "remote",
        "part_time",
        18,
        date(2027, 2, 9),
        "Tue, Thu",
        "planned",
    ),
)


# --------------------------------------------------------------------------------------------- helpers


def load_json(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def quarter(value: Decimal) -> Decimal:
    """Round to the form's 0.25-hour step."""
    return (value * 4).quantize(Decimal("1"), rounding=ROUND_HALF_UP) / 4


def add_month(day: date) -> date:
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    return day.replace(year=year, month=month, day=min(day.day, pycalendar.monthrange(year, month)[1]))


@dataclass
class Stats:
    created: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)

    def add(self, label: str, created: int, updated: int) -> None:
        self.created[label] = self.created.get(label, 0) + created
        self.updated[label] = self.updated.get(label, 0) + updated


def sync(qs, key: tuple[str, ...], rows: Iterable[dict], *, org, stats: Stats, label: str) -> dict:
    """Make ``rows`` exist in ``qs`` (one organization's rows of a model), keyed by ``key`` fields.

    Missing rows are bulk-created; rows whose values differ are bulk-updated (``updated_at`` set); equal
    rows are left alone. Returns {key tuple: instance} for every row given.
    """
    model = qs.model
    rows = list(rows)
    existing = {tuple(getattr(o, k) for k in key): o for o in qs}
    out, to_create, to_update, changed_fields = {}, [], [], set()
    now = timezone.now()
    for values in rows:
        k = tuple(values[f] for f in key)
        obj = existing.get(k)
        if obj is None:
            obj = model(organization=org, **values)
            to_create.append(obj)
        else:
            diff = [f for f, v in values.items() if getattr(obj, f) != v]
            if diff:
                for f in diff:
                    setattr(obj, f, values[f])
                obj.updated_at = now
                changed_fields.update(diff)
                to_update.append(obj)
        out[k] = obj
    if to_create:
        model.objects.bulk_create(to_create, batch_size=500)
    if to_update:
        model.objects.bulk_update(to_update, sorted(changed_fields | {"updated_at"}), batch_size=500)
    stats.add(label, len(to_create), len(to_update))
    return out


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

    def demo_password(user: User) -> str | None:
        """The encoded password to store, or None when ``user`` already has the demo password."""
        nonlocal encoded
        if encoded is not None and user.password == encoded:
            return None
        if user.password and user.check_password(PASSWORD):
            encoded = encoded or user.password
            return None
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
            user.password = demo_password(user)
            user.save()
            n_created += 1
            continue
        diff = {k: v for k, v in values.items() if getattr(user, k) != v}
        for k, v in diff.items():
            setattr(user, k, v)
        fresh = demo_password(user)
        if fresh is not None:
            user.password = fresh
            diff["password"] = True
        if diff:
            user.save()
            n_updated += 1
    stats.add("users", n_created, n_updated)
    return org


def seed_catalogue(org, stats: Stats):
    qualifications = load_json("qualifications.json")
    campuses = sync(
        Campus.objects.for_org(org),
        ("abbreviation",),
        ({"abbreviation": a, "name": n, "address": addr, "is_active": True} for a, n, addr in CAMPUSES),
        org=org,
        stats=stats,
        label="campuses",
    )
    courses = sync(
        Course.objects.for_org(org),
        ("code",),
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
    units_by_code = sync(Unit.objects.for_org(org), ("code",), unit_rows, org=org, stats=stats, label="units")
    return (
        qualifications,
        {k[0]: v for k, v in campuses.items()},
        {k[0]: v for k, v in courses.items()},
        {k[0]: v for k, v in units_by_code.items()},
    )


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


PACKAGING = {"22603VIC": (8, 8), "ICT30120": (6, 6), "ICT40120": (7, 13), "ICT50220": (6, 14)}


def seed_plans(org, qualifications, units_by_code, stats: Stats) -> dict[str, StudyPlan]:
    """One study plan per course: its core units with published hours, then electives with published hours
    up to the packaging rule's elective count, in the data file's order."""
    plan_rows, members = [], {}
    for q in qualifications:
        cores = [u for u in q["units"] if u["core"] and u["nominalHours"] is not None]
        electives = [u for u in q["units"] if not u["core"] and u["nominalHours"] is not None]
        chosen = cores + electives[: PACKAGING[q["code"]][1]]
        members[q["code"]] = chosen
        plan_rows.append(
            {
                "name": f"{q['code']} {q['title']} - standard delivery",
                "description": (
                    f"Delivery sequence for {q['code']}: {len(cores)} core and "
                    f"{len(chosen) - len(cores)} elective units with published nominal hours."
                ),
                "total_nominal_hours": sum(int(u["nominalHours"]) for u in chosen),
                "is_active": True,
            }
        )
    plans = sync(StudyPlan.objects.for_org(org), ("name",), plan_rows, org=org, stats=stats, label="study plans")
    by_course = {q["code"]: plans[(row["name"],)] for q, row in zip(qualifications, plan_rows, strict=False)}
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


def seed_holidays(org, stats: Stats) -> list[Holiday]:
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


def seed_teachers(org, units_by_code, plans_units: dict[str, list[Unit]], stats: Stats) -> dict[str, Teacher]:
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
    teachers = {
        k[0]: v
        for k, v in sync(Teacher.objects.for_org(org), ("employee_id",), rows, org=org, stats=stats, label="teachers").items()
    }

    pools: dict[str, list[str]] = {}
    for code in sorted(units_by_code):
        pools.setdefault(_pool_of(code), []).append(code)
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
                pick = min(pool, key=lambda t: (_pool_of(code) not in t[6], len(held[t[0]]), t[0]))
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


def seed_block_groups(org, campuses, courses, plans, stats: Stats) -> dict[str, BlockGroup]:
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
            "session_duration": Decimal(
                (g.templates[0][1].hour * 60 + g.templates[0][1].minute - g.templates[0][0].hour * 60 - g.templates[0][0].minute)
                / 60
            ).quantize(Decimal("0.01")),
            "sessions_per_day": len(g.templates),
            "status": g.status,
        }
        for g in GROUPS
    ]
    groups = {
        k[0]: v
        for k, v in sync(BlockGroup.objects.for_org(org), ("code",), rows, org=org, stats=stats, label="block groups").items()
    }
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


# --------------------------------------------------------------------------------------------- timetables


def _hours(start: time, end: time) -> Decimal:
    return Decimal((end.hour * 60 + end.minute - start.hour * 60 - start.minute) / 60).quantize(Decimal("0.01"))


def _plus(start: time, hours: Decimal) -> time:
    minutes = start.hour * 60 + start.minute + int(hours * 60)
    return time(minutes // 60, minutes % 60)


def generate_sessions(
    spec: GroupSpec, group: BlockGroup, plan_units: list[StudyPlanUnit], holidays: list[Holiday]
) -> list[TimetableSession]:
    """Sessions of one block group, unsaved: units in plan order, each for its facilitated hours, on the
    preferred days from the start date, filling the day's templates in order (a unit's last session ends
    early). A day inside an active holiday or term break gets one cancelled session per template (0 hours,
    notes naming it). Stops when the plan is delivered or at ``spec.timetable_until``."""
    days = set(parse_preferred_days(spec.preferred_days))
    active = [h for h in holidays if h.is_active]
    closed = holiday_by_date(holiday_spans(active, spec.start, spec.timetable_until))
    # Only breaks inside one calendar year separate terms: the summer break (December to late January)
    # would otherwise count as a break "of the year" it ends in and make February term 2.
    terms = TermCalendar(
        (h.start_date, h.end_date) for h in active if h.type == Holiday.Type.TERM_BREAK and h.start_date.year == h.end_date.year
    )
    queue = [[pu.unit, pu.facilitated_hours] for pu in plan_units if pu.facilitated_hours > 0]
    first_week = week_start(spec.start)
    sessions: list[TimetableSession] = []
    day = spec.start
    while queue and day <= spec.timetable_until:
        if day.isoweekday() in days:
            common = {
                "organization_id": group.organization_id,
                "block_group": group,
                "day_of_week": day.isoweekday(),
                "week_number": (week_start(day) - first_week).days // 7 + 1,
                "actual_date": day,
                "term": terms.term_of(day),
                "room": spec.room,
            }
            span = closed.get(day)
            for start, end in spec.templates:
                if span is not None:
                    kind = "Public holiday" if span.type == Holiday.Type.PUBLIC_HOLIDAY else "Term break"
                    sessions.append(
                        TimetableSession(
                            unit=queue[0][0],
                            start_time=start,
                            end_time=end,
                            actual_hours=Decimal("0"),
                            status=TimetableSession.Status.CANCELLED,
                            notes=f"{kind}: {span.name}",
                            **common,
                        )
                    )
                    continue
                if not queue:
                    break
                unit, left = queue[0]
                hours = min(_hours(start, end), left)
                sessions.append(
                    TimetableSession(
                        unit=unit,
                        start_time=start,
                        end_time=_plus(start, hours),
                        actual_hours=hours,
                        status=spec.session_status,
                        notes="",
                        **common,
                    )
                )
                queue[0][1] = left - hours
                if queue[0][1] <= 0:
                    queue.pop(0)
        day += timedelta(days=1)
    return sessions


class Allocator:
    """Assigns qualified, active, available teachers to sessions without double-booking anyone or going
    over their weekly maximum; keeps one teacher per group and unit where possible."""

    def __init__(self, teachers: list[Teacher], qualified: dict, busy: dict | None = None) -> None:
        self.teachers = sorted(teachers, key=lambda t: t.employee_id)
        self.qualified = qualified  # unit id -> set of teacher ids
        self.busy: dict[tuple, list[tuple[time, time]]] = busy or {}  # (teacher id, date) -> intervals
        self.week_hours: dict[tuple, Decimal] = {}  # (teacher id, week start) -> hours
        self.choice: dict[tuple, object] = {}  # (group id, unit id) -> teacher id

    def _fits(self, t: Teacher, s: TimetableSession) -> bool:
        if not t.is_active or t.pk not in self.qualified.get(s.unit_id, ()):
            return False
        if t.expiry_date is not None and s.actual_date > t.expiry_date:
            return False
        evening = s.start_time >= time(17) or s.end_time > time(17)
        if (evening and t.availability == "day") or (not evening and t.availability == "evening"):
            return False
        for a, b in self.busy.get((t.pk, s.actual_date), ()):
            if s.start_time < b and a < s.end_time:
                return False
        week = (t.pk, week_start(s.actual_date))
        return self.week_hours.get(week, Decimal("0")) + s.actual_hours <= t.max_weekly_hours

    def assign(self, s: TimetableSession) -> None:
        key = (s.block_group.pk, s.unit_id)
        preferred = self.choice.get(key)
        ordered = sorted(self.teachers, key=lambda t: (t.pk != preferred, t.employee_id))
        for t in ordered:
            if self._fits(t, s):
                s.teacher = t
                self.busy.setdefault((t.pk, s.actual_date), []).append((s.start_time, s.end_time))
                week = (t.pk, week_start(s.actual_date))
                self.week_hours[week] = self.week_hours.get(week, Decimal("0")) + s.actual_hours
                self.choice.setdefault(key, t.pk)
                return


def seed_timetables(
    org, groups: dict[str, BlockGroup], plans: dict[str, StudyPlan], holidays: list[Holiday], stats: Stats
) -> None:
    """Generate sessions for the demo groups that have a timetable and no sessions yet; set their end date
    to the last teaching day plus one month."""
    teachers = list(Teacher.objects.for_org(org))
    qualified: dict = {}
    for unit_id, teacher_id in TeacherUnit.objects.for_org(org).values_list("unit_id", "teacher_id"):
        qualified.setdefault(unit_id, set()).add(teacher_id)
    busy: dict = {}
    for tid, day, a, b in (
        TimetableSession.objects.for_org(org)
        .exclude(teacher=None)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .values_list("teacher_id", "actual_date", "start_time", "end_time")
    ):
        busy.setdefault((tid, day), []).append((a, b))
    allocator = Allocator(teachers, qualified, busy)
    has_sessions = set(
        TimetableSession.objects.for_org(org)
        .filter(block_group__in=groups.values())
        .values_list("block_group_id", flat=True)
        .distinct()
    )
    plan_units = {
        code: list(StudyPlanUnit.objects.for_org(org).filter(study_plan=plan).select_related("unit").order_by("sequence_order"))
        for code, plan in plans.items()
    }
    created, changed_groups = [], []
    for spec in GROUPS:
        if spec.timetable_until is None:
            continue
        group = groups[spec.code]
        sessions = generate_sessions(spec, group, plan_units[spec.course], holidays)
        teaching = [s for s in sessions if s.status != TimetableSession.Status.CANCELLED]
        end_date = add_month(teaching[-1].actual_date) if teaching else None
        if group.end_date != end_date:
            group.end_date = end_date
            group.updated_at = timezone.now()
            changed_groups.append(group)
        if group.pk in has_sessions:
            continue
        for s in teaching:
            if spec.allocate_until is None or s.actual_date <= spec.allocate_until:
                allocator.assign(s)
        created.extend(sessions)
    if created:
        TimetableSession.objects.bulk_create(created, batch_size=500)
    if changed_groups:
        BlockGroup.objects.bulk_update(changed_groups, ["end_date", "updated_at"])
    stats.add("timetable sessions", len(created), 0)


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


def seed_rooms(org, campuses, stats: Stats) -> None:
    """The campuses' rooms (``ROOMS``), and the sessions that name them linked to them (issue 19)."""
    from project.catalogue.models import Room, room_key

    by_abbr = {c.abbreviation: c for c in campuses.values()}
    rooms = sync(
        Room.objects.for_org(org),
        ("code",),
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
    for (code,), room in rooms.items():
        TimetableSession.objects.for_org(org).filter(room=code, room_record=None).update(room_record=room)
