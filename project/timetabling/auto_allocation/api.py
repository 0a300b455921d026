"""Auto-allocation and recommendations: thin router over ``auto_allocation``."""

from __future__ import annotations

from uuid import UUID

from project.core.auth import AuthedRequest
from project.core.routers import make_router
from project.timetabling import auto_allocation as aa
from project.timetabling.auto_allocation.schemas import (
    AutoAllocateIn,
    AutoAllocateOut,
    RecommendationsOut,
)

router = make_router(tags=["auto-allocation"])
# The module this router was published from: its OpenAPI operation ids stay (docs/adr/0030).
OPERATION_ID_MODULE = "project.timetabling.auto_allocation_api"


@router.post("/timetables/auto-allocate", response=AutoAllocateOut)
def auto_allocate(request: AuthedRequest, payload: AutoAllocateIn) -> dict[str, object]:
    """Propose (``apply`` false) or write (``apply`` true) teacher allocations for a scope.

    Scope: ``sessionIds``, or ``blockGroupId``, or ``start`` and ``end`` (dates, inclusive; at most
    400 days); only unassigned, non-cancelled sessions are allocated. With ``apply`` and the
    ``assignments`` and ``version`` of an earlier proposal, that proposal is written all-or-nothing
    (412 ``stale`` when the timetable changed since). Errors: 400 validation, 404 unknown session.
    Answer: assignments, unassignable sessions with reasons, per-teacher load, before/after figures
    (continuity %, highest and mean weekly utilisation %), solver status and time in ms.
    """
    ctx = request.auth
    scope = aa.Scope(payload.session_ids, payload.block_group_id, payload.start, payload.end)
    limit = payload.time_limit_seconds or aa.DEFAULT_TIME_LIMIT
    if not payload.apply:
        return aa.auto_allocation_propose(ctx, scope, time_limit=limit)
    pairs = None if payload.assignments is None else [(a.session_id, a.teacher_id) for a in payload.assignments]
    return aa.auto_allocation_apply(ctx, scope, version=payload.version, assignments=pairs, time_limit=limit)


@router.get("/timetables/{uuid:session_id}/recommendations", response=RecommendationsOut)
def recommendations(request: AuthedRequest, session_id: UUID) -> dict[str, object]:
    """Every teacher ranked for one session with the rules met or broken (404 for an unknown session)."""
    return aa.auto_allocation_recommend(request.auth, session_id)
