"""Verified domains (docs/adr/0024): an organization uses a domain for single sign-on and discovery only
once it proved it owns it, with a TXT record found by a DNS server of the test's own
(tests/sso/dns_server.py); the organization's own domain (create_organization) counts as verified; a
domain verified by another organization is refused with a 409 that names nothing about it."""

from __future__ import annotations

from project.accounts.models import SingleSignOnDomain, SingleSignOnProvider
from tests import factories as f
from tests.conftest import ApiClient
from tests.sso.test_sign_in import CALLBACK, finish, refused, signed_in_email, start

CONFIG = {
    "name": "Contoso Entra",
    "issuerUrl": "https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0",
    "clientId": "blockplan-app",
    "clientSecret": "s3cret-value-for-tests",
    "mode": "optional",
}


def discover(email: str) -> dict:
    return ApiClient(None).post("/api/auth/sso/discover", {"email": email}).json()


def states(api: ApiClient) -> dict[str, dict]:
    return {d["domain"]: d for d in api.get("/api/organization/sso").json()["domainStates"]}


def test_the_organizations_own_domain_is_verified_and_others_wait_for_their_record(api, org):
    answer = api.put("/api/organization/sso", {**CONFIG, "domains": ["mp.edu.au", "staff.mp.edu.au"]})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["domains"] == ["mp.edu.au", "staff.mp.edu.au"]
    own, staff = body["domainStates"]
    assert own["domain"] == "mp.edu.au" and own["verified"] is True and own["verifiedAt"]
    assert staff["domain"] == "staff.mp.edu.au" and staff["verified"] is False and staff["verifiedAt"] is None
    assert staff["recordName"] == "staff.mp.edu.au"
    assert staff["recordValue"].startswith("blockplan-domain-verification=") and len(staff["recordValue"]) > 40
    assert own["recordValue"] != staff["recordValue"]
    # Only the verified domain is offered on the sign-in page.
    assert discover("a@mp.edu.au")["sso"] is True
    assert discover("a@staff.mp.edu.au")["sso"] is False
    # Saving again keeps each domain's token and state.
    again = api.put(
        "/api/organization/sso", {**CONFIG, "domains": ["staff.mp.edu.au", "mp.edu.au"]}, headers={"If-Match": body["updatedAt"]}
    )
    assert again.json()["domainStates"] == body["domainStates"]


def test_a_domain_is_usable_only_after_its_txt_record(api, org, dns_server):
    api.put("/api/organization/sso", {**CONFIG, "domains": ["mp.edu.au", "staff.mp.edu.au"]})
    record = states(api)["staff.mp.edu.au"]["recordValue"]

    missing = api.post("/api/organization/sso/domains/verify", {"domain": "staff.mp.edu.au"})
    assert missing.status_code == 400
    assert missing.json()["errors"][0]["path"] == ["domain"]
    assert record in missing.json()["errors"][0]["message"]
    assert "staff.mp.edu.au" in dns_server.queries

    dns_server.txt["staff.mp.edu.au"] = ["v=spf1 -all", "blockplan-domain-verification=someone-elses-token"]
    assert api.post("/api/organization/sso/domains/verify", {"domain": "staff.mp.edu.au"}).status_code == 400
    assert discover("a@staff.mp.edu.au")["sso"] is False

    dns_server.txt["staff.mp.edu.au"].append(record)
    verified = api.post("/api/organization/sso/domains/verify", {"domain": "Staff.MP.edu.au"})
    assert verified.status_code == 200, verified.content
    assert {d["domain"]: d["verified"] for d in verified.json()["domainStates"]} == {"mp.edu.au": True, "staff.mp.edu.au": True}
    assert discover("a@staff.mp.edu.au")["sso"] is True
    # Verifying again changes nothing; a domain not listed is 404.
    assert api.post("/api/organization/sso/domains/verify", {"domain": "staff.mp.edu.au"}).status_code == 200
    assert api.post("/api/organization/sso/domains/verify", {"domain": "nowhere.edu.au"}).status_code == 404


def test_dns_that_does_not_answer_is_a_clear_400(api, org, settings):
    settings.DOMAIN_VERIFICATION_NAMESERVER, settings.DOMAIN_VERIFICATION_PORT = "127.0.0.1", 9  # discard: no answer
    api.put("/api/organization/sso", {**CONFIG, "domains": ["staff.mp.edu.au"]})
    answer = api.post("/api/organization/sso/domains/verify", {"domain": "staff.mp.edu.au"})
    assert answer.status_code == 400
    assert "did not answer" in answer.json()["errors"][0]["message"]


def test_only_admins_verify(member_api, anon_api):
    assert member_api.post("/api/organization/sso/domains/verify", {"domain": "mp.edu.au"}).status_code == 403
    assert anon_api.post("/api/organization/sso/domains/verify", {"domain": "mp.edu.au"}).status_code == 401


def test_another_organizations_claim_of_our_domain_is_refused_and_our_sign_in_unchanged(
    api, other_api, org, other_org, admin_user, other_admin
):
    """The takeover: B saves single sign-on with A's domain in required mode. Refused, and A's admin still
    signs in with a password, and A's sign-in page offers no provider."""
    for domains in (["mp.edu.au"], ["other.edu.au", "MP.edu.au"]):
        answer = other_api.put(
            "/api/organization/sso", {**CONFIG, "mode": "required", "breakGlassUserId": str(other_admin.pk), "domains": domains}
        )
        assert answer.status_code == 409
        assert answer.json()["errors"] == [{"path": ["domains"], "message": "mp.edu.au is verified by another organization"}]
        assert org.name not in answer.content.decode()
    assert not SingleSignOnProvider.objects.for_org(other_org).exists()
    assert discover("admin@mp.edu.au")["sso"] is False
    anon = ApiClient(None)
    assert anon.post("/api/auth/login", {"email": admin_user.email, "password": f.PASSWORD}).status_code == 200


