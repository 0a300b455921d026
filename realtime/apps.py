from django.apps import AppConfig


class RealtimeConfig(AppConfig):
    name = "realtime"
    label = "realtime"

    def ready(self) -> None:
        """Register this app's channel layer as the write unit's transport (docs/adr/0028): the project
        imports nothing of ``realtime`` to send its change events."""
        from project.core.changes import use_transport
        from realtime.events import send_change

        use_transport(send_change)
