from django.apps import AppConfig


class PlanningConfig(AppConfig):
    name = "project.planning"
    label = "planning"

    def ready(self) -> None:
        """Register the routing details of ``block_group`` change events with the write unit (docs/adr/0028)."""
        from project.core.changes import use_routing
        from project.planning.routing import block_group_routing

        use_routing("block_group", block_group_routing)
