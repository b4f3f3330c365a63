#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "helixsite.settings.base")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 - reading a setting loads them all, and validates them
    except ImproperlyConfigured as exc:
        sys.exit(f"Configuration error: {exc}")
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
