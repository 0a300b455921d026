"""Organization details and user administration: roles, isolation, events (docs/behaviour/screens.md §5; docs/behaviour/accounts.md §9; docs/behaviour/api.md §3)."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session

from project.accounts.models import User
from tests import factories as f
from tests.conftest import ApiClient

pytestmark = pytest.mark.django_db

ORG_PAYLOAD = {
    "name": "Melbourne Polytechnic",
    "domain": "MelbournePolytechnic.edu.au",
    "address": "77 St Georges Rd, Preston VIC 3072",
    "phone": "03 9269 1200",
    "website": "https://www.melbournepolytechnic.edu.au",
}


def _events(captured):
    return [(m["event"]["entity"], m["event"]["action"], m["event"]["ids"]) for _, m in captured if m["type"] == "change.event"]


# ---------------------------------------------------------------------------------------------- roles


ADMIN_CALLS = [
    ("get", "/api/admin/users", None),
    ("post", "/api/admin/users", {"firstName": "A", "lastName": "B", "email": "ab@mp.edu.au", "role": "user"}),
    ("delete", "/api/admin/users/{admin_id}", None),
    ("put", "/api/organization", ORG_PAYLOAD),
]


@pytest.mark.parametrize("method, path, payload", ADMIN_CALLS)
def test_a_member_gets_403_on_every_admin_call(member_api, admin_user, org, method, path, payload):
    path = path.format(admin_id=admin_user.pk)
    call = getattr(member_api, method)
    response = call(path, payload) if payload is not None else call(path)
    assert response.status_code == 403 and response.json() == {"message": "Forbidden"}
    admin_user.refresh_from_db()
    org.refresh_from_db()
    assert admin_user.is_active and org.name == "Melbourne Polytechnic Demo"
    assert not User.objects.filter(email="ab@mp.edu.au").exists()


@pytest.mark.parametrize("method, path, payload", ADMIN_CALLS)
def test_signed_out_gets_401_on_every_admin_call(anon_api, admin_user, method, path, payload):
    path = path.format(admin_id=admin_user.pk)
    call = getattr(anon_api, method)
    response = call(path, payload) if payload is not None else call(path)
    assert response.status_code == 401 and response.json() == {"message": "Unauthorized"}


# ---------------------------------------------------------------------------------------------- organization


def test_members_read_their_organization(member_api, org):
    response = member_api.get("/api/organization")
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == str(org.pk) and body["name"] == org.name and body["domain"] == "mp.edu.au"
    assert {"address", "phone", "website", "isActive", "updatedAt"} <= set(body)
    assert response["ETag"] == f'"{org.updated_at.isoformat()}"'


def test_admin_updates_the_organization(api, org, django_capture_on_commit_callbacks, captured_events):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.put("/api/organization", ORG_PAYLOAD, headers={"If-Match": f'"{org.updated_at.isoformat()}"'})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["name"] == "Melbourne Polytechnic" and body["domain"] == "melbournepolytechnic.edu.au"
    assert body["website"] == ORG_PAYLOAD["website"] and body["phone"] == ORG_PAYLOAD["phone"]
    assert _events(captured_events) == [("organization", "updated", [str(org.pk)])]
    # Optional fields may be cleared.
    response = api.put("/api/organization", {"name": "MP", "domain": "mp.edu.au"})
    assert response.status_code == 200 and response.json()["address"] == "" and response.json()["website"] == ""


def test_organization_validation(api):
    response = api.put("/api/organization", {"name": " ", "domain": ""})
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"path": ["name"], "message": "Organization name is required"},
        {"path": ["domain"], "message": "Domain is required"},
    ]
    response = api.put("/api/organization", {})
    assert [e["message"] for e in response.json()["errors"]] == ["Organization name is required", "Domain is required"]


def test_organization_domain_must_be_unique(api, other_org, org):
    response = api.put("/api/organization", {"name": "X", "domain": "OTHER.edu.au"})
    assert response.status_code == 409
    body = response.json()
    assert body["message"] == "An organization with this domain already exists"
    assert body["errors"] == [{"path": ["domain"], "message": "An organization with this domain already exists"}]
    org.refresh_from_db()
    assert org.domain == "mp.edu.au"


def test_organization_stale_write_is_412(api, org):
    stale = f'"{org.updated_at.isoformat()}"'
    assert api.put("/api/organization", ORG_PAYLOAD, headers={"If-Match": stale}).status_code == 200
    response = api.put("/api/organization", {"name": "Later", "domain": "mp.edu.au"}, headers={"If-Match": stale})
    assert response.status_code == 412
    org.refresh_from_db()
    assert org.name == "Melbourne Polytechnic"


def test_each_admin_sees_only_their_own_organization(api, other_api, org, other_org):
    assert api.get("/api/organization").json()["id"] == str(org.pk)
    assert other_api.get("/api/organization").json()["id"] == str(other_org.pk)
    other_api.put("/api/organization", {"name": "Renamed", "domain": "other.edu.au"})
    org.refresh_from_db()
    assert org.name == "Melbourne Polytechnic Demo"


# ---------------------------------------------------------------------------------------------- users


def test_admin_lists_only_their_organizations_users(api, admin_user, member_user, other_admin, django_assert_max_num_queries):
    User.objects.bulk_create(
        User(email=f"bulk{n}@mp.edu.au", organization=admin_user.organization, password="!") for n in range(1000)
    )
    with django_assert_max_num_queries(8):  # session, user, organization, the list: whatever the row count
        response = api.get("/api/admin/users")
    assert response.status_code == 200
    emails = [u["email"] for u in response.json()]
    assert admin_user.email in emails and member_user.email in emails and len(emails) == 1002
    assert other_admin.email not in emails
    sample = response.json()[0]
    assert "password" not in sample and "totpSecret" not in sample
    assert {"id", "email", "firstName", "lastName", "role", "isActive", "lastLogin", "organizationId"} <= set(sample)


def test_admin_adds_a_user_who_then_goes_through_first_time_setup(
    api, org, login, django_capture_on_commit_callbacks, captured_events
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/admin/users", {"firstName": "Tess", "lastName": "Teacher", "email": "Tess@MP.edu.au", "role": "admin"}
        )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["email"] == "tess@mp.edu.au" and body["role"] == "admin"
    assert body["mustChangePassword"] is True and body["isActive"] is True
    assert body["organizationId"] == str(org.pk)
    user = User.objects.get(email="tess@mp.edu.au")
    assert not user.has_usable_password()
    assert _events(captured_events) == [("user", "created", [str(user.pk)])]
    token = body["invitationLink"].split("/auth/setup?token=", 1)[1]
    assert ApiClient().post("/api/auth/first-time-login", {"email": "tess@mp.edu.au"}).status_code == 404
    answer = ApiClient().post("/api/auth/first-time-login", {"email": "tess@mp.edu.au", "token": token}).json()
    assert answer["requiresSetup"] is True and answer["userId"] == str(user.pk)
    assert login(ApiClient(), "tess@mp.edu.au", "Guess$Password1").status_code == 401


def test_role_defaults_to_user(api):
    response = api.post("/api/admin/users", {"firstName": "A", "lastName": "B", "email": "ab@mp.edu.au"})
    assert response.status_code == 201 and response.json()["role"] == "user"


@pytest.mark.parametrize(
    "payload, errors",
    [
        (
            {},
            [
                ("firstName", "First name is required"),
                ("lastName", "Last name is required"),
                ("email", "Please enter a valid email address"),
            ],
        ),
        ({"firstName": " ", "lastName": "B", "email": "a@b.co"}, [("firstName", "First name is required")]),
        ({"firstName": "A", "lastName": "", "email": "a@b.co"}, [("lastName", "Last name is required")]),
        ({"firstName": "A", "lastName": "B", "email": "nope"}, [("email", "Please enter a valid email address")]),
        ({"firstName": "A", "lastName": "B", "email": "a@b.co", "role": "owner"}, [("role", "Role must be admin or user")]),
        (
            {"firstName": "A" * 101, "lastName": "B", "email": "a@b.co"},
            [("firstName", "First name must be at most 100 characters")],
        ),
    ],
)
def test_add_user_validation(api, payload, errors):
    response = api.post("/api/admin/users", payload)
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": [p], "message": m} for p, m in errors]


def test_add_user_email_must_be_unique_across_organizations(api, member_user, other_admin):
    for email in (member_user.email, other_admin.email.upper()):
        response = api.post("/api/admin/users", {"firstName": "A", "lastName": "B", "email": email})
        assert response.status_code == 409
        body = response.json()
        assert body["message"] == "A user with this email already exists"
        assert body["errors"] == [{"path": ["email"], "message": "A user with this email already exists"}]
    other_admin.refresh_from_db()
    assert other_admin.organization_id != member_user.organization_id


def test_deactivate_ends_sessions_closes_sockets_and_blocks_sign_in(
    api, member_user, login, django_capture_on_commit_callbacks, captured_events
):
    member = ApiClient()
    assert login(member, member_user.email).status_code == 200
    assert member.get("/api/auth/user").status_code == 200
    sessions_before = Session.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(f"/api/admin/users/{member_user.pk}")
    assert response.status_code == 200
    assert response.json()["isActive"] is False and response.json()["id"] == str(member_user.pk)
    assert Session.objects.count() == sessions_before - 1
    assert member.get("/api/auth/user").status_code == 401
    assert (f"user.{member_user.pk}", {"type": "session.revoke", "reason": "deactivated"}) in captured_events
    assert _events(captured_events) == [("user", "updated", [str(member_user.pk)])]
    assert login(ApiClient(), member_user.email).json() == {"message": "Invalid email or password"}
    listed = {u["email"]: u["isActive"] for u in api.get("/api/admin/users").json()}
    assert listed[member_user.email] is False


def test_admin_cannot_deactivate_themself(api, admin_user):
    response = api.delete(f"/api/admin/users/{admin_user.pk}")
    assert response.status_code == 400
    assert response.json()["message"] == "You cannot deactivate your own account"
    admin_user.refresh_from_db()
    assert admin_user.is_active


def test_deactivating_another_organizations_user_is_404(api, other_admin):
    response = api.delete(f"/api/admin/users/{other_admin.pk}")
    assert response.status_code == 404 and response.json() == {"message": "User not found"}
    other_admin.refresh_from_db()
    assert other_admin.is_active
    assert api.delete("/api/admin/users/00000000-0000-0000-0000-000000000000").status_code == 404


def test_no_call_shows_another_organizations_users(api, member_api, other_admin, other_org):
    f.make_user(other_org, email="hidden@other.edu.au")
    seen = api.get("/api/admin/users").content.decode()
    seen += member_api.get("/api/auth/user").content.decode()
    seen += api.post("/api/auth/export-data").content.decode()
    seen += api.get("/api/organization").content.decode()
    for needle in ("other.edu.au", str(other_admin.pk), str(other_org.pk)):
        assert needle not in seen


def test_inactive_organization_locks_its_members_out(member_api, org):
    org.is_active = False
    org.save()
    assert member_api.get("/api/auth/user").status_code == 401
    assert member_api.get("/api/organization").status_code == 401
