from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    name = "project.catalogue"
    label = "catalogue"
