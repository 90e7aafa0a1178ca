// The page: the front page's choices (setup.js), then the board and its controls for the
// match in the address (?match=ID), so a reload comes back to the same game. The server
// decides everything; this module only shows the state it sends and sends back one action at
// a time, for the seats this browser holds a token of (seats.js); a match it holds none of is
// only watched.

import { closeAnalysis, openAnalysis, relabelAnalysis, setUpAnalysis } from "./analysis.js";
import { announceChange, announcePickUp, announcePutBack, say, setUpAnnouncements } from "./announce.js";
import { ApiError, act, createMatch, getState, matUrl, refusal, takeSeats, watch, withRecord } from "./api.js";
import { renderBoard, slideSteps } from "./board.js";
import { chatPushed, openChat, readChat, relabelChat, setUpChat } from "./chat.js";
import { copyField } from "./copy.js";
import { enableDrag } from "./drag.js";
import { renderFairDice, setUpFairDice } from "./fair.js";
import { keepFocus, keyboardFocus } from "./focus.js";
import { relabelHints, setUpHints, updateHints } from "./hint.js";
import {
  LANGUAGES, applyMessages, browserLanguage, formatNumber, has, isolate, language, loadMessages,
  plural, t,
} from "./i18n.js";
import { setUpLanguageMenu } from "./language_menu.js";
import { lastPlay, lastPlayOnBoard, markLastPlay } from "./lastplay.js";
import { relabelLobby } from "./lobby.js";
import { obviousStep, placeOf, sourcesOf, stepBetween, targetsOf } from "./moves.js";
import { claimSeat, renderOnline, setUpOnline, showJoin, showLobby } from "./online.js";
import {
  homeSide, language as chosenLanguage, setHomeSide, setTurnSound, turnSound,
} from "./prefs.js";
import { rematchChanged, renderRematch, sameRematch, setUpRematch } from "./rematch.js";
import { seatOf, seatsHeld, takeSeatFromAddress } from "./seats.js";
import { matchOptions, setUpSetup, showChoice } from "./setup.js";
import { playTurnSound, primeSound } from "./sound.js";
import { keepTutorChoice, relabelTutor, setUpTutor, throughTutor, updateTutor } from "./tutor.js";

const page = {
  // The seat whose side the board is drawn from: seat 0's, unless this browser holds seat 1
  // only (the one who joined an online match).
  view: 0,
  state: null,
  selected: null,
  busy: false,
  stopWatching: null,
  // A step just dropped where the player dragged it: it does not slide there again.
  dragged: false,
  // The game whose end's panel the player has closed ("Next game"): "match id:game number".
  endSeen: null,
};

const $ = (selector) => document.querySelector(selector);

