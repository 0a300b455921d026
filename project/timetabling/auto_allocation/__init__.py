"""Automatic teacher allocation with OR-Tools CP-SAT, and ranked recommendations.

``auto_allocation_propose(ctx, scope, time_limit)`` assigns teachers to the unassigned, non-cancelled sessions of a
scope (session ids, a block group, or a date range) and answers a proposal; ``auto_allocation_apply`` writes
one all-or-nothing; ``auto_allocation_recommend(ctx, session_id)`` ranks every teacher of the organization for one
session with the rules met or broken.

Hard rules (a proposal never breaks one; checked independently by ``conflicts.detect`` in the tests):

- the teacher holds a qualification for the session's unit;
- the teacher is active, and within contract (a fixed-term teacher's ``expiryDate`` is on or after
  the session date);
- the teacher is not on leave at the session's time (ADR 0014; ``teacher_on_leave``);
- the teacher is available (a day-only teacher takes no evening session, an evening-only teacher no
  day session; evening = starts at or after 17:00 or ends after 17:00, ``conflicts.is_evening``);
- with a painted availability pattern (ADR 0027), the session lies inside the teacher's windows of its
  date and outside their prohibited preferences, at a campus they teach at, within their hours a day, hours
  a week and days a week (``teacher_outside_availability``, ``teacher_other_campus`` and the limits);
- the teacher is never in two overlapping sessions, existing ones included, unless both sessions'
  block groups are in one linked group (co-delivered);
- the teacher's hours in every week (Monday to Sunday) stay within ``maxWeeklyHours`` (each session's
  ``actualHours`` counts; co-delivered sessions are not merged, which can only under-fill a week).

Soft goals, in priority order (weights make the order strict):

1. allocate as many sessions as possible;
2. continuity: one teacher for all sessions of a unit in a block group (a teacher who already teaches
   that unit to that group costs nothing);
3. balance: the lowest highest weekly utilisation (percent of ``maxWeeklyHours``);
4. preferences and the least spread, weighed together: each assignment costs its teacher's preference
   weight for the session's time and campus (UniTime's scale, shifted so the session's most wanted
   teacher costs 0) times ``PREFERENCE_WEIGHT``, plus one per (teacher, day) pair used, so a teacher's
   classes sit on fewer days and in the times they prefer (ADR 0027). ``preferenceScore`` in the figures
   is the sum of the weights of the allocated sessions (lower is better).

The solve has a time limit (default 8 s, at most 30 s) and stops before it when it is done (ADR 0013):
at optimality, or when allocation and continuity have not improved for
``SETTLE_SECONDS`` (3 s) once the search has run ``SETTLE_AFTER_SECONDS`` (2 s). The best solution found
is returned with the solver status (OPTIMAL or FEASIBLE). A greedy pass seeds the solver with a hint so a
feasible answer exists from the start.

Staleness: a proposal carries ``version``, a digest of the sessions of the organization in the
scope's weeks (ids, teachers, update times) and of the teachers and qualifications. Applying a
proposal whose version no longer matches raises ``StaleWrite`` (412) and writes nothing.
"""

from project.timetabling.auto_allocation.figures import (
    figures,
)
from project.timetabling.auto_allocation.loading import (
    _eligibility,
    _version,
    can_teach,
    load_problem,
    reallocation_problem,
)
from project.timetabling.auto_allocation.model import (
    CENTI,
    DEFAULT_TIME_LIMIT,
    MAX_RANGE_DAYS,
    MAX_TIME_LIMIT,
    SETTLE_AFTER_SECONDS,
    SETTLE_SECONDS,
    Problem,
    Scope,
)
from project.timetabling.auto_allocation.selectors import (
    auto_allocation_recommend,
)
from project.timetabling.auto_allocation.services import (
    auto_allocation_apply,
    auto_allocation_propose,
)
from project.timetabling.auto_allocation.solving import (
    Solution,
    solve,
)

__all__ = [
    "CENTI",
    "DEFAULT_TIME_LIMIT",
    "MAX_RANGE_DAYS",
    "MAX_TIME_LIMIT",
    "Problem",
    "SETTLE_AFTER_SECONDS",
    "SETTLE_SECONDS",
    "Scope",
    "Solution",
    "_eligibility",
    "_version",
    "auto_allocation_apply",
    "can_teach",
    "figures",
    "load_problem",
    "auto_allocation_propose",
    "reallocation_problem",
    "auto_allocation_recommend",
    "solve",
]
