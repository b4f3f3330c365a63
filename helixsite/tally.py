"""Counts that calls add to and their answers do not depend on, summed in memory and written
together.

A search counts an access for each memory it returns (``memory.search.reinforce``) and every
tool call adds itself to its minute's usage row (``helixsite.agents.usage``). Written call by
call, their round trips ran beside the web process's next call and slowed it by a tenth
(docs/benchmarks.md). So while a web server runs (``buffer_start`` and ``buffer_stop``, from
its lifespan), each process sums them by key instead, and a thread of its own writes the sums
every ``HELIX_TALLY_SECONDS`` (a second), one transaction for each tally. The server's shutdown
writes what is left: a stop loses nothing, a process killed outright loses at most its last
interval of counts, never anything else. A write that fails keeps its sums for the next one.

Anywhere else (the test client, the MCP stdio server, the worker, a shell) a count is written
at once, within the call. Either way a count the database refuses never fails the call that
counts.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from django.db import DatabaseError, connections, transaction

logger = logging.getLogger(__name__)

K = TypeVar("K")
V = TypeVar("V")

# Sums a failing database leaves unwritten are kept for the next write up to this many keys
# per tally; past it the newest are dropped (and said so), so an outage cannot grow a process.
KEEP_UNWRITTEN = 100_000

_buffering = threading.Event()
_tallies: list[Tally] = []


class Tally(Generic[K, V]):
    """Values added by key and merged (``merge``) until ``write`` gets the sums: at once, or at
    the next flush while a web server buffers them."""

    def __init__(self, name: str, *, merge: Callable[[V, V], V], write: Callable[[dict[K, V]], object]) -> None:
        self.name = name
        self._merge = merge
        self._write = write
        self._sums: dict[K, V] = {}
        self._lock = threading.Lock()
        _tallies.append(self)

    def add(self, values: dict[K, V]) -> None:
        if not values:
            return
        with self._lock:  # the final flush takes this lock after buffering ends: no sum is left behind
            if _buffering.is_set():
                self._merge_in(values)
                return
        try:
            with transaction.atomic():  # a savepoint in a caller's transaction, which goes on
                self._write(values)
        except DatabaseError:
            logger.warning("could not write %d %s", len(values), self.name, exc_info=True)

    def flush(self) -> None:
        """Write the sums held; if the write fails, keep them for the next flush."""
        with self._lock:
            sums, self._sums = self._sums, {}
        if not sums:
            return
        try:
            self._write(sums)
        except Exception:
            logger.exception("could not write the %s (%d kept for the next try)", self.name, len(sums))
            with self._lock:
                self._merge_in(sums)

    def _merge_in(self, values: dict[K, V]) -> None:
        dropped = 0
        for key, value in values.items():
            held = self._sums.get(key)
            if held is not None:
                self._sums[key] = self._merge(held, value)
            elif len(self._sums) < KEEP_UNWRITTEN:
                self._sums[key] = value
            else:
                dropped += 1
        if dropped:
            logger.warning("dropped %d %s: %d are waiting to be written", dropped, self.name, len(self._sums))


def flush_all() -> None:
    """Write every tally's sums, on this thread's own connections (given back afterwards)."""
    try:
        for tally in _tallies:
            tally.flush()
    finally:
        for connection in connections.all(initialized_only=True):
            connection.close()  # back to the pool


class _Writer:
    """The thread that writes the sums every ``every`` seconds."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name="tally", daemon=True)

    def run(self) -> None:
        while not self.stop.wait(self.every):
            try:
                flush_all()
            except Exception:  # the next interval tries again: the thread must not end
                logger.exception("writing the counts failed")


_writer: _Writer | None = None


def buffer_start(*, every: float) -> None:
    """From now on (a web server's startup), counts are summed and written every ``every``
    seconds by a thread of their own."""
    global _writer
    if _writer is not None:
        return
    _writer = _Writer(every)
    _buffering.set()
    _writer.thread.start()


def buffer_stop() -> None:
    """Write what is summed and go back to writing each count at once (the server's shutdown)."""
    global _writer
    if _writer is None:
        return
    _writer.stop.set()
    _writer.thread.join()
    _writer = None
    _buffering.clear()
    flush_all()
