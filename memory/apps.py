from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Memory"

    def ready(self) -> None:
        from helixsite.runtime.reload import config_changed
        from memory.providers import providers_follow_config

        config_changed.connect(providers_follow_config, dispatch_uid="memory-providers-follow-config")
