from django.apps import AppConfig


class TimetablingConfig(AppConfig):
    name = "project.timetabling"
    label = "timetabling"

    def ready(self) -> None:
        """Register the routing details of ``timetable_session`` change events (``campusIds``, ``sessions``,
        ``before``) and their ``rows`` with the write unit (docs/adr/0028, 0032)."""
        from project.core.changes import use_routing
        from project.timetabling.routing import session_event_rows, session_routing, sessions_before

        use_routing("timetable_session", session_routing, sessions_before, session_event_rows)
