"""One organization cannot read or change another's rows through the scoping mechanism."""

import re
from pathlib import Path

import pytest

from project.catalogue.models import Course
from project.core.errors import NotFound
from project.core.tenancy import get_in_org, scoped
from tests import factories as f


def test_scoped_reads_only_own_rows(db):
    a, b = f.make_org(), f.make_org()
    mine = f.make_course(a, code="ICT30120")
    theirs = f.make_course(b, code="ICT30120")  # the same code is fine in another organization
    assert list(scoped(Course, a)) == [mine]
    assert list(Course.objects.for_org(b)) == [theirs]


def test_get_in_org_hides_other_organizations_rows(db):
    a, b = f.make_org(), f.make_org()
    theirs = f.make_course(b)
    with pytest.raises(NotFound) as err:
        get_in_org(Course, a, theirs.pk)
    assert err.value.status == 404
    assert err.value.message == "Course not found"
    # A malformed id reads the same as a missing one.
    with pytest.raises(NotFound):
        get_in_org(Course, a, "not-a-uuid")
    assert get_in_org(Course, b, str(theirs.pk)) == theirs


def test_scoped_updates_cannot_touch_other_organizations(db):
    a, b = f.make_org(), f.make_org()
    theirs = f.make_course(b, name="Theirs")
    changed = scoped(Course, a).filter(pk=theirs.pk).update(name="Hijacked")
    assert changed == 0
    theirs.refresh_from_db()
    assert theirs.name == "Theirs"


REPO = Path(__file__).resolve().parents[2]
SCANNED = ("project", "realtime")


def _tenant_models() -> list[str]:
    """The names of every concrete ``TenantModel`` subclass (derived, so a new model is guarded at once)."""
    from django.apps import apps

    from project.core.models import TenantModel

    return sorted(m.__name__ for m in apps.get_models() if issubclass(m, TenantModel))


def test_the_guard_knows_every_tenant_model():
    names = set(_tenant_models())
    # Those the guard once missed (ADR 0001, amended), and the first ones: the derivation finds them all.
    assert {"Room", "TeacherLeave", "CalendarFeed", "DisplayLink", "Activity", "ActivityChange", "SingleSignOnProvider"} <= names
    assert {"Course", "Unit", "Campus", "BlockGroup", "Teacher", "TimetableSession", "Holiday"} <= names


def _modules() -> list[Path]:
    """Every non-migration module of the scanned packages."""
    return sorted(
        path for base in SCANNED for path in (REPO / base).rglob("*.py") if "migrations" not in path.relative_to(REPO).parts
    )


def test_the_guard_scans_every_module():
    modules = _modules()
    names = {p.name for p in modules}
    # Not only api/service/selector modules: models, commands, consumers, demo data, tracking.
    assert {"models.py", "consumers.py", "tracking.py", "timetables.py", "scoping.py"} <= names
    assert len(modules) > 150


def test_no_unscoped_tenant_query_anywhere():
    """The unsafe path must be spelled out: ``Model.objects.unscoped()`` (grep-able), never bare; nor the
    ``_default_manager``/``_base_manager`` side doors. Every module of ``project/`` and ``realtime/``
    except migrations; every ``TenantModel`` subclass."""
    unsafe = re.compile(
        r"\b(" + "|".join(_tenant_models()) + r")\.(objects\b(?!\.(for_org|unscoped)\()|_default_manager\b|_base_manager\b)"
    )
    offenders = []
    for path in _modules():
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if unsafe.search(line):
                offenders.append(f"{path.relative_to(REPO)}:{lineno}: {line.strip()}")
    assert offenders == []


def test_the_guard_catches_a_bare_query():
    """The pattern itself: what it must flag and what it must let through."""
    unsafe = re.compile(r"\b(Room)\.(objects\b(?!\.(for_org|unscoped)\()|_default_manager\b|_base_manager\b)")
    assert unsafe.search("rooms = Room.objects.filter(code=code)")
    assert unsafe.search("qs = Room.objects")
    assert unsafe.search("Room._default_manager.all()")
    assert not unsafe.search("Room.objects.for_org(org).filter(code=code)")
    assert not unsafe.search("Room.objects.unscoped().count()  # every organization: a command")
    assert not unsafe.search("ClassRoom.objects.filter()")
