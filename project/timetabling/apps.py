from django.apps import AppConfig


class TimetablingConfig(AppConfig):
    name = "project.timetabling"
    label = "timetabling"

    def ready(self) -> None:
        """Register the routing details of ``timetable_session`` change events (``campusIds``, ``sessions``,
                ``before``) and their ``rows`` with the write unit (docs/adr/0028, 0032), and the keys such an event
        touched with the kept answers (ADR 0034)."""
        from project.core.changes import use_routing
        from project.core.response_cache import use_touched
        from project.timetabling.kept import session_change_keys
        from project.timetabling.routing import session_event_rows, session_routing, sessions_before

        use_routing("timetable_session", session_routing, sessions_before, session_event_rows)
        use_touched("timetable_session", session_change_keys)  # what kept timetables a change touched (ADR 0034)
