"""What one app instance owns: its settings, its result cache, its machine cache and its readiness."""

from __future__ import annotations

import asyncio
import gc
import logging
from dataclasses import dataclass, field

from starlette.requests import Request

from app.api.cache import ResultCache
from app.api.machine_cache import MachineCache
from app.core.shape.batch import warm as warm_batch
from app.core.shape.tables import tables
from app.settings import Settings

logger = logging.getLogger("app.api")


@dataclass
class Readiness:
    """Whether the core's lookup tables are built (they are built once per process)."""

    tables_built: bool = False
    build_seconds: float | None = None
    failed: bool = False

    async def build_tables(self) -> None:
        """Build the tables off the event loop, so /health answers meanwhile."""
        try:
            built = await asyncio.to_thread(tables)
            await asyncio.to_thread(warm_batch)
        except Exception:
            self.failed = True
            logger.exception("building the lookup tables failed")
            return
        self.build_seconds = built.build_seconds
        settle_the_heap()
        self.tables_built = True


def settle_the_heap() -> None:
    """Collect start-up's garbage, then move every object alive (modules, the core's tables and
    caches) to the collector's permanent generation.

    A full collection walks every tracked object; with start-up's millions it took about 50 ms,
    holding the GIL, and heavy work (a wildcard batch) triggers one every few hundred milliseconds,
    so a cheap request's p99 reached 50-60 ms.  Without them it takes 1-2 ms.  Objects made
    later are collected as usual.
    """
    gc.collect()
    gc.freeze()


@dataclass
class ServiceState:
    """Held in ``app.state.service``; the only state shared between requests."""

    settings: Settings
    cache: ResultCache
    #: The table machines /act resumes growing logs from (:mod:`app.api.machine_cache`).
    machines: MachineCache
    readiness: Readiness = field(default_factory=Readiness)

    @classmethod
    def create(cls, settings: Settings) -> ServiceState:
        return cls(
            settings,
            ResultCache(settings.cache_size, max_bytes=settings.cache_bytes),
            MachineCache(settings.act_machines, max_bytes=settings.act_machine_bytes),
        )


def service_state(request: Request) -> ServiceState:
    """The state of the app serving ``request`` (hot routes read it directly, without a dependency)."""
    return request.app.state.service  # type: ignore[no-any-return]
