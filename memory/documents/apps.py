from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "memory.documents"
    label = "documents"
    verbose_name = "Documents: source texts, their chunks and the citations that point into them"
