from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "project.history"
    label = "history"
    default_auto_field = "django.db.models.BigAutoField"
