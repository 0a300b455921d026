"""What a re-plan changes (:class:`Change`) and the rows its proposal answers (:func:`change_row`,
:func:`unresolved_row`), shared by ``project.timetabling.replan.services`` and the moves of this package.

They live here, below both, so that the moves never import ``replan`` (the import graph has no cycle;
docs/engineering.md, "Boundaries")."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, time

from project.timetabling import conflicts as cf


@dataclass
class Change:
    """What is changing: closed ``spans`` (inclusive date pairs) or one teacher's leave."""

    kind: str
    description: str
    spans: list[tuple[date, date]] = field(default_factory=list)
    campus_id: object | None = None
    teacher_id: object | None = None
    leave: cf.LeaveSpan | None = None
    params: dict = field(default_factory=dict)  # the fields that named it, as the API spells them (JSON)

    @property
    def start(self) -> date:
        return min(s for s, _ in self.spans)

    @property
    def end(self) -> date:
        return max(e for _, e in self.spans)


def hms(t: time | None) -> str | None:
    """A time as ``"HH:MM:SS"`` (``None`` stays ``None``)."""
    return None if t is None else t.strftime("%H:%M:%S")


def unresolved_row(s: dict, unit_code: str, reason: str) -> dict:
    """A hit session left where it is, with ``reason``: a row of a proposal's ``unresolved``."""
    return {
        "sessionId": s["id"],
        "blockGroupCode": s["blockGroupCode"],
        "unitCode": unit_code,
        "actualDate": s["actualDate"],
        "startTime": hms(s["startTime"]),
        "endTime": hms(s["endTime"]),
        "reason": reason,
    }


def change_row(s: dict, unit_code: str, reason: str, *, day: date, teacher_id: object, teacher_name: str) -> dict:
    """A hit session moved to ``day`` (and ``teacher_id``): a row of a proposal's ``changes``, times as ``"HH:MM:SS"``."""
    return {
        "sessionId": s["id"],
        "blockGroupId": s["blockGroupId"],
        "blockGroupCode": s["blockGroupCode"],
        "unitCode": unit_code,
        "reason": reason,
        "actualHours": float(s["actualHours"] or 0),
        "from": {
            "actualDate": s["actualDate"],
            "startTime": hms(s["startTime"]),
            "endTime": hms(s["endTime"]),
            "teacherId": s["teacherId"],
            "teacherName": s["teacherName"],
        },
        "to": {
            "actualDate": day,
            "startTime": hms(s["startTime"]),
            "endTime": hms(s["endTime"]),
            "teacherId": teacher_id,
            "teacherName": teacher_name,
        },
    }
