"""The organization's details, and creating an organization with its first administrator."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction

from project.accounts.models import Organization, User
from project.accounts.services.common import (
    password_check,
)
from project.core.changes import org_change
from project.core.concurrency import assert_fresh
from project.core.errors import DuplicateCode, ValidationFailed
from project.core.tenancy import Ctx

# ------------------------------------------------------------------------------------------- organization


def organization_update(*, ctx: Ctx, data: dict[str, Any], if_match: str | None = None) -> Organization:
    """PUT /api/organization (admin): name, domain, address, phone, website.

    The domain is stored lower case and is unique: DuplicateCode 409 at ``domain``. StaleWrite on a
    stale If-Match.
    """
    domain = data["domain"].strip().lower()
    try:
        with transaction.atomic():
            org = Organization.objects.select_for_update().get(pk=ctx.org.pk)
            assert_fresh(org, if_match)
            if Organization.objects.filter(domain__iexact=domain).exclude(pk=org.pk).exists():
                raise DuplicateCode("An organization with this domain already exists", field="domain")
            org.name = data["name"]
            org.domain = domain
            org.address = data.get("address") or ""
            org.phone = data.get("phone") or ""
            org.website = data.get("website") or ""
            with org_change(ctx, "organization", "updated", ids=[org.pk]):
                # Only these fields: the instance's event_seq is older than the one the unit just raised.
                org.save(update_fields=["name", "domain", "address", "phone", "website", "updated_at"])
    except IntegrityError:
        raise DuplicateCode("An organization with this domain already exists", field="domain") from None
    return org


def organization_create(*, name: str, domain: str, admin_email: str, admin_password: str) -> tuple[Organization, User]:
    """``manage.py create_organization`` (docs/behaviour/operations.md §1): the organization, its campus 'Main Campus'
    ('MAIN') and an active admin who can sign in at once with ``admin_password`` (no TOTP yet).

    ValidationFailed for a blank name or domain, a bad email or a password breaking the rules of docs/behaviour/accounts.md §5;
    DuplicateCode for a domain or email already taken.
    """
    from django.core.validators import validate_email

    from project.catalogue.models import Campus

    name, domain, email = (name or "").strip(), (domain or "").strip().lower(), (admin_email or "").strip().lower()
    errors = []
    if not name:
        errors.append({"path": ["name"], "message": "Organization name is required"})
    if not domain:
        errors.append({"path": ["domain"], "message": "Domain is required"})
    try:
        validate_email(email)
    except DjangoValidationError:
        errors.append({"path": ["adminEmail"], "message": "Please enter a valid email address"})
    errors += password_check(admin_password, path="adminPassword")
    if errors:
        raise ValidationFailed(errors)
    if Organization.objects.filter(domain__iexact=domain).exists():
        raise DuplicateCode("An organization with this domain already exists", field="domain")
    if User.objects.filter(email=email).exists():
        raise DuplicateCode("A user with this email already exists", field="email")
    with transaction.atomic():
        org = Organization.objects.create(name=name, domain=domain)
        Campus(organization=org, name="Main Campus", abbreviation="MAIN").save()
        admin = User.objects.create_user(
            email,
            password=admin_password,
            organization=org,
            role=User.Role.ADMIN,
            is_active=True,
            must_change_password=False,
        )
        # The organization is the row the unit locks: it exists before its first change is recorded.
        with org_change(Ctx.system(org), "organization", "created", ids=[org.pk]):
            pass
    return org, admin
