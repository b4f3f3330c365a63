from django.apps import AppConfig


class CategoriesConfig(AppConfig):
    name = "memory.categories"
    label = "categories"
    verbose_name = "Categories: the tree memories are filed under, and the atlas"