def test_a_domain_verified_by_one_organization_cannot_be_verified_by_another(api, other_api, org, other_org, dns_server):
    # Both list a domain neither was given; listing it is harmless while unverified.
    assert api.put("/api/organization/sso", {**CONFIG, "domains": ["shared.edu.au"]}).status_code == 200
    answer = other_api.put("/api/organization/sso", {**CONFIG, "name": "B IdP", "domains": ["shared.edu.au"]})
    assert answer.status_code == 200
    theirs = states(other_api)["shared.edu.au"]["recordValue"]
    ours = states(api)["shared.edu.au"]["recordValue"]
    assert theirs != ours
    dns_server.txt["shared.edu.au"] = [ours]
    assert api.post("/api/organization/sso/domains/verify", {"domain": "shared.edu.au"}).status_code == 200
    # Now B can neither verify it (even with its own record published) nor save it anew.
    dns_server.txt["shared.edu.au"].append(theirs)
    refused_verify = other_api.post("/api/organization/sso/domains/verify", {"domain": "shared.edu.au"})
    assert refused_verify.status_code == 409
    assert refused_verify.json()["errors"] == [
        {"path": ["domain"], "message": "shared.edu.au is verified by another organization"}
    ]
    assert discover("x@shared.edu.au")["providerName"] == "Contoso Entra"
    assert SingleSignOnDomain.objects.filter(domain="shared.edu.au", verified_at__isnull=False).count() == 1


def test_sign_in_refuses_an_unverified_domain_and_accepts_it_once_verified(api, org, oidc_provider, dns_server):
    client_id, client_secret = oidc_provider.register_client([CALLBACK])
    oidc_provider.set_account("stan", "stan@staff.mp.edu.au", given_name="Stan")
    f.make_user(org, role="user", email="stan@staff.mp.edu.au")
    answer = api.put(
        "/api/organization/sso",
        {**CONFIG, "issuerUrl": oidc_provider.issuer, "clientId": client_id, "clientSecret": client_secret, "domains": ["mp.edu.au", "staff.mp.edu.au"]},
    )  # fmt: skip
    assert answer.status_code == 200
    assert refused(ApiClient(None).get("/api/auth/sso/start", {"email": "stan@staff.mp.edu.au"}), "not_configured")
    # A sign-in started for a verified domain whose provider vouches for an unverified one: refused too.
    browser = ApiClient(None)
    assert refused(finish(browser, oidc_provider.sign_in(start(browser, "admin@mp.edu.au"), "stan@staff.mp.edu.au")), "domain")
    assert signed_in_email(browser) is None

    dns_server.txt["staff.mp.edu.au"] = [states(api)["staff.mp.edu.au"]["recordValue"]]
    assert api.post("/api/organization/sso/domains/verify", {"domain": "staff.mp.edu.au"}).status_code == 200
    browser = ApiClient(None)
    answer = finish(browser, oidc_provider.sign_in(start(browser, "stan@staff.mp.edu.au"), "stan@staff.mp.edu.au"))
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert signed_in_email(browser) == "stan@staff.mp.edu.au"


def test_existing_domains_migrate_verified_only_when_they_are_the_organizations_own(org, other_org):
    """The data migration's rule, run on rows as they were before it (tokens shared, nothing verified)."""
    from importlib import import_module

    from django.apps import apps

    migration = import_module("project.accounts.migrations.0005_sso_verified_domains")
    type(org).objects.filter(pk=org.pk).update(operator_domain="")  # (the field the migration adds)
    provider = SingleSignOnProvider.objects.create(
        organization=org, name="X", issuer_url="https://idp.example", client_id="c", client_secret_encrypted="x"
    )
    SingleSignOnDomain.objects.bulk_create(
        [SingleSignOnDomain(provider=provider, domain=d, verification_token="same") for d in ("mp.edu.au", "staff.mp.edu.au")]
    )
    migration.verify_existing(apps, None)
    rows = {d.domain: d for d in SingleSignOnDomain.objects.all()}
    org.refresh_from_db()
    assert org.operator_domain == "mp.edu.au"
    assert rows["mp.edu.au"].verified_at is not None and rows["staff.mp.edu.au"].verified_at is None
    assert len({r.verification_token for r in rows.values()}) == 2 and "same" not in {r.verification_token for r in rows.values()}


def test_renaming_the_organizations_domain_verifies_nothing(api, org, dns_server):
    """Only the domain the operator gave at creation counts as verified: an admin who edits the
    organization's domain to someone else's and lists it for single sign-on still needs its TXT record."""
    answer = api.put("/api/organization", {"name": org.name, "domain": "victim.edu.au"})
    assert answer.status_code == 200, answer.content
    org.refresh_from_db()
    assert (org.domain, org.operator_domain) == ("victim.edu.au", "mp.edu.au")
    api.put("/api/organization/sso", {**CONFIG, "domains": ["victim.edu.au", "mp.edu.au"]})
    assert {k: v["verified"] for k, v in states(api).items()} == {"mp.edu.au": True, "victim.edu.au": False}
    assert discover("staff@victim.edu.au")["sso"] is False
    # An organization created by the operator with that domain would own it: another's listing is refused.
    other = f.make_org(name="Victim TAFE", domain="real-victim.edu.au")
    assert other.operator_domain == "real-victim.edu.au"
    refused = api.put("/api/organization/sso", {**CONFIG, "domains": ["real-victim.edu.au"]})
    assert refused.status_code == 409
