"""Fixtures of the operations tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from ops_helpers import started


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give each schemathesis test its operation in its node id, as its name has.

    Under pytest 9 (schemathesis 4.32.5) the node id is built from the function's original
    name alone, so all seventeen operations shared one id, and pytest-xdist, which schedules
    by id, ran one of them.
    """
    for item in items:
        label = getattr(item, "operation_label", None)
        if label is None or item.nodeid.endswith(f"[{label}]"):
            continue
        if hasattr(item, "_id"):  # pytest 9 keeps the id as a structure with its own parser
            item._id = type(item._id).parse(f"{item.nodeid}[{label}]")
        else:
            item._nodeid = f"{item.nodeid}[{label}]"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One started app with default settings for the module."""
    client = started()
    yield client
    client.__exit__(None, None, None)
