"""The organization's single sign-on configuration (ADR 0022): admin only, validated, one organization
per domain, the secret write-only and encrypted, "Test connection" against the real provider, and the
sign-in page's discovery revealing only the email's own organization's provider."""

from __future__ import annotations

import pytest
from django.utils import timezone

from project.accounts.models import SingleSignOnDomain, SingleSignOnProvider
from project.accounts.sso import secrets
from project.history.models import Activity
from tests import factories as f
from tests.conftest import ApiClient

VALID = {
    "name": "Contoso Entra",
    "issuerUrl": "https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0",
    "clientId": "blockplan-app",
    "clientSecret": "s3cret-value-for-tests",
    "domains": ["mp.edu.au", "@Staff.MP.edu.au"],
    "mode": "optional",
    "createAccounts": False,
    "enabled": True,
}


def test_not_configured_answers_the_redirect_uri(api):
    response = api.get("/api/organization/sso")
    assert response.status_code == 200
    assert response.json() == {
        "configured": False,
        "name": "",
        "issuerUrl": "",
        "clientId": "",
        "hasClientSecret": False,
        "domains": [],
        "domainStates": [],
        "mode": "optional",
        "breakGlassUserId": None,
        "createAccounts": False,
        "enabled": False,
        "redirectUri": "http://localhost/api/auth/sso/callback",
        "postLogoutRedirectUri": "http://localhost/auth",
        "backchannelLogoutUri": "http://localhost/api/auth/sso/backchannel-logout",
        "updatedAt": None,
    }


def test_save_stores_the_secret_encrypted_and_never_answers_it(api, org):
    response = api.put("/api/organization/sso", VALID)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["configured"] and body["hasClientSecret"] and "clientSecret" not in body
    assert body["domains"] == ["mp.edu.au", "staff.mp.edu.au"]
    assert "s3cret-value-for-tests" not in response.content.decode()
    provider = SingleSignOnProvider.objects.for_org(org).get()
    assert "s3cret" not in provider.client_secret_encrypted
    assert secrets.decrypt(provider.client_secret_encrypted) == "s3cret-value-for-tests"
    # A blank secret keeps the stored one; the change is in the history.
    again = api.put(
        "/api/organization/sso", {**VALID, "clientSecret": "", "name": "Entra"}, headers={"If-Match": body["updatedAt"]}
    )
    assert again.status_code == 200, again.content
    provider.refresh_from_db()
    assert secrets.decrypt(provider.client_secret_encrypted) == "s3cret-value-for-tests"
    summaries = list(Activity.objects.for_org(org).values_list("summary", flat=True))
    assert summaries[:2] == ["Ada Admin changed single sign-on", "Ada Admin set up single sign-on"]
    # Stale If-Match: 412, nothing changed.
    stale = api.put("/api/organization/sso", {**VALID, "name": "Stale"}, headers={"If-Match": body["updatedAt"]})
    assert stale.status_code == 412
    assert SingleSignOnProvider.objects.for_org(org).get().name == "Entra"


def test_keys_from_the_environment_encrypt_and_rotate(settings):
    from cryptography.fernet import Fernet

    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    settings.SSO_SECRET_KEYS = [old]
    token = secrets.encrypt("the-secret")
    settings.SSO_SECRET_KEYS = [new, old]
    assert secrets.decrypt(token) == "the-secret"
    rotated = secrets.reencrypt(token)
    settings.SSO_SECRET_KEYS = [new]
    assert secrets.decrypt(rotated) == "the-secret"
    assert secrets.decrypt(token) is None  # the old key is gone: the old token no longer opens


