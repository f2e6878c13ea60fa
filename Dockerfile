# tenpai: the rules engine over HTTP.
#
#   docker build -t tenpai .
#   docker run --rm -p 8000:8000 -e TENPAI_WORKERS=2 tenpai
#
# Stage 1 installs the hash-pinned dependencies (requirements.lock, made by
# scripts/lock.sh) and the app into a virtual environment; stage 2 copies only
# that environment onto a clean base and runs it as an unprivileged user.
ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1
WORKDIR /src
# g++ compiles the kernel (app/core/kernel/*.cpp, C++17); it stays in this stage. The
# version is bookworm's, the one the base image's Debian release carries.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends g++ \
    && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/tenpai
COPY requirements.lock ./
# Every file is checked against its hash; --no-deps because the lock lists the whole closure.
RUN /opt/tenpai/bin/pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock
COPY pyproject.toml setup.py README.md ./
COPY app ./app
# The build backend and pybind11 come from the lock as well (no isolated build fetching an
# unpinned one); this step compiles the kernel (imported with -I, so /src/app cannot stand in
# for the installed package). The backend is removed afterwards, with pip
# and pybind11, which the running service does not need.
RUN /opt/tenpai/bin/pip install --no-cache-dir --no-deps --no-build-isolation . \
    && /opt/tenpai/bin/python -I -c "import app.core._kernel" \
    && /opt/tenpai/bin/pip uninstall --yes setuptools wheel pybind11 pip \
    && /opt/tenpai/bin/python -m compileall -q /opt/tenpai/lib

FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="tenpai" \
      org.opencontainers.image.description="An exact mahjong rules engine over HTTP"
# /var/lib/tenpai holds the hosted tables' SQLite file (the default store below), the one
# place the service writes; mount a volume there to keep the tables when the container goes.
RUN groupadd --gid 10001 tenpai \
    && useradd --uid 10001 --gid tenpai --no-log-init --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin tenpai \
    && install -d -o 10001 -g 10001 -m 0750 /var/lib/tenpai
COPY --from=build /opt/tenpai /opt/tenpai
ENV PATH=/opt/tenpai/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TENPAI_HOST=0.0.0.0 \
    TENPAI_PORT=8000 \
    TENPAI_WORKERS=1 \
    TENPAI_LOG_FORMAT=json \
    TENPAI_GRACEFUL_SHUTDOWN_SECONDS=20 \
    TENPAI_TABLE_STORE=sqlite:////var/lib/tenpai/tables.sqlite3
WORKDIR /srv
USER 10001:10001
EXPOSE 8000
# /ready is 200 once the lookup tables are built (about a second after start).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request as r; o = r.build_opener(r.ProxyHandler({})); sys.exit(o.open('http://127.0.0.1:%s/ready' % os.environ.get('TENPAI_PORT', '8000'), timeout=2).status != 200)"]
# uvicorn drains in-flight requests on SIGTERM (TENPAI_GRACEFUL_SHUTDOWN_SECONDS), then exits.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "app.main"]
