from django.urls import path

from rbac import api

urlpatterns = [
    path("whoami", api.WhoAmIApi.as_view(), name="whoami"),
    path("enroll_client", api.EnrollClientApi.as_view(), name="enroll_client"),
    path("list_users", api.ListUsersApi.as_view(), name="list_users"),
]
