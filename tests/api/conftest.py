"""Fixtures for the HTTP tests: clients whose app has started and is ready."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from api_helpers import started
from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One app for the module (its cache fills as tests run)."""
    client = started()
    yield client
    client.__exit__(None, None, None)


@pytest.fixture
def fresh_client() -> Iterator[TestClient]:
    """A client with its own app, hence its own empty cache."""
    client = started()
    yield client
    client.__exit__(None, None, None)
