from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "memory.outbox"
    label = "outbox"
    verbose_name = "Outbox: buffered writes and notices"
