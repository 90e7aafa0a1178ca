#!/bin/bash
# New rollout labels from the shipped networks (encoding 2, 128 hidden): positions from their
# 0-ply self-play, each labelled by 36 plain trials truncated at 18 turns. --lr 0 keeps the
# networks as they are, so every generation is labelled by the shipped ones. Resumable: run
# this script again (it passes --resume); nets-000.npz holds the labelling networks (the td.npz
# shipped by commit 38d6054), so a resumed run does not read --from. Usage:
#   PYTHON=.venv/bin/python nohup data/generations-2/run.sh > data/generations-2.log 2>&1 &

cd "$(dirname "$0")/../.."
export OPENBLAS_NUM_THREADS=1 PYTHONPATH=src
exec nice -n 19 "${PYTHON:-python}" -m backgammon.cli train --stage rollout --out data/generations-2 --resume \
    --from src/backgammon/bot/weights/td.npz --seed 2 --generations 12 --positions 5000 \
    --trials 36 --truncate 18 --no-luck --workers 1 --lr 0 --eval-games 0 --no-progress
