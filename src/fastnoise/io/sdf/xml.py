"""A small XML tree with line numbers for the SDF readers (``xml.parsers.expat``).

ElementTree drops positions, and every SDF error message names the element's line, so
the readers use this tree instead: a :class:`Node` has a tag, attributes, its stripped
text, its children and the line its start tag is on.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.parsers import expat

__all__ = ["Node", "SdfError", "parse_text", "read_source", "relax_comments", "relax_prolog"]


class SdfError(ValueError):
    """A malformed or unsupported SDF: the message names the file, line and element."""


@dataclass(eq=False)
class Node:
    """One XML element: ``tag``, ``attrib``, stripped ``text``, ``children``, ``line``
    (1-based line of its start tag) and ``source`` (the file, or ``"<string>"``)."""

    tag: str
    attrib: dict[str, str]
    line: int
    source: str
    children: list[Node] = field(default_factory=list)
    text: str = ""

    def find(self, tag: str) -> Node | None:
        """The first child named ``tag`` (sdformat's ``GetElement`` takes the first)."""
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def findall(self, tag: str) -> list[Node]:
        return [c for c in self.children if c.tag == tag]

    def iter(self, tag: str | None = None) -> Iterator[Node]:
        """This node and every descendant (document order), optionally only ``tag``."""
        stack = [self]
        while stack:
            n = stack.pop()
            if tag is None or n.tag == tag:
                yield n
            stack.extend(reversed(n.children))

    def where(self) -> str:
        """``"file, line N"`` (``"line N"`` for XML text)."""
        if self.source == "<string>":
            return f"line {self.line}"
        return f"{self.source}, line {self.line}"

    def error(self, message: str) -> SdfError:
        """An :class:`SdfError` ``"<where>: <message>"``."""
        return SdfError(f"{self.where()}: {message}")


def relax_comments(text: str | bytes) -> str | bytes:
    """``text`` with every ``-`` inside an XML comment replaced by a space, so that expat
    reads comments as sdformat's XML parser (tinyxml2) does.

    XML 1.0 forbids ``--`` inside a comment and a comment ending in ``-`` (``--->``);
    expat refuses both, tinyxml2 takes everything from ``<!--`` to the first ``-->`` as
    the comment. Real gz-sim worlds rely on that (``gz topic ... --msgtype`` in the
    comment of ``examples/worlds/advanced_lift_drag_system.sdf``). Comment text is
    dropped anyway, and the replacement keeps every newline, so line numbers stay
    those of the file. CDATA sections are left alone; a comment without its ``-->``
    is left for expat to report."""
    if isinstance(text, bytes):
        out_b = relax_comments(text.decode("latin-1"))
        assert isinstance(out_b, str)
        return out_b.encode("latin-1")  # latin-1 round-trips every byte
    if "<!--" not in text:
        return text
    parts: list[str] = []
    pos = 0
    while True:
        c = text.find("<!--", pos)
        d = text.find("<![CDATA[", pos)
        if c < 0 and d < 0:
            break
        if d >= 0 and (c < 0 or d < c):  # a CDATA section first: copy it as it is
            end = text.find("]]>", d)
            if end < 0:
                break
            parts.append(text[pos : end + 3])
            pos = end + 3
            continue
        end = text.find("-->", c + 4)
        if end < 0:
            break
        parts.append(text[pos : c + 4])
        parts.append(text[c + 4 : end].replace("-", " "))
        parts.append("-->")
        pos = end + 3
    parts.append(text[pos:])
    return "".join(parts)


_DECLARATION = re.compile(r"<\?xml[^>]*\?>")


def relax_prolog(text: str | bytes) -> str | bytes:
    """``text`` with what comes before its first ``<`` (and an XML declaration right
    after it) turned into newlines, so that expat reads the start of a file as tinyxml2
    (sdformat's XML parser) does.

    XML 1.0 wants the declaration ``<?xml ...?>`` first of all and no text before the
    root element; expat refuses a file that breaks either rule, tinyxml2 skips leading
    white space and keeps stray text as a document-level text node that sdformat never
    reads. Real gz-sim worlds rely on that: ``test/worlds/fixed_world_joint.sdf`` starts
    with a space, ``test/worlds/reset_detachable_joint.sdf`` with ``?xml ...?>`` (its
    ``<`` missing). Only a file whose first character is not ``<`` (a byte order mark
    aside) changes, and every newline stays, so line numbers are the file's."""
    if isinstance(text, bytes):
        out_b = relax_prolog(text.decode("latin-1"))
        assert isinstance(out_b, str)
        return out_b.encode("latin-1")  # latin-1 round-trips every byte
    bom = next((b for b in ("\ufeff", "\xef\xbb\xbf") if text.startswith(b)), "")
    first = text.find("<", len(bom))
    if first <= len(bom):
        return text  # starts with "<" (or has none: left for expat to report)
    head = "\n" * text.count("\n", 0, first)
    rest = text[first:]
    decl = _DECLARATION.match(rest)
    if decl is not None:  # a declaration no longer first: expat would refuse it
        rest = "\n" * decl.group().count("\n") + rest[decl.end() :]
    return head + rest


#: The deepest element nesting read (the root is depth 1). sdformat parses with tinyxml2,
#: whose ``TINYXML2_MAX_ELEMENT_DEPTH`` (100, counting the document itself) refuses an
#: element at depth 99 (``XML_ELEMENT_DEPTH_EXCEEDED``; tests/test_sdf_oracle.py
#: checks the limit against sdformat 12). Parsing stops there, so a deep file costs
#: no more than a flat one.
MAX_NESTING = 98


def parse_text(text: str | bytes, source: str = "<string>") -> Node:
    """The root :class:`Node` of the XML ``text``; malformed XML raises :class:`SdfError`
    with expat's line and column. Comments are read as tinyxml2 reads them
    (:func:`relax_comments`): ``--`` inside one is accepted. Elements nested more than
    :data:`MAX_NESTING` deep raise :class:`SdfError` (as sdformat refuses them). Text
    before the first ``<`` is skipped as tinyxml2 skips it (:func:`relax_prolog`)."""
    text = relax_prolog(relax_comments(text))
    parser = expat.ParserCreate()
    root: list[Node] = []
    stack: list[Node] = []
    chunks: list[list[str]] = []

    def start(tag: str, attrib: dict[str, str]) -> None:
        node = Node(tag, dict(attrib), parser.CurrentLineNumber, source)
        if len(stack) >= MAX_NESTING:
            raise node.error(
                f"<{tag}> is nested {len(stack) + 1} elements deep: the SDF parser "
                f"(tinyxml2, as sdformat) reads at most {MAX_NESTING}"
            )
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)
        chunks.append([])

    def end(tag: str) -> None:
        node = stack.pop()
        node.text = "".join(chunks.pop()).strip()

    def data(s: str) -> None:
        if chunks:
            chunks[-1].append(s)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        where = "" if source == "<string>" else f"{source}, "
        raise SdfError(
            f"{where}line {exc.lineno}: the SDF is not well-formed XML: "
            f"{expat.ErrorString(exc.code)} (column {exc.offset + 1})"
        ) from None
    return root[0]


def read_source(sdf: object) -> tuple[str, str]:
    """(text, source name) of ``sdf``: XML text (a str containing ``<``) or a file path
    (str or os.PathLike). A file that cannot be read raises OSError."""
    if isinstance(sdf, os.PathLike) or (isinstance(sdf, str) and "<" not in sdf):
        path = os.fspath(sdf)
        with open(path, encoding="utf-8") as fh:
            return fh.read(), str(path)
    if isinstance(sdf, str):
        return sdf, "<string>"
    raise TypeError(f"sdf={sdf!r} is not allowed: give XML text (str) or a file path")
