"""Local embedding latency (one text, as a query) and throughput (batches, as an import)."""

from __future__ import annotations

import time

from bench.timing import percentiles, sample_ms
from memory.providers import get_embedder

SENTENCES = [
    "I moved to Berlin last month and started a new job at a robotics company.",
    "My favourite editor is Neovim, but I use VS Code for notebooks.",
    "The deploy failed with error E1203 in /srv/app/config/settings.yaml.",
    "We decided to postpone the launch to next April because of the audit.",
]


def run() -> None:
    embedder = get_embedder()
    started = time.perf_counter()
    embedder.embed(["warm up"], purpose="bench")
    runtime = getattr(embedder, "runtime", None)  # the local model's: onnxruntime or pytorch
    print(f"model load + first call: {(time.perf_counter() - started) * 1000:.0f} ms ({runtime or embedder.provider})")

    single = sample_ms(lambda: embedder.embed([SENTENCES[0]], purpose="bench"), runs=200)
    print(f"one sentence (query path): {percentiles(single)} ms")

    three = sample_ms(lambda: embedder.embed(SENTENCES[:3], purpose="bench"), runs=100)
    print(f"three sentences in one batch (a 3-fact message): {percentiles(three)} ms")

    corpus = [f"{SENTENCES[i % 4]} (note {i})" for i in range(2048)]
    started = time.perf_counter()
    embedder.embed(corpus, purpose="bench")
    elapsed = time.perf_counter() - started
    print(f"bulk: {len(corpus)} texts in {elapsed:.2f} s = {len(corpus) / elapsed:.0f} texts/s")
