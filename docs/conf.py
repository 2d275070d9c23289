"""Sphinx configuration of the fastnoise documentation.

Build (from the repository root, against the installed package)::

    sphinx-build -W --keep-going -b html docs docs/_build/html

The API reference is generated from the installed ``fastnoise`` (its docstrings); the
stream table, the CLI help, the changelog and the contributing guide are written into
``docs/_generated/`` by ``_ext/fastnoise_docs.py`` at every build.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import fastnoise

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "fastnoise"
author = "fastnoise contributors"
copyright = "fastnoise contributors (MIT licence)"
release = fastnoise.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "fastnoise_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
# _generated/ holds include files; perf/ the measuring script and its raw output
# cli/ the per-subcommand pages that cli.rst includes (through the generated sections)
exclude_patterns = ["_build", "_generated", "perf", "cli/*", "Thumbs.db", ".DS_Store"]
# no network on the build machines: no intersphinx, no remote images
suppress_warnings = [
    # CHANGELOG.md (Keep a Changelog) puts "### Output streams" right under its title
    "myst.header",
]

# numpydoc also parses the raw docstrings (for signatures) and warns, as a Python
# warning, about "Parameters (m)" headers over a shorter underline, which
# _ext/fastnoise_docs.py repairs before the docstrings are rendered (LidarNoise,
# RangeNoise): not a Sphinx warning, so only noise in the log.
warnings.filterwarnings(
    "ignore", message="potentially wrong underline length", category=UserWarning
)

# No sphinx.ext.viewcode: the compiled modules have no source in the wheel, and the
# Python sources' comments cite the source documents by their file numbers.

# ---- autodoc / autosummary / numpydoc --------------------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # numpydoc's Parameters sections carry the types and units
autodoc_inherit_docstrings = True
# numpydoc renders the Methods/Attributes tables itself only when asked; the class
# template lists the members with autodoc instead
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()
# Cython methods carry their signature in the compiled object (binding=True)
autodoc_docstring_signature = True

# Cross-references are not nitpicky: the type fields of the docstrings name numpy and
# standard-library types that have no inventory here (intersphinx needs the network).
nitpicky = False

# ---- MyST (the included CHANGELOG.md / CONTRIBUTING.md) -------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3

# ---- HTML ------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"fastnoise {release}"
html_static_path = ["_static"]
html_css_files = ["fastnoise.css"]
# the top-level pages have no sub-pages: no section navigation, room for the tables
html_sidebars = {
    page: []
    for page in (
        "index",
        "getting-started",
        "reproducibility",
        "peers",
        "conventions",
        "performance",
        "cli",
        "changelog",
        "contributing",
    )
}
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "navbar_align": "left",
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    # the pages of wide tables give the width of the page's table of contents to them
    "secondary_sidebar_items": {
        "**": ["page-toc"],
        "peers": [],
        "conventions": [],
        "performance": [],
    },
}
html_show_sourcelink = False
html_last_updated_fmt = None
