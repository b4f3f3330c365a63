"""mem0's paths under ``/mem0/`` (the client's ``host``), and the same under
``/mem0/w/<workspace>/``, whose adds write to that workspace."""

from django.urls import include, path, re_path

from helixsite.mem0 import views

endpoints = [
    path("v1/ping/", views.PingApi.as_view(), name="mem0-ping"),
    path("v3/memories/add/", views.AddApi.as_view(), name="mem0-add"),
    path("v3/memories/search/", views.SearchApi.as_view(), name="mem0-search"),
    path("v3/memories/", views.MemoriesApi.as_view(), name="mem0-memories"),
    path("v1/memories/", views.DeleteAllApi.as_view(), name="mem0-delete-all"),
    path("v1/memories/<str:memory_id>/", views.MemoryApi.as_view(), name="mem0-memory"),
    path("v1/memories/<str:memory_id>/history/", views.HistoryApi.as_view(), name="mem0-history"),
    path("v1/entities/", views.EntitiesApi.as_view(), name="mem0-entities"),
    path("v1/entities/<str:kind>/<str:name>/", views.EntityApi.as_view(), name="mem0-entity-v1"),
    path("v1/batch/", views.BatchApi.as_view(), name="mem0-batch"),
    path("v2/entities/<str:kind>/<str:name>/", views.EntityApi.as_view(), name="mem0-entity"),
    path("v2/entities/user/<str:user_id>/profile/", views.ProfileApi.as_view(), name="mem0-profile"),
]
not_offered = re_path(r"^.*$", views.NotOfferedApi.as_view(), name="mem0-not-offered")

urlpatterns = [
    path("w/<str:workspace>/", include([*endpoints, not_offered])),
    path("", include([*endpoints, not_offered])),
]
