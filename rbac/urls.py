from django.urls import path

from rbac import api

urlpatterns = [
    path("whoami", api.WhoAmIApi.as_view(), name="whoami"),
]
