// The page: the front page's choices (setup.js), then the board and its controls for the
// match in the address (?match=ID), so a reload comes back to the same game. The server
// decides everything; this module only shows the state it sends and sends back one action at
// a time, for the seats this browser holds a token of (seats.js); a match it holds none of is
// only watched. The game is said in words by words.js; the end of a game has its panel
// (gameend.js), the match its record (record.js) and the board its controls (controls.js).

import { closeAnalysis, openAnalysis, relabelAnalysis, setUpAnalysis } from "./analysis.js";
import { announceChange, announcePickUp, announcePutBack, say, setUpAnnouncements } from "./announce.js";
import { ApiError, act, createMatch, getState, matUrl, refusal, takeSeats, watch, withRecord } from "./api.js";
import { renderBoard, slideSteps } from "./board.js";
import { chatPushed, openChat, readChat, relabelChat, setUpChat } from "./chat.js";
import { renderControls, setUpControls } from "./controls.js";
import { copyField } from "./copy.js";
import { enableDrag } from "./drag.js";
import { renderFairDice, setUpFairDice } from "./fair.js";
import { keepFocus, keyboardFocus } from "./focus.js";
import { endShown, renderGameEnd, seeEnd } from "./gameend.js";
import { relabelHints, setUpHints, updateHints } from "./hint.js";
import { LANGUAGES, applyMessages, browserLanguage, language, loadMessages, t } from "./i18n.js";
import { setUpLanguageMenu } from "./language_menu.js";
import { lastPlay, lastPlayOnBoard, markLastPlay } from "./lastplay.js";
import { relabelLobby } from "./lobby.js";
import { obviousStep, placeOf, sourcesOf, stepBetween, targetsOf } from "./moves.js";
import { claimSeat, renderOnline, setUpOnline, showJoin, showLobby } from "./online.js";
import {
  homeSide, language as chosenLanguage, setHomeSide, setTurnSound, turnSound,
} from "./prefs.js";
import { renderRecord } from "./record.js";
import { rematchChanged, sameRematch, setUpRematch } from "./rematch.js";
import { actingSeat, allowed, seatsHeld, takeSeatFromAddress, waitsForMe } from "./seats.js";
import { matchOptions, setUpSetup, showChoice } from "./setup.js";
import { playTurnSound, primeSound } from "./sound.js";
import { keepTutorChoice, relabelTutor, setUpTutor, throughTutor, updateTutor } from "./tutor.js";
import { about, gameTitle, otherGame, playerName, resultText, statusParts, statusText } from "./words.js";

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
};

const $ = (selector) => document.querySelector(selector);

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

/** On to the next game: the panel goes, and the opening roll is made where this screen may;
 * the keyboard's focus goes on to what there is to do then (a checker to move, a control). */
async function nextGame() {
  const { state } = page;
  if (!state) return;
  seeEnd(state);
  render();
  if (allowed(state, "roll")) await send({ action: "roll" });
  const next = $("#board .is-source[tabindex]") || $(".controls button.primary:not([hidden])");
  next?.focus({ preventScroll: true });
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
  renderControls(state);
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
  setUpControls({ act: sendThroughTutor, send });
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", () => copyField($(`#${button.dataset.copy}`), button));
  }
  window.addEventListener("popstate", route);
  route();
}

main();
