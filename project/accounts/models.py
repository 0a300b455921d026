"""Organizations, users (keyed by email), passkeys (docs/behaviour/accounts.md §3)."""

from __future__ import annotations

import secrets
import uuid
from typing import Any, ClassVar

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.db import models

from project.core.models import HistoryTracked, TenantModel, TimeStampedModel


class Organization(HistoryTracked, TimeStampedModel):
    # The change sequence and the operator's domain are never part of a snapshot nor restored.
    history_exclude = ("event_seq", "operator_domain")

    name = models.CharField(max_length=255)
    domain = models.CharField(max_length=255, unique=True)
    # The domain the operator gave when the organization was created (create_organization, the Django admin):
    # verified for single sign-on without a DNS record (docs/adr/0024). An admin's later edit of ``domain``
    # does not change it, so renaming the organization's domain proves nothing.
    operator_domain = models.CharField(max_length=255, blank=True, default="", editable=False)
    is_active = models.BooleanField(default=True)
    address = models.TextField(blank=True, default="")
    phone = models.CharField(max_length=50, blank=True, default="")
    website = models.CharField(max_length=255, blank=True, default="")
    timezone = models.CharField(max_length=64, default="Australia/Melbourne")
    # The organization's change-event counter (docs/behaviour/live-events.md §4), raised in the writing transaction.
    event_seq = models.BigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:  # Model.save's own arguments
        if self._state.adding and not self.operator_domain:
            self.operator_domain = (self.domain or "").strip().lower()
        super().save(*args, **kwargs)


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> User:  # extra: field values
        if not email:
            raise ValueError("Email is required")
        email = self.normalize_email(email).lower()
        user = self.model(email=email, **extra)
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        extra.setdefault("role", User.Role.ADMIN)
        extra.setdefault("must_change_password", False)
        return self.create_user(email, password, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    class Role(models.TextChoices):
        ADMIN = "admin", "Administrator"
        USER = "user", "Organization Member"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    email = models.EmailField(max_length=255, unique=True)
    first_name = models.CharField(max_length=100, blank=True, default="")
    last_name = models.CharField(max_length=100, blank=True, default="")
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="users", null=True, blank=True)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.USER)
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)  # Django admin access for support staff
    must_change_password = models.BooleanField(default=True)
    totp_secret = models.CharField(max_length=32, blank=True, default="")
    is_totp_enabled = models.BooleanField(default=False)
    # Highest TOTP time-step accepted so far: a code is usable once (no replay in its window).
    totp_last_counter = models.BigIntegerField(null=True, blank=True, editable=False)
    settings = models.JSONField(null=True, blank=True)  # None until first saved (GET answers 404)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        ordering = ["first_name", "last_name", "email"]
        indexes = [models.Index(fields=["organization", "is_active"])]

    def __str__(self) -> str:
        return self.email

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class Passkey(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="passkeys")
    credential_id = models.CharField(max_length=255, unique=True)  # base64url
    public_key = models.TextField()  # base64url COSE key
    counter = models.BigIntegerField(default=0)
    device_name = models.CharField(max_length=100, default="Unknown Device")
    transports = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.device_name} ({self.user.email})"


class Invitation(models.Model):
    """A single-use link that lets a user added by an admin run first-time setup (ADR 0005).

    Only the SHA-256 of the token is stored: the link (``/auth/setup?token=...``) is shown to the admin
    and emailed once. ``expires_at`` is 7 days after issue; issuing a new one revokes the previous ones;
    completing setup marks it used.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="invitations")
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Invitation for {self.user_id}"


def new_verification_token() -> str:
    """A fresh domain-verification token (192 bits, URL-safe)."""
    return secrets.token_urlsafe(24)


class SingleSignOnProvider(TenantModel):
    """An organization's OpenID Connect identity provider (docs/adr/0022).

    One per organization. ``client_secret_encrypted`` holds the client secret encrypted with Fernet
    (:mod:`project.accounts.sso.secrets`); the API never answers it. Not history-tracked: the secret never
    enters a snapshot (its writes are still recorded as activities, without an undo).
    """

    history_tracked = False

    class Mode(models.TextChoices):
        OPTIONAL = "optional", "Optional: password and single sign-on both work"
        REQUIRED = "required", "Required: password sign-in refused for these domains"

    name = models.CharField(max_length=100)  # the button reads "Sign in with <name>"
    issuer_url = models.URLField(max_length=500)
    client_id = models.CharField(max_length=255)
    client_secret_encrypted = models.TextField()
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.OPTIONAL)
    break_glass_user = models.ForeignKey("accounts.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    create_accounts = models.BooleanField(default=False)  # "create accounts for new staff" (role user)
    enabled = models.BooleanField(default=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["organization"], name="one_sso_provider_per_organization")]

    def __str__(self) -> str:
        return self.name


class SingleSignOnDomain(models.Model):
    """An email domain listed by one organization's provider (docs/adr/0024).

    Used for sign-in and discovery only once ``verified_at`` is set: the organization published the TXT
    record ``blockplan-domain-verification=<verification_token>`` at the domain, or it is the domain its
    operator gave at ``create_organization``. Several organizations may list a domain while unverified;
    only one may have it verified (a partial unique constraint).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    provider = models.ForeignKey(SingleSignOnProvider, on_delete=models.CASCADE, related_name="domains")
    domain = models.CharField(max_length=255)  # lower case, no "@"
    verification_token = models.CharField(max_length=64, default=new_verification_token, editable=False)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["domain"]
        constraints = [
            models.UniqueConstraint(fields=["provider", "domain"], name="sso_domain_once_per_provider"),
            models.UniqueConstraint(
                fields=["domain"], condition=models.Q(verified_at__isnull=False), name="sso_domain_verified_by_one_organization"
            ),
        ]

    def __str__(self) -> str:
        return self.domain

    @property
    def txt_record(self) -> str:
        """The TXT record's text that proves the organization owns the domain."""
        return f"blockplan-domain-verification={self.verification_token}"


class TrustedDevice(models.Model):
    """A browser that has signed in to ``user`` before (docs/adr/0005: device cookies).

    The browser holds the id in the signed ``blockplan_device`` cookie; the row binds it to the account
    and counts the failures made with it (``failures`` within the lockout cool-off since
    ``failed_at``), so that this browser is judged by its own record and not by its network address.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="trusted_devices")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField()  # the last successful sign-in with it (UTC)
    failures = models.PositiveIntegerField(default=0)
    failed_at = models.DateTimeField(null=True, blank=True)  # the first failure of the current run (UTC)

    def __str__(self) -> str:
        return f"device {self.pk} of {self.user_id}"


class SingleSignOnSession(models.Model):
    """A browser session signed in by single sign-on, with the provider's ``sub`` and session id (``sid``
    of the ID token, when it has one): what a back-channel logout (OpenID Connect Back-Channel Logout 1.0,
    docs/adr/0024) names to end it. Rows outlive their session harmlessly (a logout finds no session)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    provider = models.ForeignKey(SingleSignOnProvider, on_delete=models.CASCADE, related_name="sessions")
    session_key = models.CharField(max_length=40)
    sub = models.CharField(max_length=255)
    sid = models.CharField(max_length=255, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["provider", "sub"], name="sso_session_by_sub"),
            models.Index(fields=["provider", "sid"], name="sso_session_by_sid"),
        ]

    def __str__(self) -> str:
        return f"{self.sub} ({self.session_key[:6]}…)"
