"""The runtime configuration layer: defaults ← patches stored in the database ← environment.

A foundation every app may read through ``django.conf.settings`` as before: each process
re-reads the stored version number at most every ``HELIX_CONFIG_CHECK_SECONDS`` and, when it
moved, writes the patched values onto its settings (``reload``)."""
