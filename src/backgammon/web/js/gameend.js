// The end of a game, in its panel: the result and why, the score, the Crawford game to come,
// and the way on (the next game, or at the match's end the analysis and a rematch: rematch.js).
// The panel shows until the next game's opening roll, or until the player closes it.

import { formatNumber, t } from "./i18n.js";
import { renderRematch } from "./rematch.js";
import { seatsHeld } from "./seats.js";
import { about, playerName, resultText, statusParts } from "./words.js";

const $ = (selector) => document.querySelector(selector);

// The game whose end's panel the player has closed ("Next game"): "match id:game number".
let endSeen = null;

/** Whether the end of a game is to be shown in its panel now: the match's end, or a game's
 * until the next one's opening roll (or until the player goes on to it). */
export function endShown(state) {
  if (!state) return false;
  if (state.match_over) return true;
  return Boolean(state.result) && state.phase === "opening" && !state.opening_tie && !state.thrown
    && endSeen !== `${state.id}:${state.game_number}`;
}

/** The player has closed the panel of `state`'s game: it stays closed. */
export function seeEnd(state) {
  endSeen = `${state.id}:${state.game_number}`;
}

/** The game whose result `state` shows: the last one with a result. */
function endedGame(state) {
  return [...state.record].reverse().find((game) => game.result) || null;
}

/** Why the game ended as it did, in words ("" where the result says it already). */
function whyText(state, result, game) {
  const loser = 1 - result.winner;
  switch (result.reason) {
    case "bear off":
      return t(`end.why.bearOff.${result.kind}`);
    case "drop":
      return t(about(state, loser, "end.why.drop"), { player: playerName(state, loser) });
    case "mother":
      return t(about(state, loser, "end.why.mother"), { player: playerName(state, loser) });
    case "resign": {
      const resign = game ? [...game.entries].reverse().find((entry) => entry.kind === "resign") : null;
      const level = t(`resign.level.${resign ? resign.level : { single: 1, gammon: 2, backgammon: 3 }[result.kind]}`);
      return t(about(state, loser, "end.why.resign"), { player: playerName(state, loser), level });
    }
    default:
      return ""; // a claim or a time-out: resultText says why
  }
}

/** Whether the Jacoby rule made the gammon (or backgammon) of `result` count as a single game:
 * money play under the rule, and no cube turned in the game. */
function jacobyZeroed(state, result, game) {
  if (!state.rules?.jacoby || state.length || result.kind === "single") return false;
  if (!["bear off", "resign"].includes(result.reason)) return false;
  return !(game?.entries || []).some((entry) => ["double", "beaver", "take"].includes(entry.kind));
}

/** The score in words, each player named. */
function scoreText(state) {
  const params = {
    first: playerName(state, state.view), firstScore: formatNumber(state.score[state.view]),
    second: playerName(state, 1 - state.view), secondScore: formatNumber(state.score[1 - state.view]),
    length: formatNumber(state.length),
  };
  return t(state.length ? "end.scoreMatch" : "end.score", params);
}

/** The end-of-game panel: shown or hidden, its texts; returns the lines a screen reader is
 * to hear when it appears. */
export function renderGameEnd(state) {
  const panel = $("#game-end");
  const shown = endShown(state);
  panel.hidden = !shown;
  if (!shown) return [];
  const game = endedGame(state);
  const result = game ? game.result : state.result;
  const over = state.match_over;
  $("#game-end-heading").textContent = t(over ? "end.heading.match" : "end.heading.game");
  const lines = {
    result: result ? resultText(state, result) : "",
    why: [result ? whyText(state, result, game) : "", result && jacobyZeroed(state, result, game) ? t("end.jacoby") : ""]
      .filter(Boolean).join(" "),
    score: over ? statusParts(state).now : scoreText(state),
    crawford: !over && state.crawford ? t("end.crawford") : "",
  };
  $("#game-end-result").textContent = lines.result;
  $("#game-end-why").textContent = lines.why;
  $("#game-end-why").hidden = !lines.why;
  $("#game-end-score").textContent = lines.score;
  $("#game-end-crawford").textContent = lines.crawford;
  $("#game-end-crawford").hidden = !lines.crawford;
  $("#next-game").hidden = over;
  $("#game-end-analyse").hidden = !over || !seatsHeld(state.id).length;
  renderRematch(state);
  panel.dataset.kind = over ? "match" : "game";
  // The result and, at the match's end, its score are said with the news (announce.js).
  return [lines.why, over ? "" : lines.score, lines.crawford].filter(Boolean);
}
