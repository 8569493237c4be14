"""The model2vec recipe on a tiny model built here (offline): the real loading code runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# model2vec is in the dev extra (requirements/dev.lock): missing, this module fails loudly.
import model2vec
import numpy as np
import pytest

from tests.registry.lab.embedders import DIMENSIONS, MEANINGS, word_vector
from workbench import Registry
from workbench.registry.lab.embedder import model2vec_embedder
from workbench.registry.semantic import embed_text


def tiny_model(folder: Path, words: list[str]) -> Path:
    """A StaticModel of the given words (their hashed vectors, shared meanings kept), saved
    the way a hub model is: what ``StaticModel.from_pretrained`` reads."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.normalizers import Lowercase
    from tokenizers.pre_tokenizers import Whitespace

    vocabulary = ["[UNK]", "[PAD]", *sorted(set(words))]
    tokenizer = Tokenizer(WordLevel({w: i for i, w in enumerate(vocabulary)}, unk_token="[UNK]"))
    tokenizer.normalizer = Lowercase()
    tokenizer.pre_tokenizer = Whitespace()
    vectors = np.zeros((len(vocabulary), DIMENSIONS), dtype=np.float32)
    for row, word in enumerate(vocabulary[2:], 2):
        vectors[row] = word_vector(MEANINGS.get(word, word))
    model2vec.StaticModel(vectors, tokenizer, normalize=True).save_pretrained(folder)
    return folder


def test_a_saved_static_model_loads_embeds_and_finds_a_paraphrase(
    demo_tools: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # a local folder: nothing may be fetched
    registry = Registry()
    registry.add_tools("demo", demo_tools)
    words = re.findall(r"[a-z]+", " ".join(embed_text(entry) for entry in registry).lower())
    folder = tiny_model(tmp_path / "tiny-model", [*words, *MEANINGS, "for", "four", "tonight"])
    embedder = model2vec_embedder(str(folder))
    assert embedder.name == f"model2vec-{folder}"
    registry.set_embedder(embedder)
    assert registry.search("supper for four tonight")[0].id == "demo.book_table"
    assert embedder.dimensions == DIMENSIONS
    assert list((tmp_path / "vectors").glob("embedder-model2vec-*-64d.vectors"))
