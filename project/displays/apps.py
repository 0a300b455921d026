from django.apps import AppConfig


class DisplaysConfig(AppConfig):
    name = "project.displays"
    label = "displays"
