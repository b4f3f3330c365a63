from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from helixsite.catalogue import tool_classes
from rbac.api import WhoAmIApi

api_v1 = [path("whoami", WhoAmIApi.as_view(), name="whoami")] + [
    path(tool.tool, tool.as_view(), name=tool.tool) for tool in tool_classes()
]

urlpatterns = [
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("", include("stewardship.urls")),
]
