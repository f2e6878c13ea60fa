#!/usr/bin/env bash
# The compiled kernel under AddressSanitizer and UBSan (issue 23): build app.core._kernel with
# both sanitizers into a scratch copy of the project, then run the kernel's tests (the
# differential tests against the Python references and the hypothesis fuzzing of every entry
# point) against that build, any report fatal.  Arguments replace the default test list.
#   bash scripts/kernel_sanitize.sh
# tests/core/test_kernel_sanitized.py runs this as part of the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python="${TENPAI_PYTHON:-$root/.venv/bin/python}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -r setup.py pyproject.toml README.md app tests bench "$work/"
find "$work/app" -name '*.so' -delete
(cd "$work" && TENPAI_KERNEL_SANITIZE=1 "$python" setup.py build_ext --inplace -q >/dev/null)

if [ $# -eq 0 ]; then
  set -- tests/core/test_kernel_fuzz.py tests/core/test_expected_kernel.py tests/core/test_riichi_kernel.py \
    tests/core/test_fast_construction.py \
    tests/core/test_mcr_kernel.py
fi
runtime="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libubsan.so)"
testdata="${TENPAI_TESTDATA:-$root/../shared/testdata}"
cd "$work"
# The sanitizers' runtime must load before Python; Python's own allocator is bypassed so every
# allocation is checked; leaks are not checked (the interpreter keeps memory to the end by design).
LD_PRELOAD="$runtime" PYTHONMALLOC=malloc \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  TENPAI_TESTDATA="$testdata" PYTHONPATH="$work" \
  "$python" -m pytest -p no:cacheprovider -q -p no:randomly "$@"
