"""The README is a short front page whose tour answers exactly as shown; the docs hold.

The README and every page of ``docs/`` pair ``curl`` commands with the JSON they answer
(a block of N commands, then a block of N answers, one a line); each request is replayed
against the app (the path, the method, the body) and its answer must be the text shown,
byte for byte, as the service renders it.  Answers once went stale when ``/shanten``
gained the knitted forms, and a block of two commands went unchecked with its keys in
another order than the service writes them.

The README stays under :data:`README_MAX_LINES`; the long reference lives in ``docs/``,
and every link and every repository path these pages name must exist.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 250
#: A block of curl commands (one a line), then a block of their answers (one a line).
_EXAMPLE = re.compile(r"```sh\n((?:curl [^\n]*\n)+)```\n```json\n(.*?)\n```", re.S)
#: Markdown links whose target is in this repository (no scheme); the anchor apart.
_LINK = re.compile(r"\]\((?![a-z]+:)([^)#\s]*)(?:#([^)\s]*))?\)")
#: A repository path in backticks: app/..., tests/..., with an optional ``::test`` suffix.
_PATH = re.compile(r"`((?:app|tests|scripts|deploy|bench|docs|openapi|\.ci)/[\w./-]*)(?:::\w+)?`")


def _examples(page: Path) -> list[tuple[str, str | None, str]]:
    """(path, body or None for a GET, the answer shown) of each curl command of ``page``."""
    examples = []
    for commands, answers in _EXAMPLE.findall(page.read_text(encoding="utf-8")):
        commands, answers = commands.strip().split("\n"), answers.split("\n")
        assert len(commands) == len(answers), f"{page.name}: {len(commands)} commands, {len(answers)} answers"
        for command, answer in zip(commands, answers, strict=True):
            words = shlex.split(command)
            url = next(word for word in words if word.startswith("localhost:8000"))
            body = words[words.index("-d") + 1] if "-d" in words else None
            examples.append((url.removeprefix("localhost:8000"), body, answer))
    return examples


EXAMPLES = [(page.relative_to(ROOT).as_posix(), *example) for page in PAGES for example in _examples(page)]


def test_the_readme_is_a_short_front_page() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < README_MAX_LINES, f"README.md has {lines} lines; move the long parts to docs/"


def test_the_tour_has_examples() -> None:
    assert sum(page == "README.md" for page, *_ in EXAMPLES) >= 8
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize(
    ("page", "path", "body", "answer"),
    EXAMPLES,
    ids=[f"{page} {i} {path}" for i, (page, path, _, _) in enumerate(EXAMPLES)],
)
def test_each_example_answers_as_shown(client: TestClient, page: str, path: str, body: str | None, answer: str) -> None:
    if body is None:
        response = client.get(path)
    else:
        response = client.post(path, content=body, headers={"content-type": "application/json"})
    if path == "/limits":
        # The one machine-specific value: where this process keeps its hosted tables (the suite
        # keeps them in a temporary file); the page shows the default's place.
        shown = json.loads(answer)
        served = response.json()
        assert served["tables"]["store"]["kind"] == shown["tables"]["store"]["kind"]
        served["tables"]["store"] = shown["tables"]["store"]
        assert json.dumps(served, separators=(",", ":"), ensure_ascii=False) == answer
        return
    assert response.text == answer


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors of the headings of ``page``: lower case, punctuation dropped, spaces to dashes."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_links_and_paths_lead_somewhere(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target, anchor in _LINK.findall(text):
        linked = (page.parent / target).resolve() if target else page
        assert linked.exists(), f"{page.name} links to {target}, which does not exist"
        if anchor:
            assert anchor in _anchors(linked), f"{page.name} links to {target}#{anchor}, which has no such heading"
    for path in _PATH.findall(text):
        assert (ROOT / path).exists(), f"{page.name} names {path}, which does not exist"
