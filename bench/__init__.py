"""Benchmarks: `make bench` (or `python -m bench NAME ...`). Results go in docs/benchmarks.md."""
