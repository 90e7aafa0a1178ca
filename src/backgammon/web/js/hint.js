// Hints: the Hint button, the panel beside the board with the computer's advice, and the marks
// of the play looked at drawn over the board.
//
// The server thinks (GET /api/matches/{id}/hint); this module shows what it answers: for a
// move, the best plays with their equities and chances, each row a button that draws its play
// on the board (the best one when the panel opens; hovering or focusing a row shows that row's
// play until the pointer or the focus leaves) and its reasons below the list; for the cube, the
// right action, its three equities and its reasons. The reasons come in words from the server,
// in the page's language (asked again when the language changes). A hint is for one version
// of the game: the panel closes when the state moves on. In the other games (Portes, Plakoto,
// Long Nardy, ...) a play's equity is in points, without chances, and after an Acey-deucey
// 1-2 the panel ranks the doubles to name.

import { getHint, refusal } from "./api.js";
import { drawPlayMarks } from "./board.js";
import { chancesText, percent, signed } from "./figures.js";
import { formatNumber, isolate, language, plural, t } from "./i18n.js";
import { placeOf } from "./moves.js";

const hint = {
  nameOf: null, // from setUpHints
  state: null, // the state last shown
  data: null, // the hint shown, or null
  asked: null, // {id, version} of the hint on its way, or null
  chosen: 0, // the row selected
  looked: null, // the row hovered or focused, or null
};

const $ = (selector) => document.querySelector(selector);

/** Whether the seat the game waits for is a person's, at a moment hints cover. */
function hintable(state) {
  const seat = state.to_act;
  if (state.match_over || seat === null || state.seats[seat].kind !== "human") return false;
  // An online match between people gets no engine help until it is over (the server
  // refuses), unless both players agreed to a practice match before its first roll.
  if (state.online && !state.practice) return false;
  if (state.phase === "roll") return state.actions[seat].includes("double");
  // The other games (their board says its way round) have no cube and no resignation hint.
  if (state.board.travel) return ["move", "confirm", "name"].includes(state.phase);
  return ["move", "confirm", "cube", "resign"].includes(state.phase);
}

/**
 * Set up the button and the panel. `nameOf(state, seat)`: a player's name as the page says
 * it.
 */
export function setUpHints({ nameOf }) {
  hint.nameOf = nameOf;
  $("#hint-button").addEventListener("click", () => (isOpen() ? close() : open()));
  $("#hint-close").addEventListener("click", () => {
    close();
    $("#hint-button").focus();
  });
}

/** After each drawing of the board: drop a hint the game has moved past, show or hide the
 * button, and draw the marks again (the board is drawn afresh each time). */
export function updateHints(state) {
  const moved = (seen) => seen && (seen.id !== state.id || seen.version !== state.version);
  hint.state = state;
  const button = $("#hint-button");
  button.hidden = !hintable(state);
  if (isOpen() && (button.hidden || moved(hint.data) || moved(hint.asked))) close();
  drawMarks();
}

function isOpen() {
  return !$("#hint").hidden;
}

async function open() {
  const state = hint.state;
  if (!state || !hintable(state)) return;
  const asked = { id: state.id, version: state.version };
  const byKeyboard = document.activeElement === $("#hint-button");
  hint.asked = asked;
  hint.data = null;
  $("#hint").hidden = false;
  $("#hint-button").setAttribute("aria-expanded", "true");
  $("#hint-body").replaceChildren();
  $("#hint-note").textContent = t("hint.thinking");
  $("#hint").setAttribute("aria-busy", "true");
  const lang = language();
  let data;
  try {
    data = await getHint(state.id, state.view, lang); // places named as the board shows them
  } catch (error) {
    if (hint.asked !== asked) return;
    hint.asked = null;
    $("#hint").setAttribute("aria-busy", "false");
    $("#hint-note").textContent = t(refusal(error, "hint.unavailable"));
    return;
  }
  // Closed meanwhile, asked again, or overtaken by the game: this answer is for nothing shown.
  if (hint.asked !== asked) return;
  hint.asked = null;
  $("#hint").setAttribute("aria-busy", "false");
  if (data.version !== hint.state.version || state.id !== hint.state.id) {
    close();
    return;
  }
  hint.data = { ...data, id: state.id, lang };
  hint.chosen = 0;
  hint.looked = null;
  renderPanel();
  drawMarks();
  if (byKeyboard) $("#hint-body button")?.focus();
}

function close() {
  // The focus in the panel would be lost with it: it goes back to the button, if shown.
  if ($("#hint").contains(document.activeElement) && !$("#hint-button").hidden) {
    $("#hint-button").focus();
  }
  hint.data = null;
  hint.asked = null;
  hint.looked = null;
  $("#hint").hidden = true;
  $("#hint").setAttribute("aria-busy", "false");
  $("#hint-button").setAttribute("aria-expanded", "false");
  $("#hint-body").replaceChildren();
  $("#hint-note").textContent = "";
  drawMarks();
}

