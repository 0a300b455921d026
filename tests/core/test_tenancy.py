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


ROOT = Path(__file__).resolve().parents[2] / "project"
ALLOWED = re.compile(r"\.objects\.(for_org|unscoped)\(")
TENANT_MODELS = {
    "Course",
    "Unit",
    "Campus",
    "StudyPlan",
    "StudyPlanUnit",
    "BlockGroup",
    "BlockGroupStudyPlan",
    "LinkedBlockGroup",
    "LinkedBlockGroupMember",
    "Teacher",
    "TeacherUnit",
    "Holiday",
    "TimetableSession",
}


def test_no_unscoped_tenant_query_in_api_services_or_selectors():
    """The unsafe path must be spelled out: ``Model.objects.unscoped()`` (grep-able), never bare."""
    offenders = []
    for path in ROOT.rglob("*.py"):
        if not any(part in path.name for part in ("api", "service", "selector")):
            continue
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            for model in TENANT_MODELS:
                for match in re.finditer(rf"\b{model}\.objects\.", line):
                    if not ALLOWED.match(line[match.end() - len(".objects.") :]):
                        offenders.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()}")
    assert offenders == []
