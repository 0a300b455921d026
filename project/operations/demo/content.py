"""What the demo seed makes up (clearly demo content, not facts; see ``data/README.md``): the organization,
its users, campuses and rooms, the study plan hour split, the 24 teachers and the block groups with the
span of their generated timetables."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal

from project.accounts.models import User

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

# Rooms of the campuses (ADR 0019): (code, name, campus, capacity, type, features). The demo groups' rooms
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
# Packaging rules of the qualifications: (core units, elective units).
PACKAGING = {"22603VIC": (8, 8), "ICT30120": (6, 6), "ICT40120": (7, 13), "ICT50220": (6, 14)}

# (employee id, first, last, employment type, availability, max weekly hours, specialties); inactive: below
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


def pool_of(code: str) -> str:
    """The teaching specialty a unit belongs to, by its code (teachers are qualified within theirs)."""
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
