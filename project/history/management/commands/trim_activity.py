"""``manage.py trim_activity [--days N]``: delete activities older than ``ACTIVITY_RETENTION_DAYS`` (400 by
default) in every organization (ADR 0012). Meant for a scheduler (cron, a systemd timer) once a day;
prints how many were deleted."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from project.history.models import Activity


class Command(BaseCommand):
    help = "Delete activities older than ACTIVITY_RETENTION_DAYS (default 400)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=None, help="keep this many days instead of the setting")

    def handle(self, *args: object, days: int | None = None, **options: object) -> None:
        keep = days if days is not None else settings.ACTIVITY_RETENTION_DAYS
        if keep < 1:
            raise CommandError("--days must be at least 1")
        cutoff = timezone.now() - timedelta(days=keep)
        deleted, _ = Activity.objects.unscoped().filter(created_at__lt=cutoff).delete()
        self.stdout.write(f"Deleted {deleted} activities older than {keep} days.")
