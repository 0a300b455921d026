from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "project.accounts"
    label = "accounts"

    def ready(self) -> None:
        from project.accounts import (
            access,  # noqa: F401 — connects the save hooks that end or re-scope access
            lockout,  # noqa: F401 — connects the device-cookie signal receivers
        )
