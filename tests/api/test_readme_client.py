"""The README's Python client example runs as written and prints what the README shows.

The example talks to ``http://localhost:8000`` with ``httpx.Client``; here every
``httpx.Client`` it makes gets a transport that hands each request to the app in this
process, and nothing else about the code changes.  What it prints must be the
``text`` block that follows it in the README, line for line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

README = Path(__file__).resolve().parents[2] / "README.md"
_CLIENT_EXAMPLE = re.compile(r"```python\n(.*?)```\n```text\n(.*?)```", re.S)
BASE_URL = "http://localhost:8000"


def _the_example() -> tuple[str, str]:
    """(the code, what the README says it prints) of the README's one Python example."""
    found = _CLIENT_EXAMPLE.findall(README.read_text(encoding="utf-8"))
    assert len(found) == 1, f"expected one python block followed by its output, found {len(found)}"
    code, printed = found[0]
    return code, printed


def _to_the_app(client: TestClient) -> httpx.MockTransport:
    """A transport that answers each request from the app behind ``client``."""

    def answer(request: httpx.Request) -> httpx.Response:
        response = client.send(request)
        return httpx.Response(response.status_code, headers=response.headers, content=response.content)

    return httpx.MockTransport(answer)


def test_the_example_talks_to_the_set_up_service() -> None:
    code, _ = _the_example()
    assert f'base_url="{BASE_URL}"' in code
    assert "import httpx" in code


def test_the_example_prints_what_the_readme_shows(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, printed = _the_example()
    transport = _to_the_app(client)
    asked: list[str] = []

    def note_the_address(request: httpx.Request) -> None:
        asked.append(str(request.url))

    class ClientOfTheApp(httpx.Client):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, transport=transport, event_hooks={"request": [note_the_address]}, **kwargs)

    monkeypatch.setattr(httpx, "Client", ClientOfTheApp)
    exec(compile(code, str(README), "exec"), {"__name__": "readme_example"})

    assert capsys.readouterr().out == printed
    assert asked and all(url.startswith(f"{BASE_URL}/") for url in asked), asked
