// The position editor (/editor): any position set by hand on the game's own board, checked and
// written as IDs by the server, and studied or played on from there.
//
// Every checker is somewhere: on a point, on a bar, or borne off (the variant's checkers not
// on the board are off, as in GNU Backgammon's editor). So editing is moving checkers: pick a
// place that holds checkers (click, Enter or Space on it, or drag it) and put one down on any
// place its side may take (a point free or its own, its bar, its tray). The picked place stays
// picked, so that clicks on points deal its checkers out one by one; Escape, or a click on it
// again, puts it down.
//
// The server checks each position and writes its IDs (POST /api/editor/ids), and reads a
// pasted ID back (POST /api/editor/read): the rules and the IDs live in the core alone. The
// address holds the GNU Backgammon ID (and the variant), so that it is the position's link.
// The position itself is editor_position.js's; studying it (the engine's hint, evaluation and
// rollout) is editor_study.js's.

import { say } from "./announce.js";
import { createMatch, positionIds, readPosition } from "./api.js";
import { renderBoard } from "./board.js";
import { copyField } from "./copy.js";
import { enableDrag } from "./drag.js";
import {
  asked, countOf, editor, failure, move, off, pips, seatOf, sources, take, targetsOf,
} from "./editor_position.js";
import { rolloutRunning, setUpStudy, toggleRollout } from "./editor_study.js";
import {
  LANGUAGES, applyMessages, browserLanguage, formatNumber, language, loadMessages, t,
} from "./i18n.js";
import { setUpLanguageMenu } from "./language_menu.js";
import { language as chosenLanguage } from "./prefs.js";

const $ = (selector) => document.querySelector(selector);
const CUBES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
const CHECK_DELAY_MS = 120; // edits this close together are checked once

// The board.

function placeName(place) {
  if (place.startsWith("p")) return t("editor.place.point", { n: formatNumber(Number(place.slice(1))) });
  const who = t(Number(place.slice(-1)) === 0 ? "editor.white" : "editor.black");
  return t(place.startsWith("bar") ? "editor.place.bar" : "editor.place.off", { player: who });
}

function model() {
  const points = Array.from({ length: 24 }, (_, i) => {
    const seat = seatOf(`p${i + 1}`);
    return { seat, count: seat === null ? 0 : countOf(`p${i + 1}`) };
  });
  const selected = editor.selected;
  return {
    view: 0,
    mover: selected ? seatOf(selected) : editor.onRoll,
    points,
    bar: [editor.boards[0][24], editor.boards[1][24]],
    off: [off(0), off(1)],
    colours: ["white", "black"],
    names: [t("editor.white"), t("editor.black")],
    dice: (editor.dice || []).map((value) => ({ value, used: false })),
    diceSeat: editor.onRoll,
    openingTie: null,
    thrown: null,
    cube: { value: editor.cubeValue, owner: editor.cubeOwner, used: true, offer: null },
    sources: sources(),
    targets: selected ? targetsOf(selected) : new Set(),
    selected,
    canRoll: false,
  };
}

function drawBoard() {
  const board = $("#board");
  const focused = board.contains(document.activeElement) ? document.activeElement.dataset.place : null;
  renderBoard(board, model(), { onPlace, onBoard: () => {} });
  board.classList.add("can-drag");
  if (focused) board.querySelector(`[data-place="${focused}"][tabindex]`)?.focus();
}

function onPlace(place) {
  const selected = editor.selected;
  if (selected === place) {
    editor.selected = null;
    say(t("editor.putDown"));
  } else if (selected && targetsOf(selected).has(place)) {
    move(selected, place);
    say(t("editor.moved", { from: placeName(selected), to: placeName(place) }));
    if (countOf(selected) === 0) editor.selected = null;
    changed();
    return;
  } else if (countOf(place) > 0) {
    editor.selected = place;
    say(t("editor.pickedUp", { place: placeName(place) }));
  } else {
    editor.selected = null;
  }
  drawBoard();
}

// The form.

