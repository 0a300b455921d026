"""Role changes and deactivation take effect through the model, whatever path saved it (docs/adr/0023):
a plain ``save()`` as a shell or a management command makes it, the API, the Django admin's form. What
the sockets do with these messages is shown against a real daphne in tests/realtime/test_access_ends.py."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session

from realtime.events import ACCESS_EVENT, REVOKE_EVENT, org_group, user_group
from tests import factories as f

pytestmark = pytest.mark.django_db


def _sessions_of(user) -> int:
    from django.contrib.auth import SESSION_KEY

    return sum(1 for s in Session.objects.all() if s.get_decoded().get(SESSION_KEY) == str(user.pk))


def _signed_in(user):
    from tests.conftest import ApiClient

    return ApiClient(user)


def test_a_saved_deactivation_ends_sessions_and_closes_sockets(
    org, member_user, admin_user, captured_events, django_capture_on_commit_callbacks
):
    _signed_in(member_user), _signed_in(member_user), _signed_in(admin_user)
    assert _sessions_of(member_user) == 2
    with django_capture_on_commit_callbacks(execute=True):
        member_user.is_active = False
        member_user.save()  # as a shell or a management command would
    assert _sessions_of(member_user) == 0 and _sessions_of(admin_user) == 1
    revokes = [(g, m) for g, m in captured_events if m["type"] == REVOKE_EVENT]
    assert (user_group(member_user.pk), {"type": REVOKE_EVENT, "reason": "deactivated"}) in revokes
    assert sum(1 for g, _ in revokes if g.startswith("session.")) == 2


def test_the_api_deactivation_goes_through_the_same_hook(
    api, org, member_user, captured_events, django_capture_on_commit_callbacks
):
    member = _signed_in(member_user)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"/api/admin/users/{member_user.pk}").status_code == 200
    assert member.get("/api/auth/user").status_code == 401
    revokes = [g for g, m in captured_events if m["type"] == REVOKE_EVENT]
    assert revokes.count(user_group(member_user.pk)) == 1  # once, not once per path


def test_a_role_change_rescopes_and_other_saves_say_nothing(
    org, admin_user, captured_events, django_capture_on_commit_callbacks, django_assert_num_queries
):
    member = _signed_in(admin_user)
    with django_capture_on_commit_callbacks(execute=True):
        admin_user.role = "user"
        admin_user.save(update_fields=["role"])
    assert captured_events == [(user_group(admin_user.pk), {"type": ACCESS_EVENT, "role": "user"})]
    assert member.get("/api/auth/user").status_code == 200  # still signed in, as a member now
    captured_events.clear()
    with django_capture_on_commit_callbacks(execute=True):
        admin_user.first_name = "Renamed"
        admin_user.save()
        with django_assert_num_queries(1):  # a sign-in's last_login: no look-up of the access fields
            admin_user.save(update_fields=["last_login"])
    assert captured_events == []
    assert _sessions_of(admin_user) == 1


def test_a_saved_organization_deactivation_closes_the_organizations_sockets(
    org, other_org, admin_user, member_user, captured_events, django_capture_on_commit_callbacks
):
    other_admin = f.make_user(other_org, role="admin")
    _signed_in(admin_user), _signed_in(member_user), _signed_in(other_admin)
    with django_capture_on_commit_callbacks(execute=True):
        org.is_active = False
        org.save()
    assert _sessions_of(admin_user) == _sessions_of(member_user) == 0
    assert _sessions_of(other_admin) == 1
    assert (org_group(org.pk), {"type": REVOKE_EVENT, "reason": "deactivated"}) in captured_events
    assert not any(g == org_group(other_org.pk) for g, _ in captured_events)
