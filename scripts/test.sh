#!/usr/bin/env bash
# Install everything the test suite needs and run it: the README's test command, and CI's.
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests drive Debian's Chromium; install it when apt is available and it is missing.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
      || echo "warning: could not install chromium; browser tests will be skipped" >&2
  fi
fi

python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -e '.[test]'
exec .venv/bin/pytest "$@"
