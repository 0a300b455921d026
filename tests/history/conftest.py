"""Fixtures of the history tests."""

from tests.timetabling.conftest import plan_group  # noqa: F401 — the scheduled group fixture, shared
