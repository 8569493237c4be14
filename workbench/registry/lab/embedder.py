"""Bring your own embedder: any ``fn(list[str]) -> vectors`` for the registry's semantic mode.

``Registry(embedder=fn)`` or ``registry.set_embedder(fn, name=...)`` (so
``wb.registry.set_embedder(...)`` in a kernel) fuses the embedder's cosine with the keyword
ranking, exactly as the ``[semantic]`` extra's bundled model is fused. ``fn`` may be a model2vec
``StaticModel.encode``, a fastembed model, sentence-transformers, or an API client: rows come
back as any array-like, are checked and normalised here. Vectors are cached by a digest of the
embedded text, on disk when the embedder has a name (given, or the model's own name), one file
per name and dimension count; without a name only in memory (two different models must never
share vectors). Nothing is downloaded here: a recipe loads a model only when called with it.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from workbench.errors import WorkbenchError
from workbench.registry.vector_cache import VectorCache, cache_root

__all__ = [
    "Embedder",
    "EmbedderError",
    "RegistryEmbedder",
    "embedder_name",
    "fastembed_embedder",
    "model2vec_embedder",
]

Vectors = npt.NDArray[np.float32]
Embedder = Callable[[list[str]], Any]
"""Texts to an array-like of shape (len(texts), dimensions)."""

_NAME_ATTRIBUTES = ("model_name", "name_or_path", "base_model_name", "model_id")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class EmbedderError(WorkbenchError, ValueError):
    """The embedder answered something that is not one vector per text."""


def embedder_name(fn: object) -> str | None:
    """The model's own name when ``fn`` (or the object a bound method belongs to) says it."""
    for holder in (fn, getattr(fn, "__self__", None)):
        for attribute in _NAME_ATTRIBUTES:
            value = getattr(holder, attribute, None) if holder is not None else None
            if isinstance(value, str) and value.strip():
                return value.strip()
    return None


def _file_stem(name: str) -> str:
    """A safe file name for any model name ("org/model" too), distinct per name."""
    digest = hashlib.blake2b(name.encode(), digest_size=4).hexdigest()
    return f"embedder-{_UNSAFE.sub('_', name)[:60]}-{digest}"


class EmbedderCache(VectorCache):
    """A vector cache whose dimension count is learned from the first vectors written, or
    from the one file already on disk for this name."""

    def __init__(self, name: str, root: Path | None = None) -> None:
        self._stem = _file_stem(name)
        self._root = root or cache_root()
        self._inner: VectorCache | None = None

    def _open(self, dimensions: int | None) -> VectorCache | None:
        if self._inner is None:
            if dimensions is None:
                found = sorted(self._root.glob(f"{self._stem}-*d.vectors"))
                if len(found) != 1:
                    return None
                dimensions = int(found[0].stem.rsplit("-", 1)[1][:-1])
            self._inner = VectorCache(f"{self._stem}-{dimensions}d", dimensions, self._root)
        return self._inner

    def get(self, digests: Iterable[bytes]) -> dict[bytes, Vectors]:
        inner = self._open(None)
        return inner.get(digests) if inner is not None else {}

    def put(self, vectors: Mapping[bytes, Vectors]) -> None:
        if vectors:
            inner = self._open(len(next(iter(vectors.values()))))
            if inner is not None:
                inner.put(vectors)

    def __len__(self) -> int:
        inner = self._open(None)
        return len(inner) if inner is not None else 0


class RegistryEmbedder:
    """A user's embedder as the semantic index's encoder: one unit row per text."""

    def __init__(self, fn: Embedder, name: str | None = None) -> None:
        if not callable(fn):
            raise TypeError(f"An embedder is a function of a list of texts, not {fn!r}")
        self.fn = fn
        self.name = name or embedder_name(fn)
        self.cache: VectorCache | None = EmbedderCache(self.name) if self.name else None
        self.dimensions: int | None = None

    def encoder(self, texts: Sequence[str]) -> Vectors:
        """Call the embedder and check what it gave: a finite number per cell, one row per
        text, the same width every time; rows are scaled to unit length."""
        answer = self.fn(list(texts))
        try:
            rows = np.asarray(answer, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise EmbedderError(
                f"The embedder's answer is not an array of numbers: {exc}"
            ) from None
        if rows.ndim != 2 or rows.shape[0] != len(texts):
            raise EmbedderError(
                f"The embedder gave shape {rows.shape} for {len(texts)} texts: "
                "it must give one vector per text"
            )
        if self.dimensions is not None and rows.shape[1] != self.dimensions:
            raise EmbedderError(
                f"The embedder gave {rows.shape[1]} dimensions, earlier {self.dimensions}"
            )
        if not np.isfinite(rows).all():
            raise EmbedderError("The embedder gave a vector with NaN or infinite values")
        self.dimensions = int(rows.shape[1])
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return np.ascontiguousarray(rows / norms, dtype=np.float32)

    def __repr__(self) -> str:
        cached = "on disk" if self.cache is not None else "in memory (no name)"
        return f"<RegistryEmbedder {self.name or self.fn!r}: vectors cached {cached}>"


def model2vec_embedder(
    model: str = "minishlab/potion-retrieval-32M", **load: Any
) -> RegistryEmbedder:
    """A model2vec ``StaticModel`` (``pip install model2vec``) by hub name or local folder.
    A hub name downloads the model on first use, where a network exists."""
    try:
        static: Any = importlib.import_module("model2vec").StaticModel
    except ImportError as exc:
        raise ImportError(
            f"model2vec_embedder needs model2vec: pip install model2vec ({exc})"
        ) from exc
    loaded = static.from_pretrained(model, **load)
    # One process: a kernel should not fork workers for a large catalog (model2vec would).
    return RegistryEmbedder(
        lambda texts: loaded.encode(texts, use_multiprocessing=False), name=f"model2vec-{model}"
    )


def fastembed_embedder(model: str = "BAAI/bge-small-en-v1.5", **load: Any) -> RegistryEmbedder:
    """A fastembed ``TextEmbedding`` (``pip install fastembed``); downloads the model on
    first use, where a network exists."""
    try:
        text_embedding: Any = importlib.import_module("fastembed").TextEmbedding
    except ImportError as exc:
        raise ImportError(
            f"fastembed_embedder needs fastembed: pip install fastembed ({exc})"
        ) from exc
    loaded = text_embedding(model, **load)
    return RegistryEmbedder(lambda texts: list(loaded.embed(texts)), name=f"fastembed-{model}")
