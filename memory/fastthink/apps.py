from django.apps import AppConfig


class FastThinkConfig(AppConfig):
    name = "memory.fastthink"
    label = "fastthink"
    verbose_name = "FastThink"
