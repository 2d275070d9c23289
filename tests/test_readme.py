"""The README's Python examples run as written (they are what a newcomer copies)."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_readme_starts_with_the_newcomers_two_commands():
    """The first code block is the two commands (demo, tests), and what they name
    exists: the console script and the test extra."""
    import tomllib

    first = re.search(r"```bash\n(.*?)```", README.read_text(), re.S).group(1)
    commands = [line.split("#")[0].strip() for line in first.strip().splitlines()]
    assert commands == [
        "pip install . && fastnoise demo",
        'pip install ".[test]" && python -m pytest',
    ]
    project = tomllib.loads((README.parent / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["fastnoise"].startswith("fastnoise.")
    assert "test" in project["optional-dependencies"]


def test_readme_names_only_public_api():
    import fastnoise

    used = set()
    for code in BLOCKS:
        used |= set(re.findall(r"\bfn\.([A-Za-z_]\w*)", code))
        used |= set(re.findall(r"\bfastnoise\.([A-Za-z_]\w*)", code))
    assert used, "the README shows no fastnoise call"
    assert used <= set(fastnoise.__all__) | {"__version__"}, used - set(fastnoise.__all__)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(code):
    exec(compile(code, str(README), "exec"), {})
