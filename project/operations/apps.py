from django.apps import AppConfig


class OperationsConfig(AppConfig):
    name = "project.operations"
    label = "operations"

    def ready(self) -> None:
        from project.operations import logs, mail  # noqa: F401 — mail registers its deploy check

        logs.configure()
