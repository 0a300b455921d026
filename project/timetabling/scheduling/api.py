"""Schedule generation's router: ``POST`` and ``DELETE /api/block-groups/{id}/schedule`` (thin: parse,
call :mod:`project.timetabling.scheduling.services`, answer camelCase)."""

from __future__ import annotations

from project.core.auth import AuthedRequest
from project.core.routers import make_router
from project.core.schemas import ErrorOut
from project.timetabling.scheduling import services as scheduling_services
from project.timetabling.scheduling.schemas import ScheduleClearedOut, ScheduleIn, ScheduleOut

router = make_router(tags=["timetabling"])
# The module this router was published from: its OpenAPI operation ids stay (docs/adr/0030).
OPERATION_ID_MODULE = "project.timetabling.api"
ERRORS = {400: ErrorOut, 404: ErrorOut}


# ------------------------------------------------------------------------------------ schedule


@router.post("/block-groups/{uuid:block_group_id}/schedule", response={200: ScheduleOut, **ERRORS})
def schedule_block_group(request: AuthedRequest, block_group_id: str, payload: ScheduleIn) -> dict[str, object]:
    """Generate the group's sessions from its study plans (docs/behaviour/generation.md).

    Body: {sessionTemplates: [{startTime, endTime, duration (hours)}], startDate?, room?, notes?,
    startNextUnitInNewWeek?}. Answer: {sessionsCreated, hoursScheduled, startDate, endDate,
    lastTeachingDate, unitsScheduled, holidaysSkipped: [{date, name}], warnings: [str]}.
    400: not planned/active, no study plan, no preferred day, template errors, longer than 3 years.
    """
    return scheduling_services.block_group_schedule(ctx=request.auth, block_group_id=block_group_id, data=payload)


@router.delete("/block-groups/{uuid:block_group_id}/schedule", response={200: ScheduleClearedOut, **ERRORS})
def clear_block_group_schedule(request: AuthedRequest, block_group_id: str) -> dict[str, object]:
    """Delete the group's sessions that are not completed; answers {sessionsDeleted, message}."""
    count = scheduling_services.block_group_schedule_clear(ctx=request.auth, block_group_id=block_group_id)
    return {"sessions_deleted": count, "message": f"{count} session(s) deleted"}
