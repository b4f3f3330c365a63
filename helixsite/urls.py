from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from rbac.login import AdminLoginForm, refused_login_answers_429

# The admin's login within the budget of failed logins: the admin's own view with the throttled
# form, answering 429 when it refuses (this path is matched before the one in admin.site.urls).
admin.site.login_form = AdminLoginForm

# A 404 in the room is a page of the room (for a global admin); elsewhere Django's own.
handler404 = "stewardship.pages.not_found.page_not_found"
handler500 = "helixsite.errors.server_error"

urlpatterns = [
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
    path("admin/login/", refused_login_answers_429(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/v1/", include("helixsite.agents.urls")),
    path("mem0/", include("helixsite.mem0.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI's start-up script comes from its own URL (?script), not inline: the page keeps the CSP.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("", include("stewardship.urls")),
]
