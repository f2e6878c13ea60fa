"""Schemathesis against the live OpenAPI document: every operation, generated requests, no 5xx.

The app is driven in-process (ASGI) with its lifespan run once, so the tables are
built and /ready answers 200. Every response must match its documented status,
content type, headers and schema, and a request the schema forbids must be refused.

One check is left out: ``positive_data_acceptance`` wants every schema-valid
request answered 2xx, but the schema cannot say that a pon is three equal tiles
or that a hand has at most four copies of a tile; such requests are 422s by the
HTTP contract.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from app.main import create_app
from app.settings import Settings

pytestmark = pytest.mark.slow

# Schemathesis runs several phases (examples, coverage, fuzzing; valid and invalid
# data) per operation, so each POST operation gets a few hundred requests from this:
# 215 (/simulate) to 775 (/discard), most from the coverage phase, which does not depend
# on it.  300 added 200 fuzzed requests an operation for twice the time (95 s of CPU).
MAX_EXAMPLES = 100
MIN_BODY_CASES = 50  # generated requests each operation with a request body must get (others: one)

# Two games at most per generated /simulate request: a game costs about 20 ms.
APP = create_app(Settings(max_simulate_games=2))
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture
def requests_made() -> Iterator[list[tuple[str, bool]]]:
    """(label, has a request body) of each request one operation's test sends; checked when it ends.

    Each operation's test counts its own requests, so no test depends on another's state.
    """
    made: list[tuple[str, bool]] = []
    yield made
    assert made, "no request was generated"
    label, has_body = made[0]
    minimum = MIN_BODY_CASES if has_body else 1
    assert len(made) >= minimum, f"{label}: only {len(made)} generated requests"


@SCHEMA.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_every_operation_answers_as_documented(case: schemathesis.Case, requests_made: list[tuple[str, bool]]) -> None:
    requests_made.append((case.operation.label, len(case.operation.body) > 0))
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
