#!/usr/bin/env bash
# The test suite on a busy machine: every core is kept busy by other processes while the suite runs,
# so a test that waits for a fixed time instead of a condition, or races its own processes, fails
# here rather than now and then on someone's loaded laptop.
#
#   tests/stress.sh [RUNS] [PYTEST ARGUMENTS...]
#
# RUNS (default 1) runs the suite that many times in a row, each with the cores kept busy; the
# status is 0 only if every run passed. BUSY=N sets how many busy processes (default: one per core);
# PYTHON the interpreter (default .venv/bin/python).
set -u
# Job control: the suite runs as a job of its own, so Ctrl+C reaches this script, which stops the
# suite and the busy processes (tests/conftest.py sees that the suite's processes still take SIGINT).
set -m
cd "$(dirname "$0")/.."

runs=1
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
    runs=$1
    shift
fi
python=${PYTHON:-.venv/bin/python}
busy=${BUSY:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}

burners=()
suite=
stop() {
    for pid in $suite "${burners[@]}"; do
        kill "$pid" 2>/dev/null
    done
    wait 2>/dev/null
    burners=()
    suite=
}
trap stop EXIT
trap 'exit 130' INT TERM

for ((i = 0; i < busy; i++)); do
    "$python" -c 'while True: pass' &
    burners+=($!)
done
echo "stress: $busy busy processes ($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores); $runs run(s) of the suite"

failed=0
for ((run = 1; run <= runs; run++)); do
    started=$SECONDS
    "$python" -m pytest -q -p no:cacheprovider "$@" &  # waited for below, so a signal stops it too
    suite=$!
    wait "$suite"
    status=$?
    suite=
    if [[ $status -eq 0 ]]; then
        echo "stress: run $run of $runs passed in $((SECONDS - started)) s"
    else
        echo "stress: run $run of $runs FAILED after $((SECONDS - started)) s"
        failed=$((failed + 1))
    fi
done
echo "stress: $((runs - failed)) of $runs runs passed"
[[ $failed -eq 0 ]]
