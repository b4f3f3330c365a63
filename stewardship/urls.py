from django.urls import include, path

from stewardship import views
from stewardship.pages import audit, observatory, sessions

room = (
    [
        path("", observatory.observatory, name="observatory"),
        path("login/", sessions.LoginView.as_view(), name="login"),
        path("logout/", sessions.LogoutView.as_view(), name="logout"),
        path("audit/", audit.audit, name="audit"),
    ],
    "steward",
)

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("steward/", include(room)),
]
