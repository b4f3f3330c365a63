from django.apps import AppConfig


class VaultConfig(AppConfig):
    name = "stewardship.vault"
    label = "vault"
    verbose_name = "Backup vault"

    def ready(self) -> None:
        from django_q.signals import pre_execute

        from helixsite import restore_marker

        # A queue worker lives across a restore: before each task it drops what it cached of
        # the database it had (content-type ids), as the web workers do before each request.
        pre_execute.connect(restore_marker.forget_if_restored, dispatch_uid="vault-forget-if-restored")
