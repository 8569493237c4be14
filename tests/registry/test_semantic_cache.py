"""Tool vectors on disk: a new kernel reads them instead of embedding again."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from workbench import Registry
from workbench.registry.semantic import SemanticIndex
from workbench.registry.vector_cache import VectorCache, cache_root

DIMENSIONS = 8


class HashEncoder:
    """Deterministic unit vectors from a text's hash, counting the texts embedded."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            row = np.random.default_rng(seed).standard_normal(DIMENSIONS).astype(np.float32)
            rows.append(row / np.linalg.norm(row))
        return np.stack(rows)


TOOLS = [
    {"name": "read_file", "description": "Read a file."},
    {"name": "write_file", "description": "Write a file."},
    {"name": "list_directory", "description": "List a folder."},
]


def kernel(root: Path) -> tuple[Registry, HashEncoder]:
    """A registry as a new kernel makes it: fresh memory, the same cache folder."""
    encoder = HashEncoder()
    registry = Registry()
    registry.enable_semantic(SemanticIndex(encoder, VectorCache("hash", DIMENSIONS, root)))
    registry.add_tools("fs", TOOLS)
    return registry, encoder


def test_a_new_kernel_embeds_nothing_and_ranks_the_same(tmp_path: Path) -> None:
    first, first_encoder = kernel(tmp_path)
    before = [(hit.id, hit.score) for hit in first.search("folder contents")]
    assert len(first_encoder.texts) == 4  # three tools and the query
    second, second_encoder = kernel(tmp_path)
    assert [(hit.id, hit.score) for hit in second.search("folder contents")] == before
    assert second_encoder.texts == ["folder contents"]  # the query only


def test_only_a_changed_tool_is_embedded_and_written(tmp_path: Path) -> None:
    kernel(tmp_path)[0].search("x")
    registry, encoder = kernel(tmp_path)
    registry.add_tools("fs", [{"name": "read_file", "description": "Read a text file."}])
    registry.search("x")
    assert len(encoder.texts) == 2  # the changed tool and the query
    assert len(VectorCache("hash", DIMENSIONS, tmp_path)) == 4


def test_a_record_cut_short_is_ignored_and_the_next_batch_stays_aligned(tmp_path: Path) -> None:
    cache = VectorCache("hash", DIMENSIONS, tmp_path)
    one = np.ones(DIMENSIONS, dtype=np.float32)
    cache.put({b"a" * 16: one})
    with cache.path.open("ab") as file:
        file.write(b"partial")  # a crash in the middle of a write
    reread = VectorCache("hash", DIMENSIONS, tmp_path)
    assert list(reread.get([b"a" * 16])) == [b"a" * 16]
    reread.put({b"b" * 16: one * 2})
    final = VectorCache("hash", DIMENSIONS, tmp_path).get([b"a" * 16, b"b" * 16])
    assert set(final) == {b"a" * 16, b"b" * 16}
    np.testing.assert_array_equal(final[b"b" * 16], one * 2)


def test_an_unwritable_cache_file_costs_re_embedding_never_an_error(tmp_path: Path) -> None:
    # A folder where the cache file should be: no one can open it for writing, root included
    # (a read-only folder would not stop root, and these tests run as root in CI).
    (tmp_path / "vectors" / "hash.vectors").mkdir(parents=True)
    for _kernel in range(2):
        registry, encoder = kernel(tmp_path / "vectors")
        assert registry.search("folder")[0].id == "fs.list_directory"
        assert len(encoder.texts) == 4  # embedded again each time: nothing could be kept


def test_a_file_where_the_folder_should_be_costs_re_embedding(tmp_path: Path) -> None:
    (tmp_path / "vectors").write_text("not a folder")
    registry, encoder = kernel(tmp_path / "vectors")
    assert registry.search("folder")[0].id == "fs.list_directory"
    assert len(encoder.texts) == 4
    assert len(VectorCache("hash", DIMENSIONS, tmp_path / "vectors")) == 0


def test_cache_root_follows_the_environment(tmp_path: Path) -> None:
    assert cache_root({"WORKBENCH_CACHE_DIR": str(tmp_path)}) == tmp_path / "vectors"
    assert cache_root({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "workbench" / "vectors"
    assert cache_root({}) == Path.home() / ".cache" / "workbench" / "vectors"


def test_model_names_must_be_safe_file_names(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="safe file name"):
        VectorCache("../elsewhere", DIMENSIONS, tmp_path)