def test_validation_lists_every_problem_and_changes_nothing(api, org, member_user):
    response = api.put(
        "/api/organization/sso",
        {"name": " ", "issuerUrl": "ftp://x", "clientId": "", "domains": ["not a domain"], "mode": "required"},
    )
    assert response.status_code == 400
    errors = {tuple(e["path"]): e["message"] for e in response.json()["errors"]}
    assert errors == {
        ("name",): "Provider name is required",
        ("issuerUrl",): "Enter the issuer URL, starting with https://",
        ("clientId",): "Client ID is required",
        ("domains",): "not a domain is not an email domain such as tafe.vic.edu.au",
        ("breakGlassUserId",): "Name a break-glass administrator who can still sign in with a password",
        ("clientSecret",): "Client secret is required",
    }
    response = api.put("/api/organization/sso", {**VALID, "mode": "required", "breakGlassUserId": str(member_user.pk)})
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"path": ["breakGlassUserId"], "message": "Choose an active administrator of this organization"}
    ]
    assert api.put("/api/organization/sso", {**VALID, "mode": "sometimes"}).status_code == 400
    assert not SingleSignOnProvider.objects.for_org(org).exists()


def test_production_wants_https_issuers(api, settings):
    settings.SSO_ALLOW_HTTP_ISSUERS = False
    response = api.put("/api/organization/sso", {**VALID, "issuerUrl": "http://idp.example"})
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": ["issuerUrl"], "message": "Enter the issuer URL, starting with https://"}]


def test_production_refuses_issuers_on_private_addresses(api, settings, org):
    """The server fetches the issuer URL for the admin: in production it must not reach the internal network."""
    settings.SSO_ALLOW_HTTP_ISSUERS = settings.SSO_ALLOW_PRIVATE_ISSUERS = False
    message = "The issuer URL must be a public address of the identity provider"
    for url in ("https://127.0.0.1", "https://169.254.169.254/latest", "https://10.0.0.5", "https://localhost:8443"):
        assert api.post("/api/organization/sso/test", {"issuerUrl": url}).json() == {
            "ok": False,
            "message": message,
            "issuer": None,
            "authorizationEndpoint": None,
            "tokenEndpoint": None,
            "userinfoEndpoint": None,
            "jwksUri": None,
            "signingKeyCount": 0,
            "scopesSupported": [],
        }, url
        response = api.put("/api/organization/sso", {**VALID, "issuerUrl": url})
        assert response.status_code == 400
        assert response.json()["errors"] == [{"path": ["issuerUrl"], "message": message}]
    assert not SingleSignOnProvider.objects.for_org(org).exists()


def test_only_admins(member_api, anon_api):
    assert member_api.get("/api/organization/sso").status_code == 403
    assert member_api.put("/api/organization/sso", VALID).status_code == 403
    assert member_api.post("/api/organization/sso/test", {"issuerUrl": VALID["issuerUrl"]}).status_code == 403
    assert anon_api.get("/api/organization/sso").status_code == 401


def test_a_domain_belongs_to_one_organization(api, other_api, org, other_org):
    """A verified domain (here the organization's own) is refused to another organization (docs/adr/0024);
    tests/sso/test_domains.py has the rest."""
    assert api.put("/api/organization/sso", VALID).status_code == 200
    response = other_api.put("/api/organization/sso", {**VALID, "domains": ["other.edu.au", "mp.edu.au"]})
    assert response.status_code == 409
    assert response.json()["errors"] == [{"path": ["domains"], "message": "mp.edu.au is verified by another organization"}]
    assert not SingleSignOnProvider.objects.for_org(other_org).exists()
    # The other organization sees none of ours.
    assert other_api.get("/api/organization/sso").json()["configured"] is False


def test_discovery_names_only_the_emails_own_organizations_provider(api, other_api):
    assert api.put("/api/organization/sso", VALID).status_code == 200
    SingleSignOnDomain.objects.filter(domain="staff.mp.edu.au").update(verified_at=timezone.now())  # (its TXT record found)
    assert other_api.put("/api/organization/sso", {**VALID, "name": "Other Okta", "domains": ["other.edu.au"]}).status_code == 200
    anon = ApiClient(None)
    ours = anon.post("/api/auth/sso/discover", {"email": "Someone@Staff.mp.edu.au"}).json()
    assert ours == {
        "sso": True,
        "providerName": "Contoso Entra",
        "startUrl": "/api/auth/sso/start?email=someone%40staff.mp.edu.au",
        "required": False,
    }
    assert anon.post("/api/auth/sso/discover", {"email": "x@other.edu.au"}).json()["providerName"] == "Other Okta"
    for email in ("x@elsewhere.edu.au", "mp.edu.au", "", "x@sub.other.edu.au"):
        assert anon.post("/api/auth/sso/discover", {"email": email}).json() == {
            "sso": False,
            "providerName": None,
            "startUrl": None,
            "required": False,
        }