function fillMenus() {
  const dice = $("#editor-dice");
  const rolls = [["", t("editor.toRoll")]];
  for (let high = 6; high >= 1; high -= 1) {
    for (let low = high; low >= 1; low -= 1) rolls.push([`${high}${low}`, `${formatNumber(high)}-${formatNumber(low)}`]);
  }
  dice.replaceChildren(...rolls.map(([value, text]) => new Option(text, value)));
  const cube = $("#editor-cube-value");
  cube.replaceChildren(...CUBES.map((value) => new Option(formatNumber(value), String(value))));
}

function showForm() {
  $("#editor-variant").value = editor.variant;
  $("#editor-on-roll").value = String(editor.onRoll);
  // The menu names each roll high die first, as GNU Backgammon writes it; an XGID may not.
  $("#editor-dice").value = editor.dice ? [...editor.dice].sort((a, b) => b - a).join("") : "";
  $("#editor-cube-value").value = String(editor.cubeValue);
  $("#editor-cube-owner").value = editor.cubeOwner === null ? "" : String(editor.cubeOwner);
  $("#editor-length").value = String(editor.length);
  $("#editor-score-0").value = String(editor.score[0]);
  $("#editor-score-1").value = String(editor.score[1]);
  $("#editor-crawford").checked = editor.crawford;
  const match = editor.length > 0;
  for (const id of ["#editor-score-0", "#editor-score-1", "#editor-crawford"]) $(id).disabled = !match;
}

function readForm() {
  const whole = (text) => (/^\d{1,3}$/.test(text.trim()) ? Number(text) : NaN);
  const dice = $("#editor-dice").value;
  editor.onRoll = Number($("#editor-on-roll").value);
  editor.dice = dice ? [Number(dice[0]), Number(dice[1])] : null;
  editor.cubeValue = Number($("#editor-cube-value").value);
  const owner = $("#editor-cube-owner").value;
  editor.cubeOwner = owner === "" ? null : Number(owner);
  editor.length = whole($("#editor-length").value);
  editor.score = editor.length > 0 ? [whole($("#editor-score-0").value), whole($("#editor-score-1").value)] : [0, 0];
  editor.crawford = editor.length > 0 && $("#editor-crawford").checked;
}

/** Something changed: draw it now, and have it checked (once for edits close together). */
function changed() {
  editor.checked = null;
  editor.asked += 1;
  $("#editor-answer").hidden = true; // an answer about another position
  showChecked();
  drawBoard();
  clearTimeout(editor.timer);
  if (Number.isNaN(editor.length) || editor.score.some(Number.isNaN)) {
    showStatus(t("editor.badNumber"), true);
    return;
  }
  editor.timer = setTimeout(check, CHECK_DELAY_MS);
}

async function check() {
  const ticket = editor.asked;
  $("#editor-status").textContent = t("editor.checking");
  try {
    const answer = await positionIds(asked());
    if (ticket !== editor.asked) return;
    editor.checked = answer;
    showChecked();
  } catch (error) {
    if (ticket !== editor.asked) return;
    showStatus(failure(error, "error.position"), true);
  }
}

function showStatus(text, refused) {
  const status = $("#editor-status");
  status.textContent = text;
  status.classList.toggle("is-refused", refused);
}

/** The IDs, the link and the buttons of the position checked (none while it is not). */
function showChecked() {
  const answer = editor.checked;
  $("#gnubg-id").value = answer ? answer.gnubg_id : "";
  $("#xgid").value = answer ? answer.xgid : "";
  for (const id of ["#editor-hint", "#editor-evaluate", "#editor-rollout", "#editor-play-computer", "#editor-play-screen"]) {
    $(id).disabled = !answer;
  }
  $("#rollout-start").disabled = !answer || rolloutRunning();
  $("#board").dataset.checked = answer ? answer.gnubg_id : "";
  if (!answer) return;
  const params = new URLSearchParams({ id: answer.gnubg_id });
  if (answer.variant !== "standard") params.set("variant", answer.variant);
  const address = `${location.pathname}?${params}`;
  history.replaceState(null, "", address);
  $("#editor-link").value = `${location.origin}${address}`;
  const player = t(editor.onRoll === 0 ? "editor.white" : "editor.black");
  showStatus(t("editor.valid", {
    player, white: formatNumber(pips(0)), black: formatNumber(pips(1)),
  }), false);
}

