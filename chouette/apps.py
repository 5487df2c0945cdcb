from django.apps import AppConfig


class ChouetteConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chouette"
