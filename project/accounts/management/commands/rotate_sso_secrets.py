"""``manage.py rotate_sso_secrets``: re-encrypt every identity provider's client secret with the first key
of ``SSO_SECRET_KEYS`` (docs/adr/0022). Run after putting a new key first; then the old key can
be dropped. Secrets no configured key opens are listed (their admins must save them again)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from project.accounts.models import SingleSignOnProvider
from project.accounts.sso import secrets


class Command(BaseCommand):
    help = "Re-encrypt identity providers' client secrets with the first SSO_SECRET_KEYS key."

    def handle(self, *args: object, **options: object) -> None:
        rotated, unreadable = 0, []
        for provider in SingleSignOnProvider.objects.unscoped().select_related("organization"):
            token = secrets.reencrypt(provider.client_secret_encrypted)
            if token is None:
                unreadable.append(f"{provider.organization.name} ({provider.name})")
                continue
            SingleSignOnProvider.objects.unscoped().filter(pk=provider.pk).update(client_secret_encrypted=token)
            rotated += 1
        self.stdout.write(f"Re-encrypted {rotated} client secret(s).")
        for name in unreadable:
            self.stderr.write(f"No configured key opens the client secret of {name}: save it again on the Organization page.")
