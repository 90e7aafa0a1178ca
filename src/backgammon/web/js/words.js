// The game in words, in the page's language: the players' names (the person at this screen is
// "you"), the status line (what just happened, what is to be done now, the steps made) and the
// games' results. Each is a function of a state alone; the board page (app.js), its end panel
// (gameend.js), its record (record.js) and, through app.js's hooks, what screen readers hear
// (announce.js) all say the game with them.

import { formatNumber, has, isolate, plural, t } from "./i18n.js";
import { seatOf, seatsHeld } from "./seats.js";

/** The name of `seat`'s player: "you", the computer, the name given online, or the colour. */
export function playerName(state, seat) {
  const info = state.seats[seat];
  if (info.kind === "computer") return t("name.computer");
  if (isYou(state, seat)) return t("name.you");
  return state.online ? info.name : t(`name.${info.colour}`);
}

/** Whether `seat` is this browser's only seat: the person at this screen is "you". */
function isYou(state, seat) {
  const held = seatsHeld(state.id);
  return state.seats[seat].kind === "human" && held.length === 1 && held[0] === seat;
}

/** The message `key` about `seat`, in the second person ("<key>.you") where that is "you". */
export function about(state, seat, key) {
  return isYou(state, seat) && has(`${key}.you`) ? `${key}.you` : key;
}

/** Whether `state` is a match of one of the other games (Plakoto, Fevga, ...): its board
 * says their way round. The tutor and GNU Backgammon's IDs and files are backgammon's alone;
 * hints judge their plays in points, and the analysis is their engine's. */
export function otherGame(state) {
  return Boolean(state?.board.travel);
}

/** The name of the game in play, and of a Tavli match's ("Tavli · Plakoto"). */
export function gameTitle(state) {
  const game = t(`game.${state.game}`);
  return state.rotation ? `${t("game.tavli")} · ${game}` : game;
}

/** The status line in parts: what has just happened (`news`: a result, a roll the game
 * played by itself), what is to be done now (`now`), and the steps made so far this turn
 * (`made`). Screen readers hear the news and the steps as they happen (js/announce.js), and
 * `now` whenever it changes. */
export function statusParts(state) {
  const name = (seat) => playerName(state, seat);
  const parts = { news: [], now: "", made: "" };
  if (state.match_over) {
    parts.now = t(about(state, state.winner, "status.matchOver"), {
      // The winner's points first, as a result is said ("wins 7–3").
      player: name(state.winner),
      score: [state.score[state.winner], state.score[1 - state.winner]].map(formatNumber).join("–"),
    });
    return parts;
  }
  const waiting = state.to_act;
  if (state.waiting_for_opponent) {
    // A game for a friend waits for them; a listed one, for whoever joins from the lobby.
    const friend = seatsHeld(state.id).length && !seatOf(state.id).listed;
    parts.now = t(friend ? "status.waitingFriend" : "status.waitingOpponent");
    return parts;
  }
  if (waiting !== null && state.seats[waiting].kind === "computer") {
    parts.now = t("status.thinking", { player: name(waiting) });
    return parts;
  }
  if (state.phase === "opening" && state.result && !state.thrown) {
    parts.news.push(resultText(state, state.result));
  }
  switch (state.phase) {
    case "opening":
      if (state.thrown) {
        // Online, each player throws their own die: one is thrown, the other's awaited.
        const { seat, die } = state.thrown;
        const key = isYou(state, seat) ? "status.thrownByYou" : about(state, waiting, "status.thrown");
        parts.now = t(key, { player: name(seat), value: die, other: name(waiting) });
        break;
      }
      parts.now = t(state.opening_tie ? "status.openingTie" : "status.opening", {
        value: state.opening_tie ? state.opening_tie[0] : "",
      });
      break;
    case "roll": {
      // A roll the game played for the player (no move, or only one): say what happened.
      const passed = lastAutomatic(state);
      if (passed) {
        const key = passed.play === null ? "status.dance" : "status.forced";
        parts.news.push(t(about(state, passed.seat, key), {
          player: name(passed.seat), first: passed.dice[0], second: passed.dice[1],
          play: passed.play === null ? "" : isolate(passed.play),
        }));
      }
      const key = state.actions[waiting].includes("double") ? "status.rollOrDouble" : "status.roll";
      parts.now = t(about(state, waiting, key), { player: name(waiting) });
      break;
    }
    case "move":
    case "confirm":
      parts.now = t(about(state, waiting, `status.${state.phase}`), { player: name(waiting) });
      if (state.made.length) parts.made = madeText(state);
      break;
    case "cube":
      parts.now = t(about(state, waiting, "status.cube"), {
        player: name(state.cube.offer.by), value: state.cube.offer.value, other: name(waiting),
      });
      break;
    case "name":
      parts.now = t(about(state, waiting, "status.name"), { player: name(waiting) });
      break;
    case "resign":
      parts.now = t(about(state, waiting, "status.resign"), {
        player: name(state.resignation.by), level: t(`resign.level.${state.resignation.level}`),
        other: name(waiting),
      });
      break;
    default:
      if (state.result) parts.now = resultText(state, state.result);
  }
  return parts;
}

/** The status line whole, as the page shows it. */
export function statusText(state) {
  const { news, now, made } = statusParts(state);
  return [...news, now, made].filter(Boolean).join(" ");
}

/** The roll the game just played by itself, if the last thing in the game was one: a roll with
 * no legal move, or a forced play (an option); the dice are gone before anyone could see them. */
function lastAutomatic(state) {
  const game = state.record[state.record.length - 1];
  const last = game && !game.result ? game.entries[game.entries.length - 1] : null;
  return last && last.kind === "play" && (last.play === null || last.auto) ? last : null;
}

/** The steps made so far this turn, in notation: what a screen reader hears of the board. */
function madeText(state) {
  const name = (point) => (point === 25 ? t("notation.bar") : point === 0 ? t("notation.off") : point);
  const steps = state.made.map((step) => `${name(step.from)}/${name(step.to)}`);
  return t("status.made", { steps: isolate(steps.join(" ")) });
}

/** A game's result in words, and where a claim or the clock decided it, why. */
export function resultText(state, result) {
  if (result.reason === "draw") return t("result.draw"); // Plakoto: both mothers pinned
  const key = about(state, result.winner, `result.${result.kind}`);
  const text = plural(key, result.points, { player: playerName(state, result.winner) });
  if (!["claim", "time"].includes(result.reason)) return text;
  const absent = 1 - result.winner;
  const why = result.reason === "time" ? "result.timeout" : "result.claimed";
  return `${text} ${t(about(state, absent, why), { player: playerName(state, absent) })}`;
}
