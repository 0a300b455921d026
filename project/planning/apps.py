from django.apps import AppConfig


class PlanningConfig(AppConfig):
    name = "project.planning"
    label = "planning"
