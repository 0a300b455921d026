from django.apps import AppConfig


class TimetablingConfig(AppConfig):
    name = "project.timetabling"
    label = "timetabling"

    def ready(self) -> None:
        """Register the routing details of ``timetable_session`` change events (``campusIds``, ``sessions``,
        ``before``) with the write unit (docs/adr/0028)."""
        from project.core.changes import use_routing
        from project.timetabling.routing import session_routing, sessions_before

        use_routing("timetable_session", session_routing, sessions_before)