function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

function renderPanel() {
  const { data } = hint;
  const body = $("#hint-body");
  body.replaceChildren();
  if (data.kind === "move") renderPlays(body, data);
  else if (data.kind === "double") renderDoubles(body, data);
  else if (data.kind === "resign") renderResignation(body, data);
  else renderCube(body, data);
}

function renderPlays(body, data) {
  const dice = data.dice.map(formatNumber).join("–");
  const notes = [plural("hint.plays", data.plays.length, { dice })];
  if (data.from_turn_start) notes.push(t("hint.fromStart"));
  $("#hint-note").textContent = notes.join(" ");
  const columns = document.createElement("div");
  columns.className = "hint-columns";
  columns.setAttribute("aria-hidden", "true");
  columns.append(
    span("hint-rank", ""),
    span("hint-notation", t("hint.column.play")),
    span("hint-equity", t("hint.column.equity")),
    span("hint-difference", t("hint.column.difference")),
  );
  const list = document.createElement("ol");
  list.className = "hint-plays";
  data.plays.forEach((play, index) => {
    const item = document.createElement("li");
    const row = document.createElement("button");
    row.type = "button";
    row.className = "hint-play";
    row.dataset.index = String(index);
    row.dataset.play = play.play;
    const undoFirst = data.from_turn_start && play.remaining === null;
    row.classList.toggle("needs-undo", undoFirst);
    row.setAttribute("aria-pressed", String(index === hint.chosen));
    const difference = index === 0 ? "" : signed(play.difference);
    // The other games' engine judges points only: no chances.
    const chances = play.chances ? chancesText(play.chances) : "";
    const spoken = play.chances ? chancesText(play.chances, "hint.chancesLabel") : "";
    row.append(
      span("hint-rank", formatNumber(index + 1)),
      span("hint-notation", play.play),
      span("hint-equity", signed(play.equity)),
      span("hint-difference", difference),
      span("hint-chances", undoFirst ? `${chances} ${t("hint.undoFirst")}` : chances),
    );
    // Named by what it shows (a voice command says what is seen), described in words.
    const words = span("visually-hidden", [
      t("hint.playLabel", { rank: index + 1, play: play.play, equity: signed(play.equity) }),
      index === 0 ? t("hint.bestLabel") : t("hint.behindLabel", { difference: signed(play.difference) }),
      spoken,
      undoFirst ? t("hint.undoFirst") : "",
    ].filter(Boolean).join(" "));
    words.id = `hint-play-words-${index}`;
    row.setAttribute("aria-describedby", words.id);
    row.addEventListener("click", () => choose(index));
    row.addEventListener("mouseenter", () => look(index));
    row.addEventListener("focus", () => look(index));
    row.addEventListener("mouseleave", () => look(null));
    row.addEventListener("blur", () => look(null));
    item.append(row, words);
    list.appendChild(item);
  });
  body.append(columns, list, reasonsList());
  if (data.plays.some((play) => !play.chances)) body.append(pointsUnit(data));
  showPlayReasons();
}

/** The unit of the other games' equities: the points the player can expect. */
function pointsUnit(data) {
  const unit = document.createElement("p");
  unit.className = "hint-unit";
  unit.textContent = t("hint.pointsUnit", { player: hint.nameOf(hint.state, data.seat) });
  return unit;
}

/** After an Acey-deucey 1-2: the six doubles to name, each by its best play. */
function renderDoubles(body, data) {
  $("#hint-note").textContent = t("hint.doubles");
  const rows = data.doubles.map((double) => [
    String(double.die),
    `${t("button.nameDouble", { value: formatNumber(double.die) })}: ${double.play === null ? t("hint.noMove") : isolate(double.play)}`,
    signed(double.equity),
  ]);
  body.append(valueList(rows, String(data.doubles[0].die)), pointsUnit(data));
}

/** The place of a hint's reasons: a heading and a list, filled by showReasons. */
function reasonsList() {
  const section = document.createElement("div");
  section.className = "hint-why";
  const heading = document.createElement("p");
  heading.className = "hint-why-heading";
  heading.id = "hint-why-heading";
  const list = document.createElement("ul");
  list.className = "hint-reasons";
  list.setAttribute("aria-labelledby", heading.id);
  section.append(heading, list);
  return section;
}

/** Show `reasons` in `section` ("Why", or "Why <play>" for a play's); none: hidden. */
function showReasons(section, reasons, play = null) {
  section.hidden = reasons.length === 0;
  section.querySelector(".hint-why-heading").textContent =
    play === null ? t("hint.why") : t("hint.whyPlay", { play: isolate(play) });
  section.querySelector(".hint-reasons").replaceChildren(...reasons.map((reason) => {
    const item = document.createElement("li");
    item.textContent = reason;
    return item;
  }));
}

/** The reasons of the play looked at (else the one selected) under the list of plays. */
function showPlayReasons() {
  const section = $("#hint-body .hint-why");
  const play = hint.data?.plays?.[hint.looked ?? hint.chosen];
  if (section && play) showReasons(section, play.reasons, play.play);
}

