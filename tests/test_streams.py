"""The stream registry: csrc/streams.h and fastnoise.core.streams say the same, every
model is listed, and no two models share a key tag."""

import re
from pathlib import Path

from fastnoise.core.model import registered_models
from fastnoise.core.seeding import model_tag
from fastnoise.core.streams import RESERVED_TAGS, STREAMS, c_constants, table_markdown

HEADER = Path(__file__).resolve().parents[1] / "csrc" / "streams.h"


def _header_constants():
    out = {}
    for m in re.finditer(
        r"^#define FN_STREAM_(\w+)\s+(0x[0-9A-Fa-f]+|\d+)u?l*", HEADER.read_text(), re.M
    ):
        out[m.group(1)] = int(m.group(2), 0)
    return out


def test_header_and_table_agree():
    assert _header_constants() == c_constants()


def test_every_registered_model_has_streams():
    listed = {s.model for s in STREAMS}
    # "suite" is no model: it is the derivation of fastnoise.io.suite.suite's per-topic seeds
    assert set(registered_models()) - {"rigid_body"} == listed - {"suite"}


def test_key_tags_are_distinct_and_reserved_tags_unused():
    used = {s.key_tag for s in STREAMS if s.key_tag}
    assert not used & set(RESERVED_TAGS)
    tags = [model_tag(t) for t in (*used, *RESERVED_TAGS)]
    assert len(set(tags)) == len(tags)


def test_markdown_table_lists_every_stream():
    text = table_markdown()
    assert text.count("\n") == len(STREAMS) + 1
    for s in STREAMS:
        assert s.draws in text
