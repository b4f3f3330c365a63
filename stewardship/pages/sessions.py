"""Logging in to and out of the room: Django's session views with the room's own templates."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import reverse_lazy


class LoginView(auth_views.LoginView):
    template_name = "stewardship/login.html"
    redirect_authenticated_user = False
    next_page = reverse_lazy("steward:observatory")


class LogoutView(auth_views.LogoutView):
    next_page = reverse_lazy("steward:login")
