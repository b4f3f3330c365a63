"""The hybrid's own parts as plain rankings over the same texts: Okapi BM25 and cosine similarity with
the installation's embedder, each on its own, with none of the server's fusion, graph or scoring.

A benchmark ranks every question against them beside the server's answer: the hybrid must never
rank below the better of its parts. BM25 here is the textbook one (k1 1.2, b 0.75, Robertson's
idf with the +1 that keeps it positive) over lowercase words, a short list of English function
words left out; the server's BM25 differs (fields, query calibration), which is the point of a
baseline.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from memory.providers import get_embedder

K1 = 1.2
B = 0.75
# Function words that carry no topic: a question's "what did she do" matches every turn otherwise.
STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "did", "do", "does", "for", "from", "had",
    "has", "have", "he", "her", "him", "his", "how", "i", "if", "in", "is", "it", "its", "me", "my", "of", "on",
    "or", "our", "she", "so", "that", "the", "their", "them", "they", "this", "to", "was", "we", "were", "what",
    "when", "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your",
})  # fmt: skip
# A word is a run of letters or digits (an apostrophe inside it kept: "don't", "Caroline's").
# Each character is read once: a run never restarts inside another.
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def words(text: str) -> list[str]:
    """The lowercase words of ``text`` that are not function words."""
    return [w for w in WORD.findall(text.lower()) if w not in STOPWORDS]


class Bm25:
    """Okapi BM25 over ``documents``, counted once; ``ranking`` for each query."""

    def __init__(self, documents: Sequence[str]) -> None:
        self.counts = [Counter(words(d)) for d in documents]
        self.lengths = [sum(c.values()) for c in self.counts]
        self.average = (sum(self.lengths) / len(self.lengths) if self.lengths else 0.0) or 1.0
        self.frequency = Counter(w for c in self.counts for w in c)

    def ranking(self, query: str, *, limit: int = 10) -> list[int]:
        """The indexes of the ``limit`` documents scoring highest for ``query``, best first; a
        document sharing no word with the query is not ranked; ties keep the documents' order."""
        scores: dict[int, float] = {}
        total = len(self.counts)
        for term in set(words(query)):
            n = self.frequency.get(term, 0)
            if not n:
                continue
            idf = math.log(1 + (total - n + 0.5) / (n + 0.5))
            for index, counts in enumerate(self.counts):
                tf = counts.get(term, 0)
                if tf:
                    norm = K1 * (1 - B + B * self.lengths[index] / self.average)
                    scores[index] = scores.get(index, 0.0) + idf * tf * (K1 + 1) / (tf + norm)
        return sorted(scores, key=lambda i: (-scores[i], i))[:limit]


def cosine_ranking(vectors: np.ndarray, query: np.ndarray, *, limit: int = 10) -> list[int]:
    """The indexes of the ``limit`` rows of ``vectors`` closest to ``query`` by cosine, best first."""
    if not len(vectors):
        return []
    rows = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    similarity = rows @ (query / max(float(np.linalg.norm(query)), 1e-12))
    return [int(i) for i in np.argsort(-similarity, kind="stable")[:limit]]


def embedded(texts: Sequence[str]) -> np.ndarray:
    """``texts`` embedded as the server embeds what it stores and what it is asked: the installation's
    embedder, the texts as they are."""
    return np.asarray(get_embedder().embed(list(texts), purpose="bench"), dtype=np.float32)
