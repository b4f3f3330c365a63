from django.urls import path

from stewardship import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
]
