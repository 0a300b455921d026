"""``manage.py create_organization --name NAME --domain DOMAIN --admin-email EMAIL --admin-password PASSWORD``

docs/behaviour/operations.md: creates an organization, its campus 'Main Campus' (MAIN) and an active admin who can sign
in with the password at once (no TOTP yet), then prints the organization's id.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from project.accounts.services import organization_create
from project.core.errors import DomainError


class Command(BaseCommand):
    help = "Create an organization with a 'Main Campus' and an admin who can sign in at once; prints its id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True)
        parser.add_argument("--domain", required=True)
        parser.add_argument("--admin-email", required=True)
        parser.add_argument("--admin-password", required=True)

    def handle(self, *args: object, name: str, domain: str, admin_email: str, admin_password: str, **options: object) -> None:
        try:
            org, _admin = organization_create(name=name, domain=domain, admin_email=admin_email, admin_password=admin_password)
        except DomainError as exc:
            details = "; ".join(e["message"] for e in (exc.errors or [])) or exc.message
            raise CommandError(details) from None
        self.stdout.write(str(org.pk))
