#!/usr/bin/env bash
# Regenerate requirements.lock, the image's dependencies: the runtime dependencies of
# pyproject.toml and its build backend, pinned to the versions installed in .venv, with
# the hashes of every file PyPI has for each pin (the Dockerfile installs them with
# pip --require-hashes). Run after changing dependencies; tests/ops/test_deploy_files.py
# checks that the lock still covers pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/.."

PIP_TOOLS_VERSION=7.6.2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The working venv's versions as constraints (pip, setuptools and wheel are the lock's own).
.venv/bin/pip freeze --exclude-editable --all | grep -viE '^(pip|setuptools|wheel)==' >"$work/constraints.txt"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check "pip-tools==$PIP_TOOLS_VERSION"
CUSTOM_COMPILE_COMMAND="bash scripts/lock.sh" "$work/venv/bin/pip-compile" --quiet --generate-hashes --allow-unsafe --all-build-deps \
    --strip-extras --no-emit-index-url --no-emit-find-links \
    --constraint "$work/constraints.txt" \
    --output-file requirements.lock pyproject.toml
# pip-compile names the temporary constraints file; name what it held instead.
sed -i "s|$work/constraints.txt|.venv-versions|g" requirements.lock
echo "wrote requirements.lock ($(grep -c '==' requirements.lock) pins)"
