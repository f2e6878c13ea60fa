#!/usr/bin/env bash
# tenpai's mjai bot in libriichi's arena against three of the mjai package's RulebaseBots:
# SETS duplicate sets (each wall played four times, the bot in each seat in turn), then the
# bot's statistics block with 95% intervals and issue 24's gates. See bench/README.md.
#
#   bench/run_arena.sh [SETS [SEED]] [-- more tests/tools/arena.py options]   (defaults 10 and 1000)
#   bench/run_arena.sh 40 1000 -- --workers 2
#
# Environment: BOT_PYTHON (default .venv/bin/python, a Python with tenpai's dependencies) runs
# the bot (python -m app.mjai SEAT, in the repository root); OUT (default a new folder under
# /tmp) gets the logs and summary.json.
set -euo pipefail
cd "$(dirname "$0")/.."

sets=10
seed=1000
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then sets=$1; shift; fi
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then seed=$1; shift; fi
if [ "${1:-}" = "--" ]; then shift; fi

BOT_PYTHON=${BOT_PYTHON:-.venv/bin/python}
if [ ! -x "$BOT_PYTHON" ]; then
  echo "no $BOT_PYTHON: set BOT_PYTHON to a Python with tenpai's dependencies (the project's .venv)" >&2
  exit 2
fi
out=${OUT:-$(mktemp -d /tmp/tenpai-arena.XXXXXX)}
mjai_python=$(bash scripts/mjai_venv.sh)

echo "arena: $((sets * 4)) games ($sets walls from seed $seed), bot $BOT_PYTHON -m app.mjai, logs in $out" >&2
started=$(date +%s)
"$mjai_python" tests/tools/arena.py --games $((sets * 4)) --seed "$seed" --seats 0,1,2,3 --opponents rulebase \
  --bot-cmd "$BOT_PYTHON -m app.mjai" --out "$out" "$@" >/dev/null
echo "arena: done in $(($(date +%s) - started)) s" >&2

"$mjai_python" - "$out/summary.json" <<'EOF'
import json
import sys

summary = json.load(open(sys.argv[1]))
stats = summary["statistics"]
print(json.dumps(stats, indent=1))


def shown(estimate, digits=3):
    value, ci = estimate["value"], estimate["ci95"]
    if value is None:
        return "n/a"
    interval = f" [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]" if ci else " (no interval)"
    return f"{value:.{digits}f}{interval}"


rank, points, deal_in = stats["average_rank"], stats["rank_points_per_game"], stats["deal_in_rate"]
times = stats["reply_time"]
faults = sum(stats["faulty_replies"].values())
gates = [
    ("average rank, 95% upper end <= 2.1", shown(rank), rank["ci95"] is not None and rank["ci95"][1] <= 2.1),
    ("rank points/game, 95% lower end > 0", shown(points, 1), points["ci95"] is not None and points["ci95"][0] > 0),
    ("deal-in rate <= 12%", shown(deal_in), deal_in["value"] is not None and deal_in["value"] <= 0.12),
    ("illegal or faulty replies = 0", str(faults), faults == 0 and stats["games_not_completed"] == 0),
    ("reply p99 < 1 s", f"{times['p99_s']} s", times["p99_s"] is not None and times["p99_s"] < 1.0),
    ("reply median < 100 ms", f"{times['median_s']} s", times["median_s"] is not None and times["median_s"] < 0.1),
]
print(f"\n{stats['games']} games on {stats['walls']} walls, {stats['hands']} hands; issue 24's gates:")
for name, value, passed in gates:
    print(f"  {'pass' if passed else 'FAIL'}  {name}: {value}")
warm = stats["reply_time_after_first"]
print(f"  (each game's first decision aside: median {warm['median_s']} s, p99 {warm['p99_s']} s, max {warm['max_s']} s)")
EOF
