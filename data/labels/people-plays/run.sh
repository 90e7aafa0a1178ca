#!/bin/bash
# Training labels for the positions after the 3 best plays (0-ply) of a roll drawn for each
# position of people-end36 (what ranks a roll's plays, which the bot's choices rest on), the
# truth set's positions left out: each rolled out to the end at 0-ply with 36 luck-adjusted
# trials, as people-end36's, 100 a chunk, each committed as written (COMMIT=0: not committed).
# Resumable on any clone: run it again. Low priority, one process unless WORKERS says. Usage:
#   nohup data/labels/people-plays/run.sh > /tmp/plays.log 2>&1 &
cd "$(dirname "$0")/../../.."
export OPENBLAS_NUM_THREADS=1
options=(--out data/labels/people-plays --workers "${WORKERS:-1}" --target-se 1
         --max-trials 36 --truncate 0 --chunk 100)
[ "${COMMIT:-1}" = 1 ] && options+=(--commit)
[ -n "${MINUTES:-}" ] && options+=(--minutes "$MINUTES")
[ -n "${RAY:-}" ] && options+=(--ray "$RAY")
exec nice -n 19 "${PYTHON:-.venv/bin/python}" -m backgammon.cli truth label "${options[@]}"
