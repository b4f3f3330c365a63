from django.apps import AppConfig


class RuntimeConfig(AppConfig):
    name = "helixsite.runtime"
    label = "runtime"
    verbose_name = "Runtime configuration"

    def ready(self) -> None:
        from django_q.signals import pre_execute

        from helixsite.runtime import reload

        reload.startup_values_keep()
        # A queue worker picks the applied configuration up before each task it runs.
        pre_execute.connect(reload.refresh_before_task, dispatch_uid="runtime-refresh-before-task")
