"""Ninja schemas of the Excel import: its answer."""

from __future__ import annotations

from project.core.schemas import CamelSchema


class ImportStats(CamelSchema):
    sessions_created: int
    block_groups_created: list[str]
    units_created: list[str]


class ImportOut(CamelSchema):
    message: str
    stats: ImportStats
