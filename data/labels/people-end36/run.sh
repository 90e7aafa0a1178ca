#!/bin/bash
# Training labels for positions people reached (every turn of the bglab matches, the truth
# set's positions left out): each rolled out to the end at 0-ply, 36 luck-adjusted trials
# (unbiased against the truth set, noise about 0.038 a label: bench/bot/label_methods.py),
# 100 a chunk (the first holds 500), each committed as written (COMMIT=0: not committed).
# Resumable on any clone: run it again. Low priority, one process unless WORKERS says. Usage:
#   nohup data/labels/people-end36/run.sh > /tmp/labels.log 2>&1 &
cd "$(dirname "$0")/../../.."
export OPENBLAS_NUM_THREADS=1
options=(--out data/labels/people-end36 --workers "${WORKERS:-1}" --target-se 1
         --max-trials 36 --truncate 0 --chunk 100)
[ "${COMMIT:-1}" = 1 ] && options+=(--commit)
[ -n "${MINUTES:-}" ] && options+=(--minutes "$MINUTES")
[ -n "${RAY:-}" ] && options+=(--ray "$RAY")
exec nice -n 19 "${PYTHON:-.venv/bin/python}" -m backgammon.cli truth label "${options[@]}"
