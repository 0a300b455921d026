"""Hot lists dumped without per-field validation, and the request's user and organization in one query
 (ADR 0013).

``GET /api/teachers`` and ``GET /api/block-groups`` build their rows as dicts from ``.values_list`` and
write them straight to JSON; the answers must stay exactly what the declared schemas (``TeacherOut``,
``BlockGroupOut``) made of the model rows before (compared on the demo organization, key order
irrelevant). A signed-in GET resolves user and organization with one query.
"""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.accounts.models import Organization, User
from project.core.responses import PreciseJSONEncoder
from project.planning import selectors as planning_selectors
from project.planning.schemas.block_groups import BlockGroupOut
from project.staff import selectors as staff_selectors
from project.staff.schemas import TeacherOut
from tests import factories as f
from tests.conftest import ApiClient


def _as_json(value):
    return json.loads(json.dumps(value, cls=PreciseJSONEncoder))


def _schema_rows(schema, objects) -> list:
    """What Ninja answered before: each model row validated by the schema and dumped by alias."""
    return _as_json([schema.model_validate(o).model_dump(by_alias=True) for o in objects])


@pytest.fixture
def demo(db):
    call_command("seed_demo", verbosity=0)
    org = Organization.objects.get(domain="demo.blockplan.edu.au")
    user = User.objects.filter(organization=org, role="admin").first()
    return org, ApiClient(user)


def test_teacher_list_equals_the_schema_answer(demo):
    org, api = demo
    f.make_teacher(
        org,
        employee_id="FT1",
        first_name="Fixed",
        last_name="Term",
        email="ft@demo.edu.au",
        employment_type="fixed_term",
        expiry_date="2027-01-31",
        is_active=False,
    )
    for params, show in (({}, False), ({"showInactive": "true"}, True)):
        response = api.get("/api/teachers", params)
        assert response.status_code == 200
        expected = _schema_rows(TeacherOut, staff_selectors.teacher_list(org=org, show_inactive=show))
        assert len(expected) >= 5
        assert response.json() == expected
    assert any(t["expiryDate"] == "2027-01-31" and not t["isActive"] for t in response.json())


def test_block_group_list_equals_the_schema_answer(demo):
    org, api = demo
    # A group without course or campus, and one with two plans, so every branch of the shape is seen.
    bare = f.make_block_group(org, code="ZZ-BARE", name="Bare", course=None, campus=None, preferred_days="Tue, fri")
    plans = [f.make_study_plan(org, name=f"Extra plan {i}") for i in range(2)]
    for p in plans:
        f.assign_plan(bare, p)
    for params in ({}, {"status": ["active", "planned"]}, {"studyMode": "part_time"}):
        response = api.get("/api/block-groups", params)
        assert response.status_code == 200
        statuses = params.get("status")
        modes = [params["studyMode"]] if "studyMode" in params else None
        expected = _schema_rows(BlockGroupOut, planning_selectors.block_group_list(org=org, statuses=statuses, study_modes=modes))
        assert response.json() == expected
    rows = api.get("/api/block-groups").json()
    assert len(rows) >= 3 and any(r["timetableCount"] > 0 for r in rows)
    mine = next(r for r in rows if r["code"] == "ZZ-BARE")
    assert (
        mine["course"] is None and mine["preferredDays"] == [2, 5] and mine["studyPlanNames"] == ["Extra plan 0", "Extra plan 1"]
    )


@pytest.mark.parametrize("path", ["/api/teachers", "/api/block-groups"])
def test_lists_run_a_fixed_number_of_queries(demo, path, settings):
    settings.RESPONSE_CACHE_SECONDS = 0  # the rows below are added without a change event: count the build
    org, api = demo
    with CaptureQueriesContext(connection) as small:
        assert api.get(path).status_code == 200
    for i in range(5):
        f.make_teacher(org, employee_id=f"Q{i}", email=f"q{i}@demo.edu.au")
        f.make_block_group(org, code=f"QQ-{i}")
    with CaptureQueriesContext(connection) as large:
        assert api.get(path).status_code == 200
    assert len(large) == len(small) <= 5


def test_user_and_organization_are_resolved_in_one_query(api, admin_user):
    """A signed-in GET: the session row, then the user with its organization in one query."""
    with CaptureQueriesContext(connection) as ctx:
        response = api.get("/api/teachers")
    assert response.status_code == 200
    sqls = [q["sql"] for q in ctx.captured_queries]
    user_reads = [s for s in sqls if 'FROM "accounts_user"' in s]
    org_reads = [s for s in sqls if 'FROM "accounts_organization"' in s]
    assert len(user_reads) == 1 and 'JOIN "accounts_organization"' in user_reads[0]
    assert org_reads == []
    assert len(sqls) == 3, sqls  # session, user + organization, teachers


def test_a_password_sign_in_stores_the_one_query_backend(anon_api, admin_user):
    from django.contrib.auth import BACKEND_SESSION_KEY

    response = anon_api.post("/api/auth/login", {"email": admin_user.email, "password": f.PASSWORD})
    assert response.status_code == 200
    assert anon_api.client.session[BACKEND_SESSION_KEY] == "project.core.auth.SessionUserBackend"
    with CaptureQueriesContext(connection) as ctx:
        assert anon_api.get("/api/auth/user").status_code == 200
    assert not [q for q in ctx.captured_queries if 'FROM "accounts_organization"' in q["sql"]]


def test_the_session_backend_loads_the_same_user_as_the_orm(org, admin_user, other_org):
    """The precompiled user query (project.core.auth._UserLoader) builds what the ORM builds."""
    from project.core.auth import SessionUserBackend

    admin_user.settings = {"timezone": "Australia/Perth", "theme": "dark"}
    admin_user.save(update_fields=["settings"])
    backend = SessionUserBackend()
    with CaptureQueriesContext(connection) as ctx:
        user = backend.get_user(str(admin_user.pk))
        organization = user.organization
    assert len(ctx.captured_queries) == 1
    expected = User.objects.select_related("organization").get(pk=admin_user.pk)
    for field in User._meta.concrete_fields:
        assert getattr(user, field.attname) == getattr(expected, field.attname), field.name
    for field in Organization._meta.concrete_fields:
        assert getattr(organization, field.attname) == getattr(expected.organization, field.attname), field.name
    assert user.settings == {"timezone": "Australia/Perth", "theme": "dark"}
    assert user.created_at.tzinfo is not None and organization.pk == org.pk
    assert user._state.adding is False and user._state.db == "default"
    # Not a user: None, whatever the id looks like.
    for bad in ("00000000-0000-0000-0000-000000000000", "not-a-uuid", None, 42):
        assert backend.get_user(bad) is None
    other = f.make_user(other_org, role="user", email="u@other.edu.au", is_active=False)
    assert backend.get_user(str(other.pk)) is None  # inactive users cannot authenticate
