from django.apps import AppConfig


class RealtimeConfig(AppConfig):
    name = "realtime"
    label = "realtime"

    def ready(self) -> None:
        """Register this app's channel layer as the write unit's transport (docs/adr/0028) and as the
        sender of socket control messages (``project.core.sockets``): the project's apps import nothing
        of ``realtime``."""
        from project.core.changes import use_transport
        from project.core.sockets import use_sender
        from realtime.events import send_change, send_to_group

        use_transport(send_change)
        use_sender(send_to_group)
