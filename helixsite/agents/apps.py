from django.apps import AppConfig


class AgentsConfig(AppConfig):
    """The agent surface: REST and MCP over the tool catalogue, the budgets and call counts they
    keep, and the read positions of read replicas (``helixsite.db.replicas``)."""

    name = "helixsite.agents"
    label = "agents"
    verbose_name = "Agent surface"

    def ready(self) -> None:
        from helixsite.db import replicas

        if replicas.replica_aliases():
            replicas.watch_access()
