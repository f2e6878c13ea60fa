#!/usr/bin/env bash
# Install everything the test suite needs and run it: the README's test command, and CI's.
# Without arguments: the static checks (ruff lint and format, mypy --strict on app/), then the
# whole pytest suite on two workers (pytest-xdist, -n 2 --dist loadfile: a module stays in one
# worker).  Arguments pass through to pytest alone, run in one process unless they say -n; the
# fast tier for day-to-day work is
#   bash scripts/test.sh -m "not slow and not browser and not container and not ray"
# The large comparisons with outside oracles check a fixed sample (the same every run); every
# case, as before issue 21 (about 80 s more CPU, measured on the 2-core machine), with
#   bash scripts/test.sh --full-oracles -n 2 --dist loadfile     (or TENPAI_FULL_ORACLES=1)
# Under CI=true the browser, container and Redis tests fail where they cannot run; the cross-check
# with mahjong-cpp (a third-party build outside the project) skips, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests drive Debian's Chromium; install it when apt is available and it is missing.
# (Under CI=true a browser test that cannot run fails, so a failed install shows.)
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
      || echo "warning: could not install chromium; browser tests will fail under CI=true, skip elsewhere" >&2
  fi
fi

# The Redis tests (marked redis: tests/hosting/, the hosted tables on a shared store) start a private
# Debian redis-server of their own; install it when apt is available and it is missing.  (Under CI=true
# a Redis test that cannot run fails, so a failed install shows.)  Only tests need it: the service
# image does not.
if ! command -v redis-server >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null) \
      || echo "warning: could not install redis-server; Redis tests will fail under CI=true, skip elsewhere" >&2
  else
    echo "warning: redis-server is missing; Redis tests will skip (fail under CI=true)" >&2
  fi
fi

# A Chinese font, so that the browser tests' screenshots show the rule names (血战到底, 定缺)
# rather than empty boxes; only the screenshots need it.
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh 2>/dev/null)" ] \
  && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-zenhei >/dev/null 2>&1 \
    || echo "note: could not install a Chinese font; screenshots will show boxes for Chinese text" >&2
fi

# Reuse .venv while it was installed from this very pyproject.toml by this Python; else (re)install.
stamp="$(python3 --version 2>&1) $(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ ! -x .venv/bin/pytest ] || [ "$(cat .venv/.tenpai-installed 2>/dev/null)" != "$stamp" ]; then
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -e '.[test]'
  echo "$stamp" > .venv/.tenpai-installed
fi
# The compiled kernel is built in place by the editable install; rebuild it when a kernel source
# changed since (setup.py compares times, so this is a second when nothing did).
.venv/bin/python setup.py -q build_ext --inplace >/dev/null
# The mjai judge's venv for tests/table/ (if it cannot be made, they fail under CI=true, skip elsewhere).
bash scripts/mjai_venv.sh >/dev/null || echo "warning: could not make .venv-mjai (scripts/mjai_venv.sh)" >&2
if [ $# -eq 0 ]; then
  .venv/bin/ruff check app tests bench scripts
  .venv/bin/ruff format --check app tests bench scripts
  .venv/bin/mypy
  exec .venv/bin/pytest -n 2 --dist loadfile
fi
exec .venv/bin/pytest "$@"
