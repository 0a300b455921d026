from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "project.history"
    label = "history"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the history's steps of the write unit (docs/adr/0028, 0012): the recorder of each
        write's activity (``project.core.changes.use_recorder``) and the capture of the rows it writes
        (``project.core.models.use_row_capture``). ``project.core`` imports no app."""
        from project.core.changes import use_recorder
        from project.core.models import use_row_capture
        from project.history import recording, tracking

        use_recorder(recording)
        use_row_capture(tracking)
