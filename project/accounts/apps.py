from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "project.accounts"
    label = "accounts"
