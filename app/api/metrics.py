"""Prometheus metrics of one app, served at ``GET /metrics``.

* ``tenpai_http_requests_total`` and ``tenpai_http_request_duration_seconds``, by
  method, route template (``/shanten``, never a raw path: an unknown path is
  ``unmatched``) and status; ``tenpai_http_requests_in_progress``;
* ``tenpai_http_errors_total`` by the ``type`` code of the error envelope
  (``invalid_notation``, ``unauthorized``, ...; ``http_<status>`` for an error
  answer without an envelope);
* hosted tables, once the process has opened its store: ``tenpai_tables_open``,
  ``tenpai_table_actions_total``, ``tenpai_table_deadlines_fired_total``,
  ``tenpai_tables_autoplay_seats``, ``tenpai_tables_opened_total``, ``tenpai_table_replays_total``,
  ``tenpai_table_conflicts_total``;
* ``tenpai_cache_hits_total``, ``tenpai_cache_misses_total``, ``tenpai_cache_entries``,
  ``tenpai_cache_max_entries``, ``tenpai_ready`` and ``tenpai_tables_build_seconds``,
  read from the app's state when scraped, so the hot path does not pay for them;
* the same of ``/act``'s table machines (:mod:`app.api.machine_cache`):
  ``tenpai_act_machine_hits_total`` (requests resumed from a kept prefix),
  ``tenpai_act_machine_misses_total`` (replayed from the start), ``tenpai_act_machine_entries``,
  ``tenpai_act_machine_bytes``, ``tenpai_act_machine_max_entries`` and ``tenpai_act_machine_max_bytes``;
* the process collector's ``process_resident_memory_bytes``, CPU and file descriptors.

Requests are counted by :class:`~app.api.observe.Observe`, on the event loop,
in plain integers (a dictionary look-up, a bisection and three additions per
request: prometheus-client's own counters take a lock per update, which costs
more than a cached answer); the collector turns them into metric families when
``/metrics`` is scraped, on the same loop. Each app owns its registry (tests build
many apps in one process). Figures are per process: with ``TENPAI_WORKERS`` above 1
a scrape sees the worker that answered it, so run one worker per container (or
pod) and scale out with replicas when you scrape.

>>> from app.settings import Settings
>>> from app.api.state import ServiceState
>>> metrics = Metrics(ServiceState.create(Settings()))
>>> metrics.observe("POST", "/shanten", 200, 0.0004)
>>> metrics.count_error("invalid_notation")
>>> text = metrics.exposition().decode()
>>> 'tenpai_http_requests_total{method="POST",route="/shanten",status="200"} 1.0' in text
True
>>> 'tenpai_http_errors_total{code="invalid_notation"} 1.0' in text, "tenpai_cache_misses_total 0.0" in text
(True, True)
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from typing import Final

from prometheus_client import CollectorRegistry, ProcessCollector, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from app.api.state import ServiceState
from app.api.table_host import TableHost

#: The content type of :meth:`Metrics.exposition` (Prometheus text format 0.0.4).
CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"

#: Route label of a request that matched no route (a 404): raw paths would be unbounded.
UNMATCHED: Final = "unmatched"

# A single-hand answer takes tens of microseconds, a full batch up to about a second.
LATENCY_BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_BUCKET_LABELS: Final = (*(repr(bound) for bound in LATENCY_BUCKETS), "+Inf")

_ERROR_CODE: Final = re.compile(r"[a-z][a-z0-9_]{0,63}")


class _Series:
    """Requests of one (method, route, status): count, total seconds, per-bucket counts."""

    __slots__ = ("buckets", "count", "seconds")

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self.buckets = [0] * (len(LATENCY_BUCKETS) + 1)  # the last one is +Inf


class Metrics:
    """The registry of one app and the counts its requests update."""

    def __init__(self, state: ServiceState, tables: TableHost | None = None) -> None:
        self.in_progress = 0
        self.tables = tables
        self._series: dict[tuple[str, str, int], _Series] = {}
        self._errors: dict[str, int] = {}
        self.registry = CollectorRegistry(auto_describe=True)
        self.registry.register(_Collector(self, state))
        ProcessCollector(registry=self.registry)

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one answered request."""
        series = self._series.get((method, route, status))
        if series is None:
            series = self._series[(method, route, status)] = _Series()
        series.count += 1
        series.seconds += seconds
        series.buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1

    def count_error(self, code: str) -> None:
        """Count one error answer by its envelope's ``type`` (anything odd becomes ``other``)."""
        code = code if _ERROR_CODE.fullmatch(code) else "other"
        self._errors[code] = self._errors.get(code, 0) + 1

    def exposition(self) -> bytes:
        """Every metric in the Prometheus text format."""
        return generate_latest(self.registry)


