from django.apps import AppConfig


class StaffConfig(AppConfig):
    name = "project.staff"
    label = "staff"
