from django.apps import AppConfig


class ReportingConfig(AppConfig):
    name = "project.reporting"
    label = "reporting"
