"""Every request of the README's tour gets the answer the README shows.

The tour pairs a ``curl`` command with the JSON it answers; each pair is replayed
against the app (the body, the path, the method) and the answers compared as
JSON.  Three answers once went stale when ``/shanten`` gained the knitted forms.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

README = Path(__file__).resolve().parents[2] / "README.md"
_EXAMPLE = re.compile(r"```sh\n(curl [^\n]*)\n```\n```json\n(.*?)\n```", re.S)


def _examples() -> list[tuple[str, str | None, str]]:
    """(path, body or None for a GET, the answer shown) of each curl command followed by its JSON."""
    examples = []
    for command, answer in _EXAMPLE.findall(README.read_text(encoding="utf-8")):
        words = shlex.split(command)
        url = next(word for word in words if word.startswith("localhost:8000"))
        body = words[words.index("-d") + 1] if "-d" in words else None
        examples.append((url.removeprefix("localhost:8000"), body, answer))
    return examples


EXAMPLES = _examples()


def test_the_tour_has_examples() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("path", "body", "answer"), EXAMPLES, ids=[f"{p} {i}" for i, (p, _, _) in enumerate(EXAMPLES)])
def test_each_example_answers_as_shown(client: TestClient, path: str, body: str | None, answer: str) -> None:
    if body is None:
        response = client.get(path)
    else:
        response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.json() == json.loads(answer)
