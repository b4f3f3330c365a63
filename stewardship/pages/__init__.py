"""The control room's pages, one module a page (``/steward/…``); every view is ``steward_only``."""
