from django.apps import AppConfig


class CharterConfig(AppConfig):
    name = "charter"
    verbose_name = "Charter: contradiction reviews and learned rules"
