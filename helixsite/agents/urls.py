"""The REST wiring: ``/api/v1/whoami`` and one endpoint per catalogued tool, ``/api/v1/<tool>``."""

from django.urls import path

from helixsite.agents.catalogue import tool_classes
from rbac.api import WhoAmIApi

urlpatterns = [path("whoami", WhoAmIApi.as_view(), name="whoami")] + [
    path(tool.tool, tool.as_view(), name=tool.tool) for tool in tool_classes()
]