function playerName(state, seat) {
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
function about(state, seat, key) {
  return isYou(state, seat) && has(`${key}.you`) ? `${key}.you` : key;
}

/** The seat this screen acts for now, or null when the game waits for the computer, for the
 * opponent elsewhere, or for anyone at all where this screen only watches. */
function actingSeat(state) {
  if (state.match_over) return null;
  const held = seatsHeld(state.id);
  const mine = (seat) => state.seats[seat].kind === "human" && held.includes(seat);
  if (state.to_act === null) return mine(0) ? 0 : mine(1) ? 1 : null;
  return mine(state.to_act) ? state.to_act : null;
}

function allowed(state, action) {
  const seat = actingSeat(state);
  return seat !== null && state.actions[seat].includes(action);
}

/** Whether `state` is a match of one of the other games (Plakoto, Fevga, ...): its board
 * says their way round. The tutor and GNU Backgammon's IDs and files are backgammon's alone;
 * hints judge their plays in points, and the analysis is their engine's. */
function otherGame(state) {
  return Boolean(state?.board.travel);
}

/** The name of the game in play, and of a Tavli match's ("Tavli · Plakoto"). */
function gameTitle(state) {
  const game = t(`game.${state.game}`);
  return state.rotation ? `${t("game.tavli")} · ${game}` : game;
}

function boardModel(state) {
  const names = [0, 1].map((seat) => playerName(state, seat));
  const mover = state.on_roll;
  // Until the next roll, the dice of the play just made stay in view, spent, on their side.
  const last = state.dice?.length ? null : lastPlay(state);
  const lastDice = last && last.dice[0] === last.dice[1] ? Array(4).fill(last.dice[0]) : last?.dice;
  const movable = movableSteps(state);
  const sources = sourcesOf(movable, mover);
  const selected = sources.has(page.selected) ? page.selected : null;
  const targets = targetsOf(movable, mover, selected);
  return {
    view: state.view,
    mover,
    points: state.board.points,
    bar: state.board.bar,
    off: state.board.off,
    colours: state.seats.map((seat) => seat.colour),
    names,
    dice: last ? lastDice.map((value) => ({ value, used: true })) : state.dice,
    diceSeat: last ? last.seat : mover,
    openingTie: state.opening_tie,
    thrown: state.thrown ?? null,
    cube: state.cube,
    sources,
    targets,
    selected,
    canRoll: allowed(state, "roll"),
    ...(otherGame(state) ? {
      travel: state.board.travel, pinned: state.board.pinned, waiting: state.board.waiting,
      gameName: t(`game.${state.game}`),
    } : {}),
  };
}

/** The status line in parts: what has just happened (`news`: a result, a roll the game
 * played by itself), what is to be done now (`now`), and the steps made so far this turn
 * (`made`). Screen readers hear the news and the steps as they happen (js/announce.js), and
 * `now` whenever it changes. */
function statusParts(state) {
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

function statusText(state) {
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

function resultText(state, result) {
  if (result.reason === "draw") return t("result.draw"); // Plakoto: both mothers pinned
  const key = about(state, result.winner, `result.${result.kind}`);
  const text = plural(key, result.points, { player: playerName(state, result.winner) });
  if (!["claim", "time"].includes(result.reason)) return text;
  const absent = 1 - result.winner;
  const why = result.reason === "time" ? "result.timeout" : "result.claimed";
  return `${text} ${t(about(state, absent, why), { player: playerName(state, absent) })}`;
}

/** Whether the end of a game is to be shown in its panel now: the match's end, or a game's
 * until the next one's opening roll (or until the player goes on to it). */
function endShown(state) {
  if (!state) return false;
  if (state.match_over) return true;
  return Boolean(state.result) && state.phase === "opening" && !state.opening_tie && !state.thrown
    && page.endSeen !== `${state.id}:${state.game_number}`;
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
function renderGameEnd(state) {
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

/** On to the next game: the panel goes, and the opening roll is made where this screen may;
 * the keyboard's focus goes on to what there is to do then (a checker to move, a control). */
async function nextGame() {
  const { state } = page;
  if (!state) return;
  page.endSeen = `${state.id}:${state.game_number}`;
  render();
  if (allowed(state, "roll")) await send({ action: "roll" });
  const next = $("#board .is-source[tabindex]") || $(".controls button.primary:not([hidden])");
  next?.focus({ preventScroll: true });
}

function entryText(state, entry) {
  const player = playerName(state, entry.seat);
  const dice = entry.dice ? entry.dice.map(formatNumber).join("") : "";
  const key = (name) => about(state, entry.seat, `record.${name}`);
  switch (entry.kind) {
    case "opening":
      return t("record.opening", { first: entry.dice[0], second: entry.dice[1] });
    case "play":
      return entry.play === null
        ? t(key("dance"), { player, dice })
        : t(key("play"), { player, dice, play: isolate(entry.play) });
    case "double":
    case "beaver":
      return t(key(entry.kind), { player, value: entry.value });
    case "resign":
      return t(key("resign"), { player, level: t(`resign.level.${entry.level}`) });
    case "name":
      return t(key("name"), { player, value: entry.value });
    default:
      return t(key(entry.kind), { player });
  }
}

function renderRecord(state) {
  const container = $("#record");
  container.replaceChildren();
  for (const game of state.record) {
    const heading = document.createElement("h3");
    heading.textContent = t("record.game", { number: game.number, first: game.score_before[0], second: game.score_before[1] });
    const list = document.createElement("ol");
    for (const entry of game.entries) {
      const item = document.createElement("li");
      item.textContent = entryText(state, entry);
      list.appendChild(item);
    }
    if (game.result) {
      const item = document.createElement("li");
      item.textContent = resultText(state, game.result);
      list.appendChild(item);
    }
    container.append(heading, list);
  }
}

function renderPlayers(state) {
  for (const panel of document.querySelectorAll(".player")) {
    // Each player's panel beside their own home board: the viewer's at the bottom.
    const seat = panel.dataset.side === "bottom" ? state.view : 1 - state.view;
    panel.dataset.seat = String(seat);
    const swatch = panel.querySelector(".swatch");
    swatch.className = `swatch checker--${state.seats[seat].colour}`;
    swatch.setAttribute("aria-label", t(`colour.${state.seats[seat].colour}`));
    panel.querySelector(".name").textContent = playerName(state, seat);
    panel.querySelector(".score").textContent = state.length
      ? t("score.match", { score: state.score[seat], length: state.length })
      : t("score.money", { score: state.score[seat] });
    panel.querySelector(".pips").textContent = t("pips", { count: state.board.pips[seat] });
    panel.classList.toggle("is-turn", state.to_act === seat);
  }
}

/** Whether an online game waits for this browser's player. */
function waitsForMe(state) {
  return Boolean(state && state.online && !state.match_over && state.to_act !== null
    && seatsHeld(state.id).includes(state.to_act));
}

function render() {
  const { state } = page;
  if (!state) return [];
  const model = boardModel(state);
  page.selected = model.selected;
  const board = $("#board");
  const focused = keyboardFocus(board);
  renderBoard(board, model, { onPlace, onBoard });
  markLastPlay(board, state);
  // The home board on the left is the same drawing mirrored (css/style.css).
  board.classList.toggle("is-mirrored", homeSide() === "left");
  board.classList.toggle("can-drag", model.sources.size > 0);
  // For tests and styles: what the board shows.
  board.dataset.version = String(state.version);
  board.dataset.phase = state.phase;
  renderPlayers(state);
  const ending = renderGameEnd(state);
  $("#status").textContent = statusText(state);
  // Online, the tab's title says when the game waits for this browser's player (the page may
  // be behind another tab).
  document.title = waitsForMe(state) ? t("app.titleYourTurn", { title: t("app.title") }) : t("app.title");
  for (const button of document.querySelectorAll(".controls [data-action]")) {
    if (button.dataset.action !== "resign") button.hidden = !allowed(state, button.dataset.action);
  }
  $(".controls .resign").hidden = !allowed(state, "resign");
  // Acey-deucey, after a 1-2: the double to play, named with one of six buttons.
  $(".controls .name-double").hidden = !allowed(state, "name");
  for (const button of document.querySelectorAll(".controls [data-name]")) {
    button.textContent = t("button.nameDouble", { value: Number(button.dataset.name) });
  }
  // Once a game has ended there is something to look back on (for its players); online
  // between people, once the match has (no engine help while it is played), unless both
  // agreed to a practice match.
  const helped = !state.online || state.practice;
  const ended = state.match_over || (helped && state.record.some((game) => game.result));
  $("#analyse-button").hidden = !ended || !seatsHeld(state.id).length;
  $(".ids").hidden = otherGame(state);
  $("#practice-note").hidden = !(state.online && state.practice);
  $("#watching").hidden = seatsHeld(state.id).length > 0;
  renderOnline(state);
  $("#match-info").textContent = [
    otherGame(state) ? gameTitle(state) : "",
    state.length ? t("info.match", { length: state.length }) : t("info.money"),
    state.crawford ? t("info.crawford") : "",
  ].filter(Boolean).join(" · ");
  renderRecord(state);
  $("#gnubg-id").value = state.gnubg_id || "";
  $("#xgid").value = state.xgid || "";
  $("#export").href = matUrl(state.id);
  renderFairDice(state);
  // Once the controls show what may be done now (the focus may go on to one of them).
  keepFocus(board, focused);
  // After the board: a hint the game has moved past goes, and the marks of one shown are
  // drawn again over the new board.
  updateHints(state);
  updateTutor(state);
  // Hints are for the seats this screen plays.
  if (actingSeat(state) === null) $("#hint-button").hidden = true;
  return ending;
}

function show(incoming) {
  // The acting page may hear of its own action twice (the answer, and a push from a server
  // process other than the one that answered): draw it once. A push that runs ahead of the
  // answer it follows finds this page a version short, and withRecord has the state read.
  // An online match's opponent taking their seat, or a rematch offered or answered, changes
  // the state but not its version.
  const seen = page.state && incoming.id === page.state.id ? page.state : null;
  if (seen && (incoming.version < seen.version || (incoming.version === seen.version
    && incoming.waiting_for_opponent === seen.waiting_for_opponent && sameRematch(incoming, seen)))) return;
  // Answers and pushes carry only the record's changes since a version this page holds.
  const state = withRecord(incoming, seen);
  if (state === null) {
    refresh();
    return;
  }
  if (page.state && state.version !== page.state.version) page.selected = null;
  update(state);
}

/** Show `state`, the page's new state of its match: drawn, its play slid, its news said. */
function update(state) {
  const before = page.state;
  const ended = endShown(before);
  page.state = state;
  const ending = render();
  slidePlay(before, state);
  announceChange(before, state);
  rematchChanged(before, state);
  // The turn come online: a sound too, where the player asked for one.
  if (before && before.id === state.id && !waitsForMe(before) && waitsForMe(state) && turnSound()) {
    playTurnSound();
  }
  if (before && before.id === state.id && ending.length && !ended) {
    // The game's end just came: said after its result, and the way on offered to the keyboard.
    ending.forEach(say);
    const next = state.match_over ? $("#game-end-analyse") : $("#next-game");
    if (!next.hidden) next.focus({ preventScroll: true });
  }
}

/** The last game's count of entries in `state`'s record: a new one is something new. */
function entryCount(state) {
  const game = state.record[state.record.length - 1];
  return `${state.record.length}:${game ? game.entries.length : 0}`;
}

/** Slide the checkers moved from `before` to `after` (states of one match) on the board: the
 * steps made since this turn's last state, or the play just made that this page did not see
 * made step by step (the computer's, the opponent's online, a whole play sent at once). */
function slidePlay(before, after) {
  const dragged = page.dragged;
  page.dragged = false;
  if (!before || before.id !== after.id || after.version <= before.version || dragged) return;
  const board = $("#board");
  const turning = ["move", "confirm"].includes(before.phase);
  const madeBefore = turning ? before.made.length : 0;
  if (["move", "confirm"].includes(after.phase) && after.on_roll === before.on_roll
    && after.made.length > madeBefore) {
    const mover = after.on_roll;
    const steps = after.made.slice(madeBefore).map((step) => {
      const to = before.board.points[step.board_to - 1];
      return {
        from: placeOf(step.board_from, mover), to: placeOf(step.board_to, mover),
        hit: Boolean(to && to.seat === 1 - mover && to.count === 1),
      };
    });
    slideSteps(board, before.board, steps);
    return;
  }
  const shown = lastPlayOnBoard(after);
  if (!shown || entryCount(before) === entryCount(after)) return;
  // The steps this page saw made already slid as they were made.
  const seen = turning && before.on_roll === shown.seat ? madeBefore : 0;
  slideSteps(board, seen ? before.board : shown.before, shown.marks.slice(seen));
}

/** Make `action` for the seat this screen acts for now (a claim: for the seat claiming). */
async function send(action, seat = actingSeat(page.state)) {
  if (page.busy || seat === null) return;
  setBusy(true);
  $("#message").textContent = "";
  try {
    show(await act(page.state.id, page.view, { ...action, seat, version: page.state.version }));
  } catch (error) {
    $("#message").textContent = t(refusal(error, "error.refused"));
    show(await getState(page.state.id, page.view));
  } finally {
    setBusy(false);
  }
}

/** Send `action` by name, judged first where the tutor is on (tutor.js): taking a play back
 * undoes its steps, one at a time as the player would. */
function sendThroughTutor(action) {
  if (page.busy) return;
  const state = page.state;
  throughTutor(state, page.view, action, {
    go: () => send({ action }),
    busy: setBusy,
    takeBack: async () => {
      for (let left = state.made.length; left > 0 && page.state.made?.length; left -= 1) {
        await send({ action: "undo" });
      }
    },
  });
}

/** While an action is on its way the board takes no other (and says so to screen readers). */
function setBusy(busy) {
  page.busy = busy;
  $("#board").setAttribute("aria-busy", String(busy));
}

function onPlace(place) {
  const state = page.state;
  if (!state || page.busy) return;
  const model = boardModel(state);
  if (model.selected && model.targets.has(place)) {
    const step = stepBetween(state.steps, state.on_roll, model.selected, place);
    page.selected = null;
    send({ action: "step", from: step.from, to: step.to });
    return;
  }
  // A checker with only one place to go goes there at once; one with a choice is picked up.
  const obvious = place !== model.selected ? obviousStep(movableSteps(state), state.on_roll, place) : null;
  if (obvious) {
    page.selected = null;
    send({ action: "step", from: obvious.from, to: obvious.to });
    return;
  }
  // A click anywhere else picks up another checker, or puts the one held back: the game
  // itself does not change.
  page.selected = model.sources.has(place) && place !== model.selected ? place : null;
  if (!page.selected && model.canRoll) {
    send({ action: "roll" });
    return;
  }
  render();
  if (page.selected) announcePickUp(page.selected, targetsOf(movableSteps(state), state.on_roll, page.selected));
  else if (model.selected) announcePutBack();
}

/** The steps this screen may make now (none while the game waits for the other side). */
function movableSteps(state) {
  return allowed(state, "step") ? state.steps : [];
}

// Dragging (drag.js): the places a checker may be dropped on are the server's steps from it.
function dragTargets(place) {
  if (!page.state || page.busy) return null;
  return targetsOf(movableSteps(page.state), page.state.on_roll, place);
}

function onLift(place) {
  page.selected = place; // highlighted as a click would
  render();
}

function onDrop(from, to) {
  const state = page.state;
  // Looked up again: a state may have come in during the drag.
  const step = state && !page.busy ? stepBetween(movableSteps(state), state.on_roll, from, to) : null;
  page.selected = null;
  if (step) {
    page.dragged = true;
    send({ action: "step", from: step.from, to: step.to });
  } else render();
}

function onDragCancel() {
  page.selected = null;
  render();
}

function onBoard() {
  if (page.state && boardModel(page.state).canRoll) send({ action: "roll" });
  else if (page.selected) {
    page.selected = null;
    render();
  }
}

async function openMatch(id) {
  if (page.stopWatching) page.stopWatching();
  closeAnalysis();
  $("#setup").hidden = true;
  $("#join").hidden = true;
  $("#play").hidden = false;
  $("#new-game").hidden = false;
  page.state = null;
  page.view = seatsHeld(id).length === 1 ? seatsHeld(id)[0] : 0;
  try {
    let state = await getState(id, page.view);
    if (state.unheld && !seatsHeld(id).length) {
      // Saved before seats had tokens: the first page to open it takes its seats.
      try {
        const taken = await takeSeats(id);
        page.view = taken.seats.length === 1 ? taken.seats[0] : 0;
        state = await getState(id, page.view);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 409)) throw error; // taken elsewhere: watched
      }
    }
    show(state);
    openChat(state);
  } catch (error) {
    $("#message").textContent = t(error instanceof ApiError && error.status === 404 ? "error.notFound" : "error.network");
    return;
  }
  page.stopWatching = watch(id, page.view, (state) => {
    $("#message").textContent = "";
    show(state);
  }, () => {
    $("#message").textContent = t("error.reconnecting");
  }, { onChat: chatPushed, onOpen: readChat });
}

/** Read the state again, as it is now (the claim's time has come, which no push says). */
async function refresh() {
  if (!page.state) return;
  const id = page.state.id;
  const state = await getState(id, page.view).catch(() => null);
  if (state && page.state && page.state.id === id && state.version >= page.state.version) {
    update(state);
  }
}

function showSetup() {
  if (page.stopWatching) page.stopWatching();
  closeAnalysis();
  page.state = null;
  $("#play").hidden = true;
  $("#join").hidden = true;
  $("#new-game").hidden = true;
  $("#setup").hidden = false;
  showChoice($("#setup-form")); // signed in or out meanwhile: the rated match offered or not
  showLobby();
}

async function startMatch(event) {
  event.preventDefault();
  const form = event.target;
  const options = matchOptions(form);
  // The home board's side is this screen's preference, not the game's: kept, not sent.
  chooseHomeSide(form.elements.namedItem("home_side").value);
  keepTutorChoice(form);
  $("#setup-message").textContent = "";
  try {
    const state = await createMatch(options);
    history.pushState(null, "", `?match=${encodeURIComponent(state.id)}`);
    await openMatch(state.id);
  } catch (error) {
    // A position that sets up no game, or a rated match the server cannot rate (the form
    // offers one only to a signed-in page, but the session may have ended meanwhile): the
    // server's sentence says why, which is worth more than a general refusal.
    const why = error instanceof ApiError && error.status === 422 ? error.message : "";
    const key = options.position ? "error.position" : options.rated ? "error.rated" : "";
    $("#setup-message").textContent = why && key ? t(key, { reason: why }) : t(refusal(error, "error.refused"));
  }
}

/** Draw the home board on `side` from now on, and show the choice in both of its menus. */
function chooseHomeSide(side) {
  setHomeSide(side);
  for (const menu of document.querySelectorAll('[name="home_side"], #home-side')) {
    menu.value = homeSide();
  }
  render();
}

/** The ways to move besides a click: dragging, Escape, and the home board's side. */
function setUpBoardInput() {
  const board = $("#board");
  enableDrag(board, { targetsFor: dragTargets, onLift, onDrop, onCancel: onDragCancel });
  board.addEventListener("keydown", (event) => {
    // Escape puts back the checker picked up, as a click beside it does.
    if (event.key === "Escape" && page.selected) {
      event.preventDefault();
      page.selected = null;
      render();
      announcePutBack();
    }
  });
  for (const menu of document.querySelectorAll('[name="home_side"], #home-side')) {
    menu.value = homeSide();
  }
  $("#home-side").addEventListener("change", (event) => chooseHomeSide(event.target.value));
  $("#turn-sound").checked = turnSound();
  $("#turn-sound").addEventListener("change", (event) => {
    setTurnSound(event.target.checked);
    if (event.target.checked) primeSound(); // allowed now, while the person uses the page
  });
}

/** Ask before resigning: the level chosen, said in a dialog that keeps playing by default. */
function confirmResignation() {
  const level = t(`resign.level.${$("#resign-level").value}`);
  $("#resign-question").textContent = t("resign.confirm", { level });
  $("#resign-dialog").returnValue = "";
  $("#resign-dialog").showModal();
}

/** What the address names: a match (?match=ID), its analysis (&analyse=1), the analysis of
 * an uploaded file (?analysis=ID), or else the front page. */
function route() {
  const params = new URLSearchParams(location.search);
  const id = params.get("match");
  const upload = params.get("analysis");
  takeSeatFromAddress(id);
  const invite = location.pathname.match(/^\/join\/([\w-]+)$/);
  if (invite) showJoin(invite[1]);
  else if (id && params.get("analyse")) showMatchAnalysis(id);
  else if (id) openMatch(id);
  else if (upload) showAnalysis({ upload });
  else showSetup();
}

function showAnalysis(source, colours) {
  if (page.stopWatching) page.stopWatching();
  page.stopWatching = null;
  page.state = null;
  $("#new-game").hidden = false;
  openAnalysis(source, colours);
}

async function showMatchAnalysis(id) {
  let colours;
  try {
    colours = (await getState(id, 0)).seats.map((seat) => seat.colour);
  } catch {
    colours = undefined; // the analysis says why, if the match is not there
  }
  showAnalysis({ match: id }, colours);
}

/** Back from an analysis: to its match, or to the front page after an uploaded file's. */
function leaveAnalysis() {
  const id = new URLSearchParams(location.search).get("match");
  history.pushState(null, "", id ? `?match=${encodeURIComponent(id)}` : location.pathname);
  route();
}

/** Every text of the page again, in the language just loaded. */
function relabel() {
  document.title = t("app.title");
  applyMessages();
  $("#help-link").href = `/help/${language()}/`;
  $("#tutorial-link").href = `/tutorial/${language()}`;
  $("#language").value = language();
  render();
  relabelHints();
  relabelTutor();
  relabelAnalysis();
  relabelLobby();
  relabelChat();
}

/** The language menu: the one chosen in this browser, else the browser's own; a change loads
 * its catalogue and says everything again (the game goes on as it was). */
function setUpLanguage() {
  setUpLanguageMenu($("#language"), relabel);
}

async function main() {
  await loadMessages(chosenLanguage(LANGUAGES) || browserLanguage());
  document.title = t("app.title");
  applyMessages();
  $("#help-link").href = `/help/${language()}/`; // the help in the page's language
  $("#tutorial-link").href = `/tutorial/${language()}`;
  setUpLanguage();
  setUpSetup($("#setup-form"));
  $("#setup-form").addEventListener("submit", startMatch);
  setUpBoardInput();
  setUpHints({ nameOf: playerName });
  setUpOnline({ open: openMatch, refresh, claim: (action) => send(action, claimSeat(page.state)) });
  setUpAnnouncements({
    get view() { return page.view; }, // the seat the board is drawn for, which a match sets
    nameOf: playerName, about, resultOf: resultText, nowOf: (state) => statusParts(state).now,
  });
  setUpAnalysis({ onClose: leaveAnalysis });
  setUpRematch({ state: () => page.state, show, open: openMatch });
  setUpFairDice({ names: playerName });
  setUpChat();
  setUpTutor();
  const analyseMatch = () => {
    const id = page.state.id;
    history.pushState(null, "", `?match=${encodeURIComponent(id)}&analyse=1`);
    showMatchAnalysis(id);
  };
  $("#analyse-button").addEventListener("click", analyseMatch);
  $("#game-end-analyse").addEventListener("click", analyseMatch);
  $("#next-game").addEventListener("click", nextGame);
  $("#new-game").addEventListener("click", () => {
    history.pushState(null, "", location.pathname);
    showSetup();
  });
  for (const button of document.querySelectorAll(".controls [data-action]")) {
    button.addEventListener("click", () => {
      const action = button.dataset.action;
      if (action === "resign") confirmResignation();
      else sendThroughTutor(action);
    });
  }
  for (const button of document.querySelectorAll(".controls [data-name]")) {
    button.addEventListener("click", () => send({ action: "name", die: Number(button.dataset.name) }));
  }
  // Resigning is asked once more (it may end the game), keeping playing the default.
  $("#resign-dialog").addEventListener("close", () => {
    if ($("#resign-dialog").returnValue === "resign") {
      send({ action: "resign", level: Number($("#resign-level").value) });
    }
  });
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", () => copyField($(`#${button.dataset.copy}`), button));
  }
  window.addEventListener("popstate", route);
  route();
}

main();
