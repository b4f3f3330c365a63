from django.apps import AppConfig


class StewardshipConfig(AppConfig):
    name = "stewardship"
    verbose_name = "Stewardship"
