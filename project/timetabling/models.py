"""Timetable sessions and holidays (docs/behaviour/terms-and-holidays.md §1, docs/behaviour/generation.md §4; docs/behaviour/conflicts.md §1; docs/behaviour/terms-and-holidays.md)."""

import uuid
from decimal import Decimal

from django.db import models
from django.db.models import F
from django.db.models.functions import Lower

from project.core.models import TenantModel


class Holiday(TenantModel):
    class Type(models.TextChoices):
        PUBLIC_HOLIDAY = "public_holiday", "Public Holiday"
        TERM_BREAK = "term_break", "Term Break"

    name = models.CharField(max_length=255)
    type = models.CharField(max_length=20, choices=Type.choices, default=Type.PUBLIC_HOLIDAY)
    start_date = models.DateField()
    end_date = models.DateField()
    description = models.TextField(blank=True, default="")
    is_recurring = models.BooleanField(default=False)
    year = models.IntegerField()
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["start_date", "name"]
        indexes = [models.Index(fields=["organization", "start_date"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.start_date})"


class TimetableSession(TenantModel):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        CONFIRMED = "confirmed", "Confirmed"
        CANCELLED = "cancelled", "Cancelled"
        COMPLETED = "completed", "Completed"

    block_group = models.ForeignKey("planning.BlockGroup", on_delete=models.CASCADE, related_name="sessions")
    unit = models.ForeignKey("catalogue.Unit", on_delete=models.PROTECT, related_name="sessions")
    # A deleted teacher leaves their sessions unassigned.
    teacher = models.ForeignKey("staff.Teacher", on_delete=models.SET_NULL, related_name="sessions", null=True, blank=True)
    day_of_week = models.SmallIntegerField()  # 1 Monday .. 7 Sunday
    start_time = models.TimeField()
    end_time = models.TimeField()
    room = models.CharField(max_length=50, blank=True, default="")
    # The Room record the room text names (ADR 0019): set when the text matches a room's code; the text
    # then holds the room's code. A deleted room leaves the text.
    room_record = models.ForeignKey("catalogue.Room", on_delete=models.SET_NULL, related_name="sessions", null=True, blank=True)
    week_number = models.IntegerField(default=1)
    actual_date = models.DateField()
    term = models.SmallIntegerField(default=1)
    actual_hours = models.DecimalField(max_digits=4, decimal_places=2, default=Decimal("0"))
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    notes = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["actual_date", "start_time"]
        indexes = [
            models.Index(fields=["organization", "actual_date"], name="session_org_date"),
            models.Index(fields=["teacher", "actual_date"], name="session_teacher_date"),
            models.Index(fields=["block_group", "actual_date"], name="session_group_date"),
            models.Index(fields=["organization", "room", "actual_date"], name="session_room_date"),
            # Rooms clash case-insensitively: the conflict neighbourhood reads by LOWER(room) and date.
            models.Index(F("organization"), Lower("room"), F("actual_date"), name="session_room_lower_date"),
        ]

    def __str__(self) -> str:
        return f"{self.actual_date} {self.start_time}-{self.end_time}"

    @property
    def room_id(self) -> uuid.UUID | None:
        """``roomId`` of the API: the id of the Room record, or None for free text."""
        return self.room_record_id


class CalendarFeed(TenantModel):
    """A per-user secret iCalendar subscription URL for one teacher's, block group's or room's sessions.

    ``token`` is the secret in ``/api/calendar-feeds/{token}.ics`` (no session needed, so Outlook or
    Google Calendar can poll it). Revoking sets ``revoked_at``; a revoked token answers 404.
    Exactly one of ``teacher``, ``block_group`` and ``room`` is set.
    """

    history_tracked = False  # its token is a secret (not in the history)

    user = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="calendar_feeds")
    teacher = models.ForeignKey("staff.Teacher", on_delete=models.CASCADE, related_name="calendar_feeds", null=True, blank=True)
    block_group = models.ForeignKey(
        "planning.BlockGroup", on_delete=models.CASCADE, related_name="calendar_feeds", null=True, blank=True
    )
    room = models.ForeignKey(  # ADR 0019: a room's sessions
        "catalogue.Room", on_delete=models.CASCADE, related_name="calendar_feeds", null=True, blank=True
    )
    token = models.CharField(max_length=64, unique=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_accessed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]


class ReplanProposal(TenantModel):
    """A re-plan proposal as ``POST /api/replan/propose`` answered it (ADR 0015): ``POST /api/replan/apply``
    writes one of its options exactly, never what a request sends.

    ``change``: the change's fields as the request named them (``replan.replan_change``'s keyword arguments,
    ids and dates as text) and the scope (``blockGroupIds``, ``sessionIds``); ``version``: the digest of
    what it read (``replan._version``); ``options``: ``{key: {"writes": [[sessionId, actualDate,
    teacherId], ...]}}``, one per way of fixing the change (``makeUp``, ``shift``, ``reallocate``);
    ``preselected``: the key the review starts on. Kept a day (``replan.KEEP_PROPOSALS``).
    """

    history_tracked = False  # a working copy of a review, not a record: never in the history nor undone

    change = models.JSONField(default=dict)
    version = models.CharField(max_length=64)
    options = models.JSONField(default=dict)
    preselected = models.CharField(max_length=20)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["organization", "created_at"], name="replan_proposal_org_created")]
