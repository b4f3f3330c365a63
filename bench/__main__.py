"""Run benchmarks by name: ``python -m bench`` runs them all, ``python -m bench embeddings`` one."""

from __future__ import annotations

import argparse
import os
import platform
import sys

BENCHMARKS = {
    "embeddings": "bench.embeddings",
    "add_memory": "bench.add_memory",
    "recall": "bench.recall",
    "search_latency": "bench.search_latency",
    "http_search": "bench.http_search",
    "room_pages": "bench.room_pages",
    "atlas": "bench.atlas",
    "locomo": "bench.locomo",
    "working_sessions": "bench.working_sessions",
    "export_import": "bench.export_import",
    "reembed": "bench.reembed",
    "documents": "bench.documents",
    "scale": "bench.scale",
    "cluster": "bench.cluster",
    "restore": "bench.restore",
    "compact": "bench.compact",
    "filters": "bench.filters",
    "conversation_race": "bench.conversation_race",
}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    args = parser.parse_args()
    unknown = [name for name in args.names if name not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "helixsite.settings.base")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    # The benchmarks' own database on the embedded server: an installation's memories stay untouched.
    os.environ.setdefault("HELIX_DB_NAME", "helixsite_bench")
    os.environ.setdefault("HELIX_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for name in args.names or BENCHMARKS:
        module = __import__(BENCHMARKS[name], fromlist=["run"])
        print(f"\n== {name}")
        module.run()
    sys.exit(0)


if __name__ == "__main__":
    main()
