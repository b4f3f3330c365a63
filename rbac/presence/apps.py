from django.apps import AppConfig


class PresenceConfig(AppConfig):
    name = "rbac.presence"
    label = "presence"
    verbose_name = "Agent presence"
