from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Memory"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from helixsite.runtime.reload import config_changed
        from memory.providers import providers_follow_config
        from memory.search.kinds import kind_lexicon_sync

        config_changed.connect(providers_follow_config, dispatch_uid="memory-providers-follow-config")
        # The kinds each memory names, read again when the lexicon changed (memory.search.kinds).
        post_migrate.connect(kind_lexicon_sync, sender=self, dispatch_uid="memory-kind-lexicon-sync")
