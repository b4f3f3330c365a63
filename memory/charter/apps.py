from django.apps import AppConfig


class CharterConfig(AppConfig):
    name = "memory.charter"
    label = "charter"
    verbose_name = "Charter: contradiction reviews and learned rules"
