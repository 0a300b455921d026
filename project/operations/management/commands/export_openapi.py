"""Print the OpenAPI schema of /api/ as JSON (the SPA's typed client is generated from it)."""

import json

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Print the OpenAPI schema as JSON"

    def handle(self, *args: object, **options: object) -> None:
        from project.api import api

        schema = api.get_openapi_schema()
        self.stdout.write(json.dumps(schema, indent=2, sort_keys=True))
