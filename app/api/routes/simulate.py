"""POST /simulate: a small seeded self-play run, answered with the same report as the CLI.

Each game costs 3 to 20 milliseconds of CPU, so the number of games one request
may ask for is capped (``TENPAI_MAX_SIMULATE_GAMES``); bigger runs belong to
``python -m app.selfplay``, which uses every core.  Reports are deterministic,
so a finished one is kept in the result cache under its exact settings.

A run is a heavy request (:mod:`app.api.heavy`): it counts against
``TENPAI_MAX_HEAVY_REQUESTS``, and it stops between games when its client leaves
or its wall-clock budget, :func:`simulate_seconds`, runs out.  The budget grows
with the games asked for, at :data:`SECONDS_PER_GAME` (over twice the slowest
lineup's cost), so a run finishes unless the process is overloaded; one cut
short answers the report of the games it played (the same as a shorter run of the
same seed), flagged ``complete: false`` with ``games_requested``, and is not cached.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Final

from fastapi import APIRouter, Body, Request, Response

from app.api.errors import error_responses
from app.api.heavy import Budget, Finished, answer_heavy
from app.api.questions import ask_game
from app.api.request_path import BodyRoute
from app.api.schemas.simulate import SimulateRequest, SimulateResponse
from app.api.state import service_state
from app.core.table.simulator import GameConfig
from app.selfplay.report import build_report
from app.selfplay.runner import run_games

router = APIRouter(tags=["simulate"], route_class=BodyRoute)
_ERRORS = error_responses(413, 422, 500, 503)

SECONDS_PER_GAME: Final = 1.2
"""Wall-clock budget of one game in a /simulate run: over twice the slowest lineup's mean
(four riichi advisors, whose expected-score searches take 0.58 s a game; the linear
strategies 3 to 20 ms; MCR's fan planner up to about 100 ms)."""


def simulate_seconds(games: int, heavy_seconds: float) -> float:
    """The wall-clock budget of a /simulate run of ``games``: ``heavy_seconds`` or
    :data:`SECONDS_PER_GAME` a game, whichever is longer.

    >>> simulate_seconds(1, 2.0), simulate_seconds(200, 2.0)
    (2.0, 240.0)
    """
    return max(heavy_seconds, games * SECONDS_PER_GAME)


@router.post(
    "/simulate",
    response_model=SimulateResponse,
    operation_id="simulate",
    summary="Seeded self-play: win, deal-in and tenpai statistics per seat",
    responses=_ERRORS,
)
async def simulate(body: Annotated[SimulateRequest, Body()], request: Request) -> Response:
    """Play `games` hands of one strategy per seat under `rules` (four seats; three under sanma,
    with kita), dealer rotating, seeded from
    `seed`, and report per seat: win rate, deal-in rate, self-draw share, tenpai rate and
    average tenpai turn, average payment, the average points and han of a win (riichi pays
    Tenhou's points: dora, ura dora, riichi, ippatsu and the situational yaku), the riichi
    rate, the shanten curve by turn, with 95% intervals;
    per table the exhaustive-draw and deal-in rates; and pairwise win-rate and payment differences
    between strategies. The same request always gives the same report; a lineup that does not
    seat the rules' players is a 422 at `players`.

    A run is a heavy request: its wall-clock budget is TENPAI_HEAVY_SECONDS or 1.2 s a game,
    whichever is longer (a run cut short reports the games it played, with `complete: false`),
    and beyond TENPAI_MAX_HEAVY_REQUESTS at once the answer is a 503 `too_busy` with `Retry-After`."""
    settings = service_state(request).settings
    config = ask_game(body, max_games=settings.max_simulate_games)
    key = ("simulate", config, body.games)
    seconds = simulate_seconds(body.games, settings.heavy_seconds)
    return await answer_heavy(request, key, partial(play_report, config, body.games), seconds=seconds)


def play_report(config: GameConfig, games: int, budget: Budget) -> Finished:
    """The report of ``games`` games of ``config``, rendered, stopping between games when ``budget``
    says so (its deadline passed, its client left); a short run's report is flagged and its ``complete`` false."""
    results = run_games(config, games, stop=budget.passed)
    report = build_report(config, results)
    complete = len(results) == games
    if not complete:
        report |= {"complete": False, "games_requested": games}
    # exclude_unset: a complete report is exactly the CLI's document, without the two flags.
    return Finished(SimulateResponse.model_validate(report).model_dump_json(exclude_unset=True).encode(), complete)
