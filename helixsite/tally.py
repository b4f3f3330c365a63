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
        self._failures = 0  # flushes failed in a row
        self._dropped = 0  # values dropped since the last write that went through
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
        except DatabaseError as exc:
            logger.warning("could not write %d %s: %s", len(values), self.name, exc)

    def flush(self) -> None:
        """Write the sums held; if the write fails, keep them for the next flush. While the
        database is out of reach that is every flush: said once when it starts, once when the
        sums are written again."""
        with self._lock:
            sums, self._sums = self._sums, {}
        if not sums:
            return
        try:
            self._write(sums)
        except Exception as exc:
            with self._lock:
                self._merge_in(sums)
            self._failed(exc, len(sums))
            return
        if self._failures:
            logger.info("wrote the %s after %d failed tries (%d dropped)", self.name, self._failures, self._dropped)
            self._failures = self._dropped = 0

    def _failed(self, exc: Exception, kept: int) -> None:
        self._failures += 1
        if not isinstance(exc, DatabaseError):  # not the database's doing: every time, in full
            logger.error("could not write the %s (%d kept for the next try)", self.name, kept, exc_info=exc)
        elif self._failures == 1:
            logger.warning("could not write the %s (%d kept for the next try): %s", self.name, kept, exc)

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
        if dropped and not self._dropped:  # once until a write goes through: an outage must not flood the log
            logger.warning("dropping %s: %d are waiting to be written", self.name, len(self._sums))
        self._dropped += dropped


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
