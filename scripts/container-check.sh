#!/usr/bin/env bash
# The container checks alone, with their timings: hadolint and the Kubernetes schemas, then
# with the container kit (../shared/container, as root) the image built and smoke-tested,
# run with a /shanten question through its published port and stopped with SIGTERM, both
# compose files validated, and three replicas brought up behind nginx.
# CI runs the same tests inside `bash scripts/test.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/pytest ] || { echo "run bash scripts/test.sh once first (it makes .venv)" >&2; exit 1; }
exec .venv/bin/pytest -v -s -p no:cacheprovider --durations=0 \
    tests/ops/test_deploy_files.py tests/ops/test_container.py "$@"
