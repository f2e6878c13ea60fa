#!/usr/bin/env bash
# Make (or reuse) .venv-mjai, the virtual environment of the mjai judge, and print its python.
# The PyPI package mjai 0.2.1 carries Mortal's libriichi, the referee of mjai.app: the tests
# of the table (tests/table/) ask it for legal actions and run its arena through the scripts
# in tests/tools/, as subprocesses of this python. It is AGPL and pins mahjong~=1.2.0, so it
# is a test tool in a venv of its own, never a dependency of the service.
# A stamp (this Python's version and the pin) makes a second run instant; a lock lets
# parallel test workers call it at once. Output: the python's path alone on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

MJAI_PIN="mjai==0.2.1"
venv=.venv-mjai
stamp="$(python3 --version 2>&1) $MJAI_PIN"

mkdir -p "$venv"
exec 9>"$venv/.lock"
flock 9
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.tenpai-mjai-installed" 2>/dev/null)" != "$stamp" ]; then
  rm -f "$venv/.tenpai-mjai-installed"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check "$MJAI_PIN" >&2
  # The stamp only once libriichi loads: a half-made venv is retried next time.
  "$venv/bin/python" -c "from mjai.mlibriichi.arena import Match; from mjai.mlibriichi.state import PlayerState" >&2
  echo "$stamp" >"$venv/.tenpai-mjai-installed"
fi
echo "$PWD/$venv/bin/python"
