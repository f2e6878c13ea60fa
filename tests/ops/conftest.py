"""Fixtures of the operations tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from ops_helpers import started


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One started app with default settings for the module."""
    client = started()
    yield client
    client.__exit__(None, None, None)