/** A decision's reasons, shown at once. */
function decisionReasons(reasons) {
  const section = reasonsList();
  showReasons(section, reasons);
  return section;
}

/** After the language changed: the panel said again in the new one (asked again for reasons
 * in the new language). */
export function relabelHints() {
  if (!isOpen()) return;
  if (hint.data && hint.data.lang !== language()) open();
  else if (hint.data) renderPanel();
  else if (hint.asked) $("#hint-note").textContent = t("hint.thinking");
}

function choose(index) {
  hint.chosen = index;
  for (const row of document.querySelectorAll("#hint-body .hint-play")) {
    row.setAttribute("aria-pressed", String(Number(row.dataset.index) === index));
  }
  showPlayReasons();
  drawMarks();
}

function look(index) {
  hint.looked = index;
  showPlayReasons();
  drawMarks();
}

const PROPER = { "no double": "noDouble", double: "double", "too good": "tooGood" };

function renderCube(body, data) {
  const { cube } = data;
  const state = hint.state;
  const doubler = hint.nameOf(state, cube.doubler);
  $("#hint-note").textContent = t(`hint.cube.advice.${cube.recommended}`);
  const proper = document.createElement("p");
  proper.className = "hint-proper";
  proper.textContent = t(`hint.cube.proper.${PROPER[cube.action]}`, {
    response: t(`hint.cube.response.${cube.response}`),
  });
  const value = (equity) => {
    if (equity === null) return t("hint.cube.none");
    return cube.unit === "match" ? percent(equity) : signed(equity);
  };
  // The equity of the right action, marked in the list.
  const best = cube.action !== "double" ? "no_double" : cube.response === "drop" ? "double_pass" : "double_take";
  const rows = [["no_double", "noDouble"], ["double_take", "doubleTake"], ["double_pass", "doublePass"]];
  const list = valueList(rows.map(([key, name]) => [key, t(`hint.cube.${name}`), value(cube[key])]), best);
  const unit = document.createElement("p");
  unit.className = "hint-unit";
  unit.textContent = t(cube.unit === "match" ? "hint.cube.unitMatch" : "hint.cube.unitCube", { player: doubler });
  const chances = document.createElement("p");
  chances.className = "hint-chances";
  chances.textContent = t("hint.cube.chances", { player: doubler, chances: chancesText(cube.chances) });
  body.append(proper, decisionReasons(cube.reasons), list, unit, chances);
}

/** A list of [key, term, figure] rows, the row `best` marked: the values a decision weighs. */
function valueList(rows, best) {
  const list = document.createElement("dl");
  list.className = "hint-equities";
  for (const [key, text, shown] of rows) {
    const term = document.createElement("dt");
    term.textContent = text;
    const figure = document.createElement("dd");
    figure.textContent = shown;
    figure.dataset.equity = key;
    term.classList.toggle("is-best", key === best);
    figure.classList.toggle("is-best", key === best);
    list.append(term, figure);
  }
  return list;
}

function renderResignation(body, data) {
  const { resignation } = data;
  $("#hint-note").textContent = t(resignation.accept ? "hint.resign.accept" : "hint.resign.reject");
  const value = (figure) => (resignation.unit === "match" ? percent(figure) : signed(figure));
  const best = resignation.accept ? "accepting" : "playing_on";
  const level = t(`resign.level.${resignation.level}`);
  const rows = [["accepting", "accepting"], ["playing_on", "playingOn"]];
  const list = valueList(rows.map(([key, name]) => [key, t(`hint.resign.${name}`, { level }), value(resignation[key])]), best);
  const unit = document.createElement("p");
  unit.className = "hint-unit";
  const player = hint.nameOf(hint.state, data.seat);
  unit.textContent = t(resignation.unit === "match" ? "hint.resign.unitMatch" : "hint.resign.unitPoints", { player });
  body.append(decisionReasons(resignation.reasons), list, unit);
}

/** The marks of the play looked at (else the one selected) over the board, or none. */
function drawMarks() {
  const board = $("#board");
  const { data, state } = hint;
  if (!board || !state || !data || data.kind !== "move" || !data.plays.length) {
    if (board) drawPlayMarks(board, null, []);
    return;
  }
  const play = data.plays[hint.looked ?? hint.chosen];
  // From the steps made, the steps still to make (numbered on from them); a play the steps
  // made do not lead to is drawn whole, from its first step.
  const resume = state.made.length && play.remaining !== null;
  const steps = resume ? play.remaining : play.steps;
  const first = resume ? state.made.length + 1 : 1;
  const mover = data.seat;
  drawPlayMarks(board, { ...state.board, view: state.view }, steps.map((step, index) => ({
    from: placeOf(step.board_from, mover),
    to: placeOf(step.board_to, mover),
    hit: step.hit,
    number: first + index,
  })));
}
