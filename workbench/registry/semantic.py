"""Optional semantic search: tool embeddings fused with the keyword ranking.

Keyword search misses requests that share no word with the tool ("copy someone's repo into
my account" for ``fork_repository``). This module embeds every tool once with the static
word-embedding model that the ``wordllama`` wheel ships (installed by the ``semantic`` extra;
nothing is downloaded) and adds cosine similarity to the keyword score.

The model is mean-pooled token embeddings: no network, no torch, about half a second for
1,600 tools on one core and 0.1 ms per query. Vectors are cached by a digest of the embedded
text, in memory and on disk (``vector_cache``), so re-registering unchanged tools costs a hash,
a new kernel reads the vectors instead of embedding again, and a change to one server embeds
only that server's changed tools (on the next search, in one batch).
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from workbench.errors import SemanticUnavailableError
from workbench.registry.entry import ToolEntry
from workbench.registry.search import SearchHit, SearchResults, shorten, split_server_filter
from workbench.registry.vector_cache import VectorCache
from workbench.registry.vocabulary import words

if TYPE_CHECKING:
    from workbench.registry.search import SearchIndex

__all__ = [
    "Encoder",
    "SemanticIndex",
    "SemanticUnavailableError",
    "WordLlamaEncoder",
    "embed_text",
    "load_encoder",
]

Vectors = npt.NDArray[np.float32]
Slots = npt.NDArray[np.intp]
Encoder = Callable[[Sequence[str]], Vectors]
"""Texts to unit vectors (one row per text; an empty text may give a zero row)."""

# Fusion, chosen on the dev split of benchmarks/search (`run.py --methods workbench-semantic`):
# the keyword score over the best keyword score, plus FUSION_WEIGHT times the cosine over the
# best cosine. Reciprocal-rank fusion was worse there at every (k, weight) tried.
FUSION_WEIGHT = 0.5
POOL = 20  # candidates from each ranking (at least ``limit``)
# The keyword ranking's "nothing fits" is kept unless the best hit stands out from the
# catalog semantically (its cosine this many standard deviations above the mean).
STANDOUT_Z = 5.0
DESCRIPTION_WORDS = 200
RECENT_LIMIT = 4096  # vectors of removed tools kept for re-registration

_PACKAGE = "wordllama"
MODEL_NAME = "wordllama-l2_supercat_256"  # the vector file's name: a new model, a new file
MODEL_DIMENSIONS = 256
_WEIGHTS = Path("weights") / "l2_supercat_256.safetensors"
_TOKENIZER = Path("tokenizers") / "l2_supercat_tokenizer_config.json"
_INSTALL_HINT = "pip install 'jupyter-mcp-workbench[semantic]'"


def embed_text(entry: ToolEntry) -> str:
    """What a tool is embedded as: name words, title, description head, parameter names."""
    parts = [" ".join(words(entry.name))]
    if entry.title:
        parts.append(entry.title)
    description = " ".join(entry.description.split()[:DESCRIPTION_WORDS])
    if description:
        parts.append(description)
    properties = entry.input_schema.get("properties")
    if isinstance(properties, dict) and properties:
        parts.append(" ".join(" ".join(words(str(key))) for key in properties))
    return ". ".join(parts)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _package_dir() -> Path:
    """Where wordllama's files are, found without importing it: its ``__init__`` configures
    the root logger (``logging.basicConfig``) and imports requests."""
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise SemanticUnavailableError(
            f"Semantic search needs the optional embedding model: {_INSTALL_HINT}"
        )
    return Path(next(iter(spec.submodule_search_locations)))


class WordLlamaEncoder:
    """wordllama's bundled ``l2_supercat`` model (256 dimensions), loaded from the files in
    its wheel.

    Same vectors as ``wordllama.WordLlamaInference.embed(texts, norm=True)``, computed without
    padding a batch to its longest text (that costs 3x the time and ~300 MB for 1,600 tool
    texts). ``WordLlama.load()`` itself is avoided: in 0.4.0.post1 it looks for the tokenizer
    in ``wordllama/tokenizer/`` (not ``tokenizers/``) and then downloads it from a model hub.
    """

    def __init__(self) -> None:
        root = _package_dir()
        try:
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise SemanticUnavailableError(
                f"Semantic search cannot load its model ({exc}): {_INSTALL_HINT}"
            ) from exc
        missing = [str(root / p) for p in (_WEIGHTS, _TOKENIZER) if not (root / p).is_file()]
        if missing:
            raise SemanticUnavailableError(
                f"The installed wordllama lacks {', '.join(missing)}: {_INSTALL_HINT}"
            )
        self._tokenizer = Tokenizer.from_file(str(root / _TOKENIZER))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        table = load_file(str(root / _WEIGHTS))["embedding.weight"]
        self._table: Vectors = np.ascontiguousarray(table, dtype=np.float32)

    @property
    def dimensions(self) -> int:
        return int(self._table.shape[1])

    def __call__(self, texts: Sequence[str]) -> Vectors:
        # One text at a time: ``encode_batch`` saves little (0.25 s against 0.29 s for 1,600
        # tools on two cores) and would start a Rust thread pool inside the kernel.
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        top = self._table.shape[0] - 1
        for row, text in enumerate(texts):
            ids = self._tokenizer.encode(text, add_special_tokens=False).ids
            if ids:
                out[row] = self._table[np.clip(ids, 0, top)].mean(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        out /= norms
        return out


@lru_cache(maxsize=1)
def load_encoder() -> WordLlamaEncoder:
    """The shared model (about 50 MB in memory), loaded once per process on first use."""
    return WordLlamaEncoder()


def require_model() -> None:
    """Fail now, with the install command, if the optional model is absent (cheap: no import)."""
    _package_dir()


class SemanticIndex:
    """Unit vectors of registry entries, one row per entry in a growing matrix.

    Like the keyword index, each entry owns a slot, so adding or removing one entry touches
    one row. Entries whose text digest has a vector already (same text before, or re-added
    after removal) reuse it; the others wait in ``pending`` and are embedded in one batch on
    the next search (or ``prepare()``).
    """

    def __init__(self, encoder: Encoder | None = None, cache: VectorCache | None = None) -> None:
        if encoder is None:
            require_model()
            cache = cache or VectorCache(MODEL_NAME, MODEL_DIMENSIONS)
        self._encoder = encoder
        self._cache = cache
        self._slots: dict[str, int] = {}
        self._entries: list[ToolEntry | None] = []
        self._digests: list[bytes] = []
        self._free: list[int] = []
        self._server_slots: dict[str, set[int]] = {}
        self._matrix: Vectors | None = None
        self._live: npt.NDArray[np.bool_] = np.zeros(0, dtype=bool)
        self._holders: dict[bytes, set[int]] = {}  # digest -> live slots with that vector
        self._recent: OrderedDict[bytes, Vectors] = OrderedDict()  # digests no slot holds
        self._pending: dict[int, str] = {}  # slot -> text to embed

    def __len__(self) -> int:
        return len(self._slots)

    @property
    def pending(self) -> int:
        """How many entries wait to be embedded."""
        return len(self._pending)

    # -- changing -----------------------------------------------------------------------

    def add(self, entry: ToolEntry) -> None:
        """Index an entry (replacing any with the same id); embeds nothing yet."""
        self.remove(entry.id)
        text = embed_text(entry)
        digest = _digest(text)
        slot = self._free.pop() if self._free else len(self._entries)
        if slot == len(self._entries):
            self._entries.append(None)
            self._digests.append(b"")
        self._slots[entry.id] = slot
        self._entries[slot] = entry
        self._digests[slot] = digest
        self._server_slots.setdefault(entry.server, set()).add(slot)
        holders = self._holders.get(digest)
        if holders and self._matrix is not None:
            self._place(slot, digest, self._matrix[next(iter(holders))])
        elif digest in self._recent:
            self._place(slot, digest, self._recent.pop(digest))
        else:
            self._pending[slot] = text

    def remove(self, entry_id: str) -> None:
        """Forget an entry, keeping its vector a while in case it comes back unchanged."""
        slot = self._slots.pop(entry_id, None)
        if slot is None:
            return
        if self._pending.pop(slot, None) is None and self._matrix is not None:
            digest = self._digests[slot]
            holders = self._holders[digest]
            holders.discard(slot)
            if not holders:
                del self._holders[digest]
                self._recent[digest] = self._matrix[slot].copy()
                if len(self._recent) > RECENT_LIMIT:
                    self._recent.popitem(last=False)
            self._live[slot] = False
        server = entry_id.partition(".")[0]
        self._server_slots[server].discard(slot)
        if not self._server_slots[server]:
            del self._server_slots[server]
        self._entries[slot] = None
        self._free.append(slot)

    def prepare(self) -> None:
        """Embed every pending entry now (searching does it otherwise): vectors on disk
        are read, the others embedded in one batch and written there."""
        if not self._pending:
            return
        by_digest: dict[bytes, str] = {}
        for slot, text in self._pending.items():
            by_digest.setdefault(self._digests[slot], text)
        fresh = self._cache.get(by_digest) if self._cache is not None else {}
        missing = [digest for digest in by_digest if digest not in fresh]
        if missing:
            vectors = self._encode([by_digest[digest] for digest in missing])
            made = dict(zip(missing, vectors, strict=True))
            if self._cache is not None:
                self._cache.put(made)
            fresh.update(made)
        for slot in self._pending:
            digest = self._digests[slot]
            self._place(slot, digest, fresh[digest])
        self._pending.clear()

    # -- searching ----------------------------------------------------------------------

    def search(
        self, query: str, limit: int, *, keyword: SearchIndex, server: str | None = None
    ) -> SearchResults:
        """The keyword ranking fused with cosine similarity; same contract as
        ``SearchIndex.search`` (best first, ties by id, ``no_good_match``)."""
        if limit <= 0:
            return keyword.search(query, limit, server=server)
        pool = max(limit, POOL)
        found = keyword.search(query, pool, server=server)
        self.prepare()
        text, named = split_server_filter(query)
        server = server or named
        cosines, slots = self._cosines(text, server)
        scope = cosines if slots is None else cosines[slots]  # what may be returned
        best_cosine = float(scope.max()) if len(scope) else 0.0
        if best_cosine <= 0:  # nothing to add (an empty query, or an unknown server)
            return SearchResults(query, found.hits[:limit], found.no_good_match)

        keyword_best = found.hits[0].score if found.hits else 0.0
        fused: dict[int, float] = {}
        keyword_hits: dict[int, SearchHit] = {}
        for hit in found.hits:
            slot = self._slots[hit.id]
            keyword_hits[slot] = hit
            fused[slot] = hit.score / keyword_best if keyword_best > 0 else 0.0
        nearest = np.argpartition(-scope, pool - 1)[:pool] if len(scope) > pool else None
        if nearest is None:
            nearest = np.arange(len(scope))
        for slot in map(int, nearest if slots is None else slots[nearest]):
            fused.setdefault(slot, 0.0)
        for slot in fused:
            fused[slot] += FUSION_WEIGHT * max(float(cosines[slot]), 0.0) / best_cosine
        ranked = sorted(fused.items(), key=lambda pair: (-pair[1], self._id(pair[0])))
        ranked = [(slot, score) for slot, score in ranked[:limit] if score > 0]

        hits = [self._hit(slot, score, keyword_hits.get(slot)) for slot, score in ranked]
        weak = found.no_good_match
        if weak and hits:
            weak = self._standout(scope, float(cosines[ranked[0][0]])) < STANDOUT_Z
        return SearchResults(query, hits, weak)

    # -- internals ----------------------------------------------------------------------

    def _encode(self, texts: list[str]) -> Vectors:
        if self._encoder is None:
            self._encoder = load_encoder()
        return self._encoder(texts)

    def _place(self, slot: int, digest: bytes, vector: Vectors) -> None:
        """Write a vector into its row, growing the matrix (doubling) when needed."""
        if self._matrix is None:
            self._matrix = np.zeros((max(64, slot + 1), len(vector)), dtype=np.float32)
        if slot >= len(self._matrix):
            rows = max(2 * len(self._matrix), slot + 1)
            grown = np.zeros((rows, self._matrix.shape[1]), dtype=np.float32)
            grown[: len(self._matrix)] = self._matrix
            self._matrix = grown
        if len(self._live) < len(self._matrix):
            live = np.zeros(len(self._matrix), dtype=bool)
            live[: len(self._live)] = self._live
            self._live = live
        self._matrix[slot] = vector
        self._live[slot] = True
        self._holders.setdefault(digest, set()).add(slot)

    def _cosines(self, text: str, server: str | None) -> tuple[Vectors, Slots | None]:
        """The query's cosine with every used row, and the slots that may be returned (None:
        all of them)."""
        if self._matrix is None:
            return np.zeros(0, dtype=np.float32), None
        used = min(len(self._entries), len(self._matrix))
        query = self._encode([text])[0]
        # Not `matrix @ query`: BLAS hands a product this size to its threads, and waking them
        # between searches costs milliseconds; vecdot (numpy 2, as wordllama needs) stays on
        # this thread.
        cosines: Vectors = np.vecdot(self._matrix[:used], query)
        if server is not None:
            return cosines, np.array(sorted(self._server_slots.get(server, ())), dtype=np.intp)
        if self._free:
            return cosines, np.flatnonzero(self._live[:used])
        return cosines, None

    @staticmethod
    def _standout(cosines: Vectors, best: float) -> float:
        """How many standard deviations the best hit's cosine lies above the mean."""
        spread = float(cosines.std())
        return (best - float(cosines.mean())) / spread if spread > 0 else 0.0

    def _id(self, slot: int) -> str:
        entry = self._entries[slot]
        assert entry is not None
        return entry.id

    def _hit(self, slot: int, score: float, known: SearchHit | None) -> SearchHit:
        if known is not None:  # the keyword index made it already (not `replace`: 5x slower)
            return SearchHit(
                known.id,
                known.server,
                known.name,
                known.title,
                round(score, 6),
                known.description,
                known.annotations,
                known.weak,
            )
        entry = self._entries[slot]
        assert entry is not None
        return SearchHit(
            id=entry.id,
            server=entry.server,
            name=entry.name,
            title=entry.title,
            score=round(score, 6),
            description=shorten(entry.description),
            annotations=entry.annotations,
            weak=True,  # no query word reaches it: nothing of the query is covered
        )
