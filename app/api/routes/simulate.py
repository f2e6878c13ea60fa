"""POST /simulate: a small seeded self-play run, answered with the same report as the CLI.

The games are the table machine's (:func:`app.core.table.game.play_game`), one hand each by
default, or an East round or a hanchan (``length``: riichi and sanma, by Tenhou's rules).  A hand costs 3 ms (the linear strategies against
the simple ones) to 2 s of CPU (four riichi advisors, 0.9 s on average), and a hanchan is
about ten hands, so the number of games one request may ask for is capped
(``TENPAI_MAX_SIMULATE_GAMES``, whatever their length), and so is its wall-clock time
(``TENPAI_SIMULATE_SECONDS``, 10 s), which is the bound a run of long games meets first;
bigger runs belong to ``python -m app.selfplay``, which uses every core (or Ray).  Reports
are deterministic, so a finished one is kept in the result cache under its exact settings.

A run is a heavy request (:mod:`app.api.heavy`): it counts against
``TENPAI_MAX_HEAVY_REQUESTS``, and it stops when its client leaves or its time runs
out, within milliseconds: the stop is heard between turns and inside the advisor's
search.  The game in play is then abandoned, so a run cut short answers the report of
the games it finished (the same as a shorter run of the same seed), flagged
``complete: false`` with ``games_requested``, and is not cached.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from app.api.errors import error_responses
from app.api.heavy import Budget, Finished, answer_heavy
from app.api.questions import ask_game
from app.api.request_path import BodyRoute
from app.api.schemas.simulate import SimulateRequest, SimulateResponse
from app.api.state import service_state
from app.core.errors import TenpaiError
from app.core.table.game import GameConfig
from app.selfplay.report import build_report
from app.selfplay.runner import run_games


class SelfPlayFailed(RuntimeError):
    """An engine error raised inside a self-play game: a bug of the service, answered 500."""


router = APIRouter(tags=["simulate"], route_class=BodyRoute)
_ERRORS = error_responses(413, 422, 500, 503)


@router.post(
    "/simulate",
    response_model=SimulateResponse,
    operation_id="simulate",
    summary="Seeded self-play: win, deal-in, tenpai and placement statistics per seat",
    responses=_ERRORS,
)
async def simulate(body: Annotated[SimulateRequest, Body()], request: Request) -> Response:
    """Play `games` games of one strategy per seat under `rules` (four seats; three under sanma,
    with kita), each one hand (`length` kyoku, the default), an East round (tonpuu) or a hanchan,
    by Tenhou's rules under riichi and sanma (honba, riichi sticks, double ron, abortive draws,
    noten payments, renchan and the end of the game). Game g seats the lineup rotated by g, so
    each seat of `players` deals first equally often. Seeded from `seed`, the report gives per
    seat of `players`, over every hand: win rate, deal-in rate, self-draw share, tenpai rate and
    average tenpai turn, average payment, the average points and han of a win (riichi pays
    Tenhou's points: dora, ura dora, riichi, ippatsu and the situational yaku), the riichi
    rate, the shanten curve by turn; over every game: average rank, rank points (90, 45, 0,
    -135; sanma 90, 0, -135), the rate of each place and the final score; all with 95% intervals;
    per table the draw, deal-in and self-draw rates; pairwise win-rate, payment and rank-point
    differences between strategies; and each game's final scores and places. The same request
    always gives the same report; a lineup that does not seat the rules' players is a 422 at
    `players`, a `length` other than kyoku under a preset played one hand a game (chinese, mcr,
    qiqihar) a 422 at `length`.

    A run is a heavy request: it answers within TENPAI_SIMULATE_SECONDS (10 s unless set), and a
    run cut short by that bound reports the games it finished, with `complete: false` and
    `games_requested` (its figures are over the `games` played); a client that leaves stops
    its run within milliseconds. Beyond TENPAI_MAX_HEAVY_REQUESTS at once the answer is a 503
    `too_busy` with `Retry-After`. Longer runs: `python -m app.selfplay`."""
    settings = service_state(request).settings
    config = ask_game(body, max_games=settings.max_simulate_games)
    key = ("simulate", config, body.games)
    return await answer_heavy(request, key, partial(play_report, config, body.games), seconds=settings.simulate_seconds)


def play_report(config: GameConfig, games: int, budget: Budget) -> Finished:
    """The report of ``games`` games of ``config``, rendered, stopping as soon as ``budget`` says so
    (its deadline passed, its client left): then the report is of the games finished, flagged, and
    ``complete`` is false."""
    try:
        results = run_games(config, games, stop=budget.passed)
    except TenpaiError as error:
        # The request was checked before the games; an engine error inside one is ours (a 500,
        # logged with the game's seed), never the client's error at a field it did not send.
        raise SelfPlayFailed(f"self-play seed {config.seed} failed: {error.code}: {error.message}") from error
    report = build_report(config, results)
    complete = len(results) == games
    if not complete:
        report |= {"complete": False, "games_requested": games}
    # exclude_unset: a complete report is exactly the CLI's document, without the two flags.
    return Finished(SimulateResponse.model_validate(report).model_dump_json(exclude_unset=True).encode(), complete)
