"""A small real embedder for the tests: hashed word vectors with a few shared meanings.

Each word has a fixed pseudo-random vector (seeded by a digest of the word); a handful of
words share one meaning ("plot" and "graph" embed as "chart"), which is what lets an embedder
find a tool no keyword reaches. Deterministic, offline, and counted.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np
import numpy.typing as npt

DIMENSIONS = 64
MEANINGS = {
    "plot": "chart",
    "graph": "chart",
    "diagram": "chart",
    "supper": "table",
    "dinner": "table",
    "restaurant": "table",
    "sum": "add",
    "plus": "add",
    "clock": "time",
}


def word_vector(word: str) -> npt.NDArray[np.float64]:
    seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
    return np.random.default_rng(seed).standard_normal(DIMENSIONS)


class HashingEmbedder:
    """``fn(list[str]) -> array``, counting the texts it embeds."""

    model_name = "hashing-test-embedder"

    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, texts: list[str]) -> npt.NDArray[np.float64]:
        self.texts += texts
        rows = np.zeros((len(texts), DIMENSIONS))
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                rows[row] += word_vector(MEANINGS.get(word, word))
        return rows
