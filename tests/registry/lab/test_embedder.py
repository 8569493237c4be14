"""Bring your own embedder: fused into search, cached on disk by name, its answers checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.registry.lab.embedders import HashingEmbedder
from workbench import Registry
from workbench.registry.lab.embedder import (
    EmbedderError,
    RegistryEmbedder,
    embedder_name,
    fastembed_embedder,
)

DINNER = "supper for four tonight"


def filled(demo_tools: list[Any], **kwargs: Any) -> Registry:
    registry = Registry(**kwargs)
    registry.add_tools("demo", demo_tools)
    return registry


def test_an_embedder_finds_what_no_keyword_reaches(demo_tools: list[Any]) -> None:
    plain = filled(demo_tools)
    assert not plain.search(DINNER) or plain.search(DINNER)[0].id != "demo.book_table"
    registry = filled(demo_tools, embedder=HashingEmbedder())
    assert registry.search(DINNER)[0].id == "demo.book_table"
    assert registry.embedder is not None and registry.embedder.name == "hashing-test-embedder"


def test_vectors_are_cached_on_disk_by_name_and_text(demo_tools: list[Any], tmp_path: Path) -> None:
    first = HashingEmbedder()
    filled(demo_tools, embedder=first).search(DINNER)
    assert len(first.texts) == len(demo_tools) + 1  # every tool once, then the query
    files = list((tmp_path / "vectors").glob("embedder-hashing-test-embedder-*-64d.vectors"))
    assert len(files) == 1
    again = HashingEmbedder()  # a new kernel: the tools' vectors come from disk
    assert filled(demo_tools, embedder=again).search(DINNER)[0].id == "demo.book_table"
    assert again.texts == [DINNER]


def test_an_unnamed_embedder_keeps_its_vectors_in_memory(
    demo_tools: list[Any], tmp_path: Path
) -> None:
    registry = filled(demo_tools)
    chosen = registry.set_embedder(lambda texts: HashingEmbedder()(texts))
    assert chosen is not None and chosen.cache is None
    assert registry.search(DINNER)[0].id == "demo.book_table"
    assert not (tmp_path / "vectors").exists()
    assert "in memory" in repr(chosen)


def test_set_embedder_none_goes_back_to_keyword(demo_tools: list[Any]) -> None:
    registry = filled(demo_tools, embedder=HashingEmbedder())
    registry.set_embedder(None)
    assert registry.embedder is None
    assert [hit.id for hit in registry.search("add two numbers")][:1] == ["demo.add"]
    assert filled(demo_tools).search(DINNER).hits == registry.search(DINNER).hits


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (lambda texts: np.zeros((len(texts) + 1, 4)), "one vector per text"),
        (lambda texts: np.zeros(len(texts)), "one vector per text"),
        (lambda texts: np.full((len(texts), 4), np.nan), "NaN or infinite"),
        (lambda texts: [["x"] * 4 for _ in texts], "not an array of numbers"),
    ],
)
def test_a_wrong_answer_is_named(answer: Any, message: str) -> None:
    with pytest.raises(EmbedderError, match=message):
        RegistryEmbedder(answer).encoder(["one", "two"])


def test_rows_come_back_unit_length_and_float32() -> None:
    rows = RegistryEmbedder(lambda texts: [[3.0, 4.0], [0.0, 0.0]]).encoder(["a", "b"])
    assert rows.dtype == np.float32
    assert rows.tolist() == [[0.6000000238418579, 0.800000011920929], [0.0, 0.0]]


def test_a_model_names_itself_through_a_bound_method() -> None:
    class Model:
        model_name = "org/some-model"

        def encode(self, texts: list[str]) -> list[list[float]]:
            return [[1.0] for _ in texts]

    assert embedder_name(Model().encode) == "org/some-model"
    assert embedder_name(lambda texts: texts) is None


def test_the_fastembed_recipe_says_how_to_install_it() -> None:
    try:
        import fastembed  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pip install fastembed"):
            fastembed_embedder()
    else:
        pytest.skip("fastembed is installed: the recipe would load (and maybe download) a model")
