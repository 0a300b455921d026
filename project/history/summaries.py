"""The words of an activity's one-line summary: what each entity and action is called, and the summary
of a write ("Ann Admin created a course", "Jordan Lee allocated 12 sessions"). Plain functions with no
imports of the project, so that row capture (``tracking``), recording (``recording``) and reads
(``selectors``) can all use them without an import cycle."""

from __future__ import annotations

ENTITY_LABELS = {
    "course": ("course", "courses"),
    "unit": ("unit of competency", "units of competency"),
    "study_plan": ("study plan", "study plans"),
    "study_plan_unit": ("study plan unit", "study plan units"),
    "campus": ("campus", "campuses"),
    "block_group": ("block group", "block groups"),
    "block_group_study_plan": ("block group study plan", "block group study plans"),
    "linked_block_group": ("linked block group", "linked block groups"),
    "teacher": ("teacher", "teachers"),
    "teacher_unit": ("teacher qualification", "teacher qualifications"),
    "teacher_leave": ("leave period", "leave periods"),
    "timetable_session": ("session", "sessions"),
    "holiday": ("holiday", "holidays"),
    "organization": ("organization", "organizations"),
    "user": ("user", "users"),
    "display_link": ("display link", "display links"),
    "room": ("room", "rooms"),
}
ACTION_VERBS = {
    "created": "created",
    "updated": "updated",
    "deleted": "deleted",
    "allocated": "allocated",
    "imported": "imported",
    "replanned": "re-planned",
    "signed_in": "signed in",
}


def summary_of(label: str, entity: str, action: str, ids: list[str]) -> str:
    """A one-line human summary, e.g. "Jordan Lee allocated 12 sessions" or "Ann Admin created a course"."""
    one, many = ENTITY_LABELS.get(entity, (entity.replace("_", " "), entity.replace("_", " ") + "s"))
    if entity == "timetable_session" and action == "scheduled":
        return f"{label} generated the schedule of a block group"
    if entity == "timetable_session" and action == "schedule_cleared":
        return f"{label} cleared the schedule of a block group"
    verb = ACTION_VERBS.get(action, action.replace("_", " "))
    n = len(ids)
    what = (f"an {one}" if one[0] in "aeiou" else f"a {one}") if n == 1 else f"{n} {many}"
    return f"{label} {verb} {what}"[:300]
