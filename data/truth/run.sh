#!/bin/bash
# The truth set's rollouts (backgammon.training.truth): every position of positions.jsonl.gz rolled
# out to the end at 0-ply with luck adjustment until its equity's standard error is at most
# 0.01 (at most 2,592 trials), ten a chunk, each chunk committed as it is written (COMMIT=0:
# written, not committed). Resumable: run it again on any clone and it goes on from the last
# chunk. Low priority, one process by default; on a larger machine WORKERS=16 MINUTES=9 fills
# its cores for nine minutes and stops; RAY=auto (with WORKERS) spreads it over the Ray cluster
# this machine joined. Usage:
#   nohup data/truth/run.sh > /tmp/truth.log 2>&1 &
cd "$(dirname "$0")/../.."
export OPENBLAS_NUM_THREADS=1
options=(--out data/truth --workers "${WORKERS:-1}")
[ "${COMMIT:-1}" = 1 ] && options+=(--commit)
[ -n "${MINUTES:-}" ] && options+=(--minutes "$MINUTES")
[ -n "${RAY:-}" ] && options+=(--ray "$RAY")
exec nice -n 19 "${PYTHON:-.venv/bin/python}" -m backgammon.cli truth label "${options[@]}"
