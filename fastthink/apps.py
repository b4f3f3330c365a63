from django.apps import AppConfig


class FastThinkConfig(AppConfig):
    name = "fastthink"
    verbose_name = "FastThink"
