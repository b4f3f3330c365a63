"""Test settings: the base settings with speed knobs turned."""

from helixsite.settings.base import *  # noqa: F403
from helixsite.settings.base import DATABASES, Q_CLUSTER

# Fast hashing for test users; production keeps Django's PBKDF2 default.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Background tasks run inline, except in tests that start a real worker.
Q_CLUSTER = {**Q_CLUSTER, "sync": True}
# A pool per test database would outlive its database; tests connect directly.
DATABASES["default"]["OPTIONS"].pop("pool", None)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve static files from the app folders; tests never run collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Patches reach a test's own process only when it asks (runtime_refresh); servers a test starts
# use the base settings and reload by themselves.
HELIX_CONFIG_RELOAD = False
# Profiles are condensed by an LLM only in the tests that ask: the other LLM tests script every
# call the server makes, and a profile refresh after each write would take their answers.
HELIX_PROFILE_LLM = False
