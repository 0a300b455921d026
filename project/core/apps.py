from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "project.core"
    label = "core"
