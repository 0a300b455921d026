from django.apps import AppConfig


class TimetablingConfig(AppConfig):
    name = "project.timetabling"
    label = "timetabling"