async function read(id, variant = editor.variant) {
  $("#editor-id-message").textContent = "";
  try {
    const answer = await readPosition(id === null ? { variant } : { id, variant });
    take(answer);
    editor.asked += 1;
    editor.checked = answer;
    showForm();
    drawBoard();
    showChecked();
    $("#editor-answer").hidden = true;
    return true;
  } catch (error) {
    $("#editor-id-message").textContent = failure(error, "editor.badId");
    return false;
  }
}

async function play(opponent) {
  const answer = editor.checked;
  if (!answer) return;
  $("#editor-play-message").textContent = "";
  try {
    const created = await createMatch({
      opponent,
      level: $("#editor-level").value,
      variant: answer.variant,
      length: answer.length,
      position: answer.gnubg_id,
    });
    location.assign(`/?match=${encodeURIComponent(created.id)}`);
  } catch (error) {
    $("#editor-play-message").textContent = failure(error, "error.position");
  }
}

// The page.

function relabel() {
  document.title = t("editor.title");
  applyMessages();
  fillMenus();
  showForm();
  $("#help-link").href = `/help/${language()}/`;
  $("#language").value = language();
  drawBoard();
  if (editor.checked) showChecked();
}

function wire() {
  const board = $("#board");
  enableDrag(board, {
    targetsFor: (place) => targetsOf(place),
    onLift: (place) => {
      editor.selected = place;
      drawBoard();
    },
    onDrop: (from, to) => {
      move(from, to);
      say(t("editor.moved", { from: placeName(from), to: placeName(to) }));
      editor.selected = null;
      changed();
    },
    onCancel: () => {
      editor.selected = null;
      drawBoard();
    },
  });
  board.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && editor.selected) {
      event.preventDefault();
      editor.selected = null;
      say(t("editor.putDown"));
      drawBoard();
    }
  });
  $("#editor-form").addEventListener("submit", (event) => event.preventDefault());
  $("#editor-form").addEventListener("change", (event) => {
    if (event.target.id === "editor-variant") {
      read(null, event.target.value); // another count of checkers: its starting position
      return;
    }
    readForm();
    showForm();
    changed();
  });
  $("#editor-start").addEventListener("click", () => read(null, editor.variant));
  $("#editor-clear").addEventListener("click", () => {
    editor.boards = [new Array(25).fill(0), new Array(25).fill(0)];
    editor.selected = null;
    changed();
  });
  for (const [form, field] of [["#editor-gnubg-form", "#gnubg-id"], ["#editor-xgid-form", "#xgid"]]) {
    $(form).addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $(field).value.trim();
      if (text) read(text);
    });
    $(field).addEventListener("paste", (event) => {
      const text = (event.clipboardData?.getData("text") || "").trim();
      if (!text) return;
      event.preventDefault();
      $(field).value = text;
      read(text);
    });
  }
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", () => copyField($(`#${button.dataset.copy}`), button));
  }
  setUpStudy();
  $("#editor-play-computer").addEventListener("click", () => play("computer"));
  $("#editor-play-screen").addEventListener("click", () => play("human"));
  setUpLanguageMenu($("#language"), relabel);
}

async function start() {
  await loadMessages(chosenLanguage(LANGUAGES) || browserLanguage());
  wire();
  relabel();
  const params = new URLSearchParams(location.search);
  const variant = ["standard", "nackgammon", "hypergammon"].includes(params.get("variant"))
    ? params.get("variant") : "standard";
  const id = params.get("id");
  if (!id || !(await read(id, variant))) {
    const why = $("#editor-id-message").textContent; // the link's ID, refused: said still
    await read(null, variant);
    $("#editor-id-message").textContent = why;
  }
  // Come to roll a position out (from an analysed decision): its settings open.
  if (params.get("rollout") === "1" && editor.checked) toggleRollout();
  document.body.dataset.ready = "true";
}

start();
