"""What a long-lived server process (a web worker, the MCP server over stdio) does once it has
loaded everything it serves with, before its first call."""

from __future__ import annotations

import gc


def startup_frozen() -> None:
    """Move what the process holds now out of the cyclic collector's passes. Django, the URL and
    middleware chains, the tool catalogue and the model's Python side live as long as the process
    (about 250,000 objects in a web worker); a full collection, which a busy worker runs every few
    hundred calls, read them all and held that call 138 ms, against 2.6 ms with them frozen
    (docs/benchmarks.md). Startup's own garbage is collected first, so none of it is kept."""
    gc.collect()
    gc.freeze()
