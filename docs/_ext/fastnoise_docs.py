"""Sphinx extension of the fastnoise docs: pages generated from the installed package,
so that they cannot drift from it, and docstring fixes that the API reference needs.

* ``config-inited``: writes ``docs/_generated/`` (ignored by git, excluded as sources,
  read with ``include``/``literalinclude``):

  - ``streams.rst.inc``: the stream registry, ``fastnoise.core.streams.STREAMS``, as a
    list-table (``table_markdown()`` renders the same rows as Markdown, but does not
    escape the ``|`` inside the IMU stream formulas, so its output is no valid table);
  - ``cli-commands.rst.inc``: one section per subcommand of the CLI registry (its page
    under ``docs/cli/`` and its ``--help``; a subcommand without a page is an error),
  - ``cli-<command>.txt``: ``fastnoise --help`` and each subcommand's ``--help``,
    from the CLI registry (``fastnoise.cli.build_parser``);
  - ``changelog.md.inc``, ``contributing.md.inc``: CHANGELOG.md and CONTRIBUTING.md
    with the source documents named (see ``SOURCE_DOCUMENTS``);
  - ``simd.txt``: the SIMD path of the build machine.

* ``autodoc-process-docstring`` (before numpydoc): names the source documents instead
  of "seed 00N" (users read "seed" as the RNG seed) and repairs section headers that
  numpydoc cannot parse (``Parameters (m)`` over a shorter underline).

* ``env-check-consistency``: every name in ``fastnoise.__all__`` must be documented
  as ``fastnoise.<name>``, else the build fails (with ``-W``).

* The ``fastnoise-params`` directive: a model's parameter table, generated from its
  declaration in the registry (``.. fastnoise-params:: imu``), or the table of the
  entries of one of its parameters (``.. fastnoise-params:: imu.gyro``: TriadNoise's
  fields). An unknown name fails the build.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

DOCS = Path(__file__).resolve().parent.parent
ROOT = DOCS.parent
GENERATED = DOCS / "_generated"

#: What each source document is, for readers (the files in the design's seeds/ folder).
SOURCE_DOCUMENTS = {
    "000": "the Metron DVL simulator document",
    "001": "the GPU lidar (RGL) Gaussian noise document",
    "002": "the ROS 2 sensor pipeline document",
    "003": "the Gazebo sensor noise tutorial",
    "004": "the SensorSimulator API document",
}

#: Module -> the source document that "the seed" means in its docstrings.
MODULE_DOCUMENTS = {
    "fastnoise.models.motion.sensor_simulator": "004",
    "fastnoise.models.motion.rigid_body": "004",
    "fastnoise.core.generator": "004",
    "fastnoise.cli.demo": "004",
    "fastnoise.models.dvl.simulator": "000",
    "fastnoise.models.dvl.sensor": "000",
    "fastnoise.models.dvl.measurement": "000",
    "fastnoise.models.dvl.dtypes": "000",
    "fastnoise.models.dvl.config": "000",
    "fastnoise.models.imu.triad": "002",
    "fastnoise.models.imu.imu_noise": "002",
    "fastnoise.models.camera.image_noise": "003",
    "fastnoise.models.lidar.range_noise": "003",
    "fastnoise.models.lidar.lidar_noise": "001",
}

_NUMBERED = re.compile(
    r"(?P<article>\b[Tt]he )?\b(?P<word>[Ss]eeds?) (?P<a>00\d)"
    r"(?:(?P<sep>,| and) (?P<b>00\d))?(?P<poss>'s)?(?P<example> (?:usage )?example)?"
)
# "the seed" meaning the module's source document (not an RNG seed), in the docstrings
# of the modules of MODULE_DOCUMENTS: (pattern, replacement with {doc})
_GENERIC = [
    (re.compile(r"\bthe seed document's\b"), "{doc}'s"),
    (
        re.compile(
            r"\bthe seed's (order|C\+\+ copy|example|usage example|field names|"
            r"reasonable range|JSON fields|names|``main\.cpp``|model)\b"
        ),
        "{doc}'s \\1",
    ),
    (re.compile(r"\b[Ss]eed 00\d's\b"), None),  # handled by _NUMBERED
    (re.compile(r"\bUnits are those of the seed\b"), "Units are those of {doc}"),
    (re.compile(r"\bas the seed fixes\b"), "as {doc} fixes"),
    (re.compile(r"\bnot in the seed\b"), "not in {doc}"),
    (re.compile(r"\bas in the seed\)"), "as in {doc})"),
    (re.compile(r"\bLike the seed\b"), "Like {doc}"),
]


def name_documents(text: str, module: str | None = None) -> str:
    """``text`` with "seed 00N" (and, for a known ``module``, "the seed's example" and
    the like) replaced by what the source document is."""

    def numbered(m: re.Match[str]) -> str:
        names = [SOURCE_DOCUMENTS[m["a"]]]
        if m["b"]:
            names.append(SOURCE_DOCUMENTS[m["b"]])
        if m["poss"] or m["example"]:
            names[-1] += "'s"
        out = " and ".join(names)
        if m["example"]:
            out += m["example"]
        capital = m["word"][0] == "S" or (m["article"] or "").startswith("T")
        return out[0].upper() + out[1:] if capital else out

    text = _NUMBERED.sub(numbered, text)
    number = MODULE_DOCUMENTS.get(module or "")
    if number is not None:
        doc = SOURCE_DOCUMENTS[number]
        for pattern, repl in _GENERIC:
            if repl is not None:
                text = pattern.sub(repl.format(doc=doc), text)
    return text


# ---- generated include files -----------------------------------------------------------


def _rst_cell(text: str) -> str:
    """Plain text as one reStructuredText table cell: literal where it is a formula."""
    text = text.strip()
    if not text:
        return ""
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`").replace("|", "\\|")


def streams_table() -> str:
    from fastnoise.core import streams

    markdown_rows = streams.table_markdown().splitlines()[2:]
    if len(markdown_rows) != len(streams.STREAMS):
        raise RuntimeError("table_markdown() and STREAMS disagree on the number of streams")
    lines = [
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 14 12 22 40 12",
        "",
        "   * - model (``state['model']``)",
        "     - key tag",
        "     - stream id",
        "     - what it draws, in order",
        "     - limits",
    ]
    for s in streams.STREAMS:
        cells = [s.model, s.key_tag or "(the seed's own key)", s.stream, s.draws, s.limit]
        lines.append(f"   * - {_rst_cell(cells[0])}")
        lines.extend(f"     - {_rst_cell(c)}" for c in cells[1:])
    reserved = ", ".join(f"``{t}``" for t in streams.RESERVED_TAGS)
    lines += ["", f"Key tags reserved for models still to come: {reserved}.", ""]
    return "\n".join(lines)


def cli_help() -> dict[str, str]:
    from fastnoise import cli

    os.environ["COLUMNS"] = "88"  # argparse wraps to the terminal width
    registry = cli.commands()
    parser = cli.build_parser(registry)
    pages = {"fastnoise": parser.format_help()}
    package = str(Path(cli.__file__).resolve().parent.parent)
    for action in parser._subparsers._group_actions:  # the sub-parsers
        for name, sub in action.choices.items():
            # usage and options; the cli page describes each command in prose (argparse
            # reflows a description, lists included, into one paragraph)
            sub.description = None
            pages[name] = sub.format_help().replace(package, "<fastnoise package>")
    return {k: name_documents(v, f"fastnoise.cli.{k}") for k, v in pages.items()}


def cli_sections(registry: dict[str, Any] | None = None) -> str:
    """The CLI page's subcommand sections, one per command of the CLI registry in name
    order: its title, its one-line help, its page ``docs/cli/<name>.rst`` (what it does
    and a worked example) and its generated ``--help``. ValueError naming the missing
    page when a registered command has none, so a new subcommand cannot be left out."""
    from fastnoise import cli

    if registry is None:
        registry = cli.commands()
    parts = []
    for name, command in registry.items():
        page = Path(__file__).resolve().parent.parent / "cli" / f"{name}.rst"
        if not page.is_file():
            raise ValueError(
                f"the subcommand {name!r} has no page: write docs/cli/{name}.rst (what it "
                "does and a worked example); the CLI page includes one per command"
            )
        title = f"``fastnoise {name}``"
        parts.append(
            f"{title}\n{'~' * len(title)}\n\n{command.help[:1].upper()}{command.help[1:]}.\n\n"
            f".. include:: /cli/{name}.rst\n\n"
            f".. literalinclude:: /_generated/cli-{name}.txt\n   :language: text\n"
        )
    return "\n".join(parts)


def simd_line() -> str:
    import fastnoise
    from fastnoise.core.simd import simd_path, simd_paths_available

    return (
        f"fastnoise {fastnoise.__version__}: SIMD path {simd_path()}, "
        f"paths this CPU runs: {', '.join(simd_paths_available())}\n"
    )


def write_generated(app: Sphinx, config: object) -> None:
    GENERATED.mkdir(exist_ok=True)
    files = {
        "streams.rst.inc": streams_table(),
        "changelog.md.inc": name_documents((ROOT / "CHANGELOG.md").read_text("utf-8")),
        "contributing.md.inc": name_documents((ROOT / "CONTRIBUTING.md").read_text("utf-8")),
        "simd.txt": simd_line(),
    }
    for name, text in cli_help().items():
        files[f"cli-{name}.txt"] = text
    files["cli-commands.rst.inc"] = cli_sections()
    for name, text in files.items():
        path = GENERATED / name
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")  # unchanged files keep their time stamps


# ---- docstrings ------------------------------------------------------------------------

# "Parameters (m)" or "Parameters (all keyword-only; ...)" over a 10-dash underline:
# numpydoc sees no section, docutils a title whose underline is too short.
_SECTION_WITH_NOTE = re.compile(r"^(\s*)(Parameters|Returns|Notes) \((.+)\)\s*$")


_SECTION = re.compile(
    r"^(Parameters|Returns|Yields|Raises|Warns|Attributes|Notes|Examples|"
    r"References|See Also|Methods|Other Parameters)$"
)
_FIELD = re.compile(r"^[A-Za-z_][\w, ]* : \S")
# a type is a few words ("int, numpy.random.SeedSequence or None"); more is prose
_FIELD_TEXT = re.compile(r"^([A-Za-z_][\w, ]*) : (.+)$")
#: Docstrings whose "name : text" entries are descriptions, not types (step 3 below).
DESCRIPTION_AS_TYPE = ("TriadNoise",)


def _is_header(lines: list[str], i: int) -> bool:
    return (
        i + 1 < len(lines)
        and bool(_SECTION.match(lines[i].strip()))
        and set(lines[i + 1].strip()) == {"-"}
    )


def fix_sections(lines: list[str], name: str = "") -> None:
    """Repair what numpydoc cannot parse, in place (see the module docstring)."""
    # 1. "Parameters (m)" over a shorter underline: the note becomes a sentence
    for i in range(len(lines) - 1):
        m = _SECTION_WITH_NOTE.match(lines[i])
        if m and set(lines[i + 1].strip()) == {"-"}:
            indent, section, note = m.groups()
            lines[i] = f"{indent}{section}"
            lines[i + 1] = f"{indent}{'-' * len(section)}"
            if " " not in note:  # a unit: "Parameters (m)"
                sentence = f"Parameters in {note}."
            else:
                sentence = note[0].upper() + note[1:] + "."
            lines[i:i] = [f"{indent}{sentence}", ""]
            break
    # 2. free paragraphs after the last entry of a Parameters section (numpydoc would
    #    read each as a parameter): they go under Notes, when there is no Notes section
    has_notes = any(_is_header(lines, i) and lines[i].strip() == "Notes" for i in range(len(lines)))
    for i in range(len(lines)):
        if not (_is_header(lines, i) and lines[i].strip() == "Parameters"):
            continue
        j = i + 2
        while j < len(lines) and not _is_header(lines, j):
            line = lines[j]
            prose = (
                line.strip()
                and not line[0].isspace()
                and lines[j - 1].strip() == ""
                and not _FIELD.match(line)
                and len(line.split()) > 3
            )
            if prose and not has_notes:
                lines[j:j] = ["Notes", "-----"]
                break
            j += 1
        break
    # 3. "name : a whole description" (TriadNoise): numpydoc would typeset the
    #    description as the parameter's type; it moves to the next line, indented
    section = None
    i = 0
    while name.rsplit(".", 1)[-1] in DESCRIPTION_AS_TYPE and i < len(lines):
        if _is_header(lines, i):
            section = lines[i].strip()
            i += 2
            continue
        m = _FIELD_TEXT.match(lines[i])
        if section in ("Parameters", "Attributes", "Other Parameters") and m:
            field, text = m.groups()
            lines[i : i + 1] = [field, "    " + text]
            i += 1
        i += 1
    # 4. "name : text" lines of a docstring with no section at all (a NamedTuple's
    #    fields): an Attributes section
    if not any(_is_header(lines, i) for i in range(len(lines))):
        for i, line in enumerate(lines):
            if _FIELD.match(line) and (i == 0 or lines[i - 1].strip() == ""):
                lines[i:i] = ["Attributes", "----------"]
                break


def escape_bars(line: str) -> str:
    """``|z|`` outside literals is a substitution reference to docutils: escape it."""
    parts = re.split(r"(``.*?``)", line)
    return "".join(p if p.startswith("``") else p.replace("|", "\\|") for p in parts)


def _module_of(name: str, obj: object) -> str | None:
    module = getattr(obj, "__module__", None)
    if isinstance(module, str) and module in MODULE_DOCUMENTS:
        return module
    for candidate in MODULE_DOCUMENTS:
        if name == candidate or name.startswith(candidate + "."):
            return candidate
    if getattr(obj, "__objclass__", None) is not None:
        return getattr(obj.__objclass__, "__module__", None)
    return module if isinstance(module, str) else None


def process_docstring(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    fix_sections(lines, name)
    module = _module_of(name, obj)
    if module is None and "." in name:
        owner = name.rsplit(".", 1)[0]
        module = owner if owner in MODULE_DOCUMENTS else None
    for i, line in enumerate(lines):
        lines[i] = escape_bars(name_documents(line, module))


def process_signature(
    app: Sphinx,
    what: str,
    name: str,
    obj: object,
    options: object,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str, str | None] | None:
    """Keep autodoc's one-line signature of a Cython class whose docstring writes its
    signature over several lines (``Class(a, b,\n    c)\n--``): numpydoc would take
    ``__text_signature__`` with its newlines, and each line would become a signature
    of its own, none of them valid (the class would get no index entry)."""
    text_signature = getattr(obj, "__text_signature__", None)
    if signature and isinstance(text_signature, str) and "\n" in text_signature:
        return signature, return_annotation
    return None


# ---- the API reference covers fastnoise.__all__ ----------------------------------------


def check_api_coverage(app: Sphinx, env: object) -> None:
    import fastnoise

    objects = env.get_domain("py").objects  # type: ignore[attr-defined]
    missing = [n for n in fastnoise.__all__ if f"fastnoise.{n}" not in objects]
    if missing:
        logger.warning(
            "the API reference does not document fastnoise.%s (add it to docs/api/index.rst)",
            ", fastnoise.".join(missing),
        )


# ---- parameter tables from the model declarations -------------------------------------


def params_rst(target: str, caption: str | None = None) -> str:
    """The reStructuredText table of ``target``: a registered model's name (its
    parameters) or ``model.param`` (the entries of that parameter, as TriadNoise's
    fields for ``imu.gyro``). ValueError naming what is known for an unknown target."""
    from fastnoise.core import registry
    from fastnoise.core.spec import params_table

    name, _, param = target.partition(".")
    if name not in registry.names():
        raise ValueError(f"{name!r} is no registered model: use one of {registry.names()}")
    decl = registry.get(name)
    if not param:
        if not decl.params:
            raise ValueError(f"model {name!r} declares no parameters")
        return params_table(decl.params, caption or f"Parameters of ``{name}``")
    try:
        spec = decl.param(param)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    if not spec.fields:
        raise ValueError(f"parameter {target!r} has no entries (fields) to list")
    return params_table(spec.fields, caption or f"Entries of ``{target}``")


class ParamsDirective(SphinxDirective):
    """``.. fastnoise-params:: model[.param]`` with an optional ``:caption:``."""

    required_arguments = 1
    option_spec = {"caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        try:
            text = params_rst(self.arguments[0], self.options.get("caption"))
        except ValueError as exc:
            raise self.error(f"fastnoise-params: {exc}") from None
        source = self.get_source_info()[0]
        node = nodes.container()
        self.state.nested_parse(
            StringList(text.splitlines(), source=f"{source} (fastnoise-params)"),
            self.content_offset,
            node,
        )
        return node.children


def setup(app: Sphinx) -> dict[str, object]:
    app.add_directive("fastnoise-params", ParamsDirective)
    app.connect("config-inited", write_generated)
    app.connect("autodoc-process-docstring", process_docstring, priority=100)
    app.connect("autodoc-process-signature", process_signature, priority=100)
    app.connect("env-check-consistency", check_api_coverage)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