class _Collector(Collector):
    """The request counts, the cache counters and readiness, as metric families at scrape time."""

    def __init__(self, metrics: Metrics, state: ServiceState) -> None:
        self._metrics = metrics
        self._state = state

    def collect(self) -> Iterator[Metric]:
        yield from self._requests()
        yield from self._tables()
        stats = self._state.cache.stats()
        readiness = self._state.readiness
        yield CounterMetricFamily("tenpai_cache_hits", "Answers served from the result cache.", value=stats.hits)
        yield CounterMetricFamily("tenpai_cache_misses", "Questions the result cache did not hold.", value=stats.misses)
        yield GaugeMetricFamily("tenpai_cache_entries", "Answers in the result cache now.", value=stats.size)
        yield GaugeMetricFamily(
            "tenpai_cache_max_entries", "Bound of the result cache (TENPAI_CACHE_SIZE).", value=stats.max_size
        )
        yield from self._machines()
        yield GaugeMetricFamily(
            "tenpai_ready", "1 once the lookup tables are built, else 0.", value=int(readiness.tables_built)
        )
        if readiness.build_seconds is not None:
            yield GaugeMetricFamily(
                "tenpai_tables_build_seconds",
                "How long the lookup tables took to build.",
                value=readiness.build_seconds,
            )

    def _tables(self) -> Iterator[Metric]:
        """Hosted tables: only once this process has opened its store (a scrape opens nothing)."""
        host = self._metrics.tables
        if host is None or not host.opened:
            return
        service = host.service
        with service._counting:
            counters = dict(service.counters)
        yield CounterMetricFamily(
            "tenpai_table_actions", "Seat actions through the API stored by this process.", value=counters["actions"]
        )
        yield CounterMetricFamily(
            "tenpai_table_deadlines_fired",
            "Decisions this process's clock made for a client seat out of time (the seat goes to auto-play).",
            value=counters["deadlines_fired"],
        )
        yield CounterMetricFamily(
            "tenpai_tables_opened", "Tables opened by this process.", value=counters["tables_opened"]
        )
        yield CounterMetricFamily(
            "tenpai_table_replays",
            "Games this process rebuilt from their stored answers (not held, or held behind another replica).",
            value=counters["replays"],
        )
        yield CounterMetricFamily(
            "tenpai_table_conflicts",
            "Commits this process lost to another writer of the same table (retried or answered 409).",
            value=counters["conflicts"],
        )
        yield GaugeMetricFamily(
            "tenpai_tables_autoplay_seats",
            "Seats in auto-play at the tables this process changed last.",
            value=service.autoplay_seats(),
        )
        try:
            open_tables = service.open_tables()
        except Exception:  # noqa: BLE001 - a store that cannot answer now: the scrape still answers
            return
        yield GaugeMetricFamily(
            "tenpai_tables_open", "Hosted tables with activity within TENPAI_TABLE_IDLE_SECONDS.", value=open_tables
        )

    def _machines(self) -> Iterator[Metric]:
        stats = self._state.machines.stats()
        yield CounterMetricFamily(
            "tenpai_act_machine_hits", "/act requests resumed from a kept table machine.", value=stats.hits
        )
        yield CounterMetricFamily(
            "tenpai_act_machine_misses", "/act requests whose events no kept table machine began.", value=stats.misses
        )
        yield GaugeMetricFamily("tenpai_act_machine_entries", "Table machines kept for /act now.", value=stats.size)
        yield GaugeMetricFamily(
            "tenpai_act_machine_bytes", "Bytes of the table machines kept for /act now.", value=stats.bytes
        )
        yield GaugeMetricFamily(
            "tenpai_act_machine_max_entries",
            "Bound of the /act machine cache in machines (TENPAI_ACT_MACHINES).",
            value=stats.max_size,
        )
        yield GaugeMetricFamily(
            "tenpai_act_machine_max_bytes",
            "Bound of the /act machine cache in bytes (TENPAI_ACT_MACHINE_BYTES).",
            value=stats.max_bytes,
        )

    def _requests(self) -> Iterator[Metric]:
        metrics = self._metrics
        labels = ["method", "route", "status"]
        requests = CounterMetricFamily(
            "tenpai_http_requests", "HTTP requests answered, by method, route template and status.", labels=labels
        )
        latency = HistogramMetricFamily(
            "tenpai_http_request_duration_seconds",
            "Time from a request's arrival to the last byte of its answer, by method, route template and status.",
            labels=labels,
        )
        for (method, route, status), series in list(metrics._series.items()):
            values = [method, route, str(status)]
            requests.add_metric(values, series.count)
            cumulative, buckets = 0, []
            for bound, count in zip(_BUCKET_LABELS, series.buckets, strict=True):
                cumulative += count
                buckets.append((bound, cumulative))
            latency.add_metric(values, buckets, series.seconds)
        errors = CounterMetricFamily(
            "tenpai_http_errors",
            "Error answers (status 400 and above) by the type code of their error envelope.",
            labels=["code"],
        )
        for code, count in list(metrics._errors.items()):
            errors.add_metric([code], count)
        yield requests
        yield latency
        yield errors
        yield GaugeMetricFamily(
            "tenpai_http_requests_in_progress", "Requests being answered now.", value=metrics.in_progress
        )
