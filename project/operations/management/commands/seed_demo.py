"""``python manage.py seed_demo``: load the demo organization idempotently and print how to sign in
(docs/behaviour/operations.md §2). The content and its sources: ``project/operations/demo/``."""

from django.core.management.base import BaseCommand

from project.operations.demo import seed


class Command(BaseCommand):
    help = "Load (or refresh) the demo organization 'Blockplan Demo TAFE' from real data; safe to run again."

    def handle(self, *args: object, **options: object) -> None:
        org, stats = seed.seed_demo()
        for label in stats.created:
            self.stdout.write(f"  {label}: {stats.created[label]} created, {stats.updated.get(label, 0)} updated")
        self.stdout.write(self.style.SUCCESS(f"Demo organization ready: {org.name} ({org.domain}), id {org.pk}"))
        self.stdout.write("Sign in at http://localhost:8000 with:")
        for email, first, last, role in seed.USERS:
            self.stdout.write(f"  {email:<40} password {seed.PASSWORD}   ({first} {last}, role {role})")
