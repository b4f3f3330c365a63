from django.apps import AppConfig


class AgentsConfig(AppConfig):
    """The agent surface: REST and MCP over the tool catalogue. It has no models; it is an app
    so that ``manage.py mcp`` is found."""

    name = "helixsite.agents"
    label = "agents"
    verbose_name = "Agent surface"
