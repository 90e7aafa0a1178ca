#!/bin/bash
# The label factory: the positions of data/labels/NAME (people-end36, people-plays, ...)
# rolled out to the end at 0-ply with 36 luck-adjusted trials each (unbiased against the truth
# set, noise about 0.038 in equity a label: bench/bot/label_methods.py), 100 a chunk, each
# chunk committed as it is written (COMMIT=0: written, not committed). Resumable on any clone:
# run it again and it goes on from the last chunk. Low priority, one process by default; on a
# larger machine WORKERS=16 MINUTES=9 fills its cores for nine minutes and stops; RAY=auto
# (with WORKERS) spreads it over the Ray cluster this machine joined. Usage:
#   nohup data/labels/run.sh people-plays > /tmp/labels.log 2>&1 &
name=${1:?which folder of data/labels to label, e.g. people-plays}
cd "$(dirname "$0")/../.."
[ -f "data/labels/$name/positions.jsonl.gz" ] || { echo "no data/labels/$name/positions.jsonl.gz" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1
options=(--out "data/labels/$name" --workers "${WORKERS:-1}" --target-se 1
         --max-trials 36 --truncate 0 --chunk 100)
[ "${COMMIT:-1}" = 1 ] && options+=(--commit)
[ -n "${MINUTES:-}" ] && options+=(--minutes "$MINUTES")
[ -n "${RAY:-}" ] && options+=(--ray "$RAY")
exec nice -n 19 "${PYTHON:-.venv/bin/python}" -m backgammon.cli truth label "${options[@]}"
