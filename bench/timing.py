"""Latency sampling and the percentiles reported in docs/benchmarks.md."""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable


def sample_ms(operation: Callable[[], object], *, runs: int, warmup: int = 3) -> list[float]:
    for _ in range(warmup):
        operation()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        operation()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 2),
        "max": round(ordered[-1], 2),
    }


def concurrently(clients: int, client: Callable[[int], object]) -> float:
    """``client(0)`` … ``client(clients - 1)`` on threads at once: seconds until the last is done."""
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started