def test_a_disabled_provider_is_not_offered(api, org):
    assert api.put("/api/organization/sso", {**VALID, "enabled": False}).status_code == 200
    assert ApiClient(None).post("/api/auth/sso/discover", {"email": "a@mp.edu.au"}).json()["sso"] is False
    answer = ApiClient(None).get("/api/auth/sso/start", {"email": "a@mp.edu.au"})
    assert answer.status_code == 302 and answer["Location"] == "/auth?ssoError=not_configured"


def test_remove(api, org):
    assert api.delete("/api/organization/sso").status_code == 404
    assert api.put("/api/organization/sso", VALID).status_code == 200
    assert api.delete("/api/organization/sso").status_code == 200
    assert not SingleSignOnProvider.objects.for_org(org).exists()
    assert ApiClient(None).post("/api/auth/sso/discover", {"email": "a@mp.edu.au"}).json()["sso"] is False


def test_test_connection_reads_the_real_providers_discovery(api, oidc_provider):
    response = api.post("/api/organization/sso/test", {"issuerUrl": oidc_provider.issuer})
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True, body
    assert body["issuer"] == oidc_provider.issuer
    assert body["authorizationEndpoint"].startswith(oidc_provider.issuer)
    assert body["tokenEndpoint"].startswith(oidc_provider.issuer)
    assert body["signingKeyCount"] >= 1
    assert body["message"] == f"Found {oidc_provider.issuer} with {body['signingKeyCount']} signing key(s)."


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://127.0.0.1:9", "Could not reach http://127.0.0.1:9/.well-known/openid-configuration: ConnectionError"),
        ("not a url", "Enter the issuer URL, starting with https://"),
    ],
)
def test_test_connection_reports_what_is_wrong(api, url, message):
    body = api.post("/api/organization/sso/test", {"issuerUrl": url}).json()
    assert body["ok"] is False and body["message"] == message


def test_test_connection_reports_an_issuer_mix_up(api, oidc_provider):
    """The same provider reached by another name: its discovery names another issuer, which sign-in refuses."""
    other_name = oidc_provider.issuer.replace("127.0.0.1", "localhost")
    body = api.post("/api/organization/sso/test", {"issuerUrl": other_name}).json()
    assert body["ok"] is False
    assert body["message"] == f"The provider names its issuer {oidc_provider.issuer}: use that as the issuer URL"
    missing = api.post("/api/organization/sso/test", {"issuerUrl": oidc_provider.issuer + "/tenant"}).json()
    assert missing["message"] == f"{oidc_provider.issuer}/tenant/.well-known/openid-configuration answered HTTP 404"


def test_a_secret_no_key_opens_fails_sign_in_clearly(api, org, settings):
    from cryptography.fernet import Fernet

    f.make_user(org, role="user", email="someone@mp.edu.au")
    assert api.put("/api/organization/sso", {**VALID, "issuerUrl": "http://127.0.0.1:9"}).status_code == 200
    settings.SSO_SECRET_KEYS = [Fernet.generate_key().decode()]  # the keys changed since it was saved
    answer = ApiClient(None).get("/api/auth/sso/start", {"email": "someone@mp.edu.au"})
    assert answer.status_code == 302 and answer["Location"] == "/auth?ssoError=unavailable"


def test_rotate_sso_secrets_command(api, org, settings):
    from io import StringIO

    from cryptography.fernet import Fernet
    from django.core.management import call_command

    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    settings.SSO_SECRET_KEYS = [old]
    assert api.put("/api/organization/sso", VALID).status_code == 200
    settings.SSO_SECRET_KEYS = [new, old]
    out = StringIO()
    call_command("rotate_sso_secrets", stdout=out)
    assert out.getvalue().strip() == "Re-encrypted 1 client secret(s)."
    settings.SSO_SECRET_KEYS = [new]
    token = SingleSignOnProvider.objects.for_org(org).get().client_secret_encrypted
    assert secrets.decrypt(token) == "s3cret-value-for-tests"
