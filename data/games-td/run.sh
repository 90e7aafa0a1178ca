#!/bin/bash
# The other games' TD networks, trained on: each game in turn for MINUTES (20) of self-play in
# the kernel (bench/bot/games_td.py: TD(lambda), lambda 0.7, alpha 0.05, seed 2026), going on
# from data/games-td/GAME.npz (the first time: the shipped network, with the games it was
# trained on, docs/lab/game-baselines.md), saved after every chunk of 2,000 games and
# committed after each game's turn with its lines (GAME.log: against the heuristic after each
# chunk, then 4,000 games against the heuristic, the random player and the shipped network).
# Resumable on any clone; low priority. Usage:
#   nohup data/games-td/run.sh > /tmp/games-td.log 2>&1 &
# GAMES="fevga plakoto" picks the games; ROUNDS=1 stops after one turn each.
cd "$(dirname "$0")/../.."
export OPENBLAS_NUM_THREADS=1
games=(${GAMES:-long-nardy fevga plakoto acey-deucey portes tavla})
# The self-play games each shipped network was trained on (docs/lab/game-baselines.md).
declare -A shipped=([portes]=528000 [tavla]=334000 [plakoto]=188000 [fevga]=336000
                    [long-nardy]=178000 [acey-deucey]=254000)
round=0
while [ -z "${ROUNDS:-}" ] || [ "$round" -lt "$ROUNDS" ]; do
  for game in "${games[@]}"; do
    net=data/games-td/$game.npz
    if [ -f "$net" ]; then
      from=$net trained=$(cat "$net.trained")
    else
      from=src/backgammon/bot/weights/games-$game.npz trained=${shipped[$game]}
    fi
    cp "$from" "/tmp/games-td-$game-start.npz"
    nice -n 19 "${PYTHON:-.venv/bin/python}" bench/bot/games_td.py --game "$game" \
      --load "/tmp/games-td-$game-start.npz" --trained "$trained" --alpha 0.05 \
      --minutes "${MINUTES:-20}" --save "$net" \
      --against "src/backgammon/bot/weights/games-$game.npz" | tee -a "data/games-td/$game.log"
    [ "${COMMIT:-1}" = 1 ] || continue
    for try in 1 2 3 4 5; do
      git add "$net" "$net.trained" "data/games-td/$game.log" &&
        git commit -q -m "games-td: $game to $(cat "$net.trained") games" -- \
          "$net" "$net.trained" "data/games-td/$game.log" && break
      sleep 7
    done
  done
  round=$((round + 1))
done
