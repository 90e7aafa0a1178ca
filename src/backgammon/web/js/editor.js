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

import { ApiError, createMatch } from "./api.js";
import { renderBoard } from "./board.js";
import { copyField } from "./copy.js";
import { csrfHeaders } from "./csrf.js";
import { enableDrag } from "./drag.js";
import {
  LANGUAGES, applyMessages, browserLanguage, formatNumber, has, isolate, language, loadMessages, t,
} from "./i18n.js";
import { setUpLanguageMenu } from "./language_menu.js";
import { language as chosenLanguage } from "./prefs.js";
import { followRollout } from "./rollouts.js";

const $ = (selector) => document.querySelector(selector);
const CUBES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
const CHECK_DELAY_MS = 120; // edits this close together are checked once

const editor = {
  variant: "standard",
  perSide: 15,
  // Each seat's checkers on its own point numbers: 24 points, then the bar.
  boards: [new Array(25).fill(0), new Array(25).fill(0)],
  onRoll: 0,
  dice: null,
  cubeValue: 1,
  cubeOwner: null,
  length: 0,
  score: [0, 0],
  crawford: false,
  selected: null,
  checked: null, // the server's answer for the position shown, or null while it is not valid
  asked: 0, // the latest check asked for: an earlier answer that comes later is dropped
  timer: null,
};

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...csrfHeaders() },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new ApiError(response.status, data.detail || "");
    error.code = data.code || null; // a refusal the page words in its language
    throw error;
  }
  return data;
}

/** The sentence for a failed request: the rules' refusal in the page's language where it
 * names one the catalogue words, else the server's reason. */
function failure(error, key) {
  if (!(error instanceof ApiError)) return t("error.network");
  if (error.status === 429 || error.status === 503) return t("error.tooMany");
  if (error.status !== 422) return t("error.network");
  if (error.code && has(`editor.refusal.${error.code}`)) return t(`editor.refusal.${error.code}`);
  return t(key, { reason: error.message });
}

// The board.

function seatOf(place) {
  if (place.startsWith("p")) {
    const n = Number(place.slice(1));
    if (editor.boards[0][n - 1]) return 0;
    if (editor.boards[1][24 - n]) return 1;
    return null;
  }
  return Number(place.slice(-1));
}

function off(seat) {
  return editor.perSide - editor.boards[seat].reduce((sum, count) => sum + count, 0);
}

function countOf(place) {
  if (place.startsWith("p")) {
    const n = Number(place.slice(1));
    return editor.boards[0][n - 1] || editor.boards[1][24 - n];
  }
  const seat = Number(place.slice(-1));
  return place.startsWith("bar") ? editor.boards[seat][24] : off(seat);
}

/** The index in `seat`'s board of a point or bar place. */
function indexOf(place, seat) {
  if (place.startsWith("bar")) return 24;
  const n = Number(place.slice(1));
  return seat === 0 ? n - 1 : 24 - n;
}

const PLACES = [
  ...Array.from({ length: 24 }, (_, i) => `p${i + 1}`), "bar0", "bar1", "off0", "off1",
];

function sources() {
  return new Set(PLACES.filter((place) => countOf(place) > 0));
}

/** Where a checker of `place` may be put: any point free or its side's, its bar, its tray. */
function targetsOf(place) {
  const seat = seatOf(place);
  if (seat === null || countOf(place) === 0) return new Set();
  const targets = PLACES.filter((to) => {
    if (to === place) return false;
    if (to.startsWith("p")) return seatOf(to) === null || seatOf(to) === seat;
    return Number(to.slice(-1)) === seat;
  });
  return new Set(targets);
}

function move(from, to) {
  const seat = seatOf(from);
  if (seat === null || !targetsOf(from).has(to)) return false;
  if (!from.startsWith("off")) editor.boards[seat][indexOf(from, seat)] -= 1;
  if (!to.startsWith("off")) editor.boards[seat][indexOf(to, seat)] += 1;
  return true;
}

function placeName(place) {
  if (place.startsWith("p")) return t("editor.place.point", { n: formatNumber(Number(place.slice(1))) });
  const who = t(Number(place.slice(-1)) === 0 ? "editor.white" : "editor.black");
  return t(place.startsWith("bar") ? "editor.place.bar" : "editor.place.off", { player: who });
}

function say(text) {
  const log = $("#announcements");
  const line = document.createElement("p");
  line.textContent = text;
  log.appendChild(line);
  while (log.childElementCount > 10) log.firstElementChild.remove();
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

/** The position as the server takes it (POST /api/editor/ids). */
function asked() {
  return {
    variant: editor.variant,
    checkers: editor.boards,
    on_roll: editor.onRoll,
    dice: editor.dice,
    cube_value: editor.cubeValue,
    cube_owner: editor.cubeOwner,
    length: editor.length,
    score: editor.score,
    crawford: editor.crawford,
  };
}

function take(answer) {
  editor.variant = answer.variant;
  editor.perSide = answer.per_side;
  editor.boards = answer.checkers.map((board) => [...board]);
  editor.onRoll = answer.on_roll;
  editor.dice = answer.dice;
  editor.cubeValue = answer.cube_value;
  editor.cubeOwner = answer.cube_owner;
  editor.length = answer.length;
  editor.score = answer.score;
  editor.crawford = answer.crawford;
  editor.selected = null;
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
    const answer = await post("/api/editor/ids", asked());
    if (ticket !== editor.asked) return;
    editor.checked = answer;
    showChecked();
  } catch (error) {
    if (ticket !== editor.asked) return;
    showStatus(failure(error, "error.position"), true);
  }
}

function pips(seat) {
  return editor.boards[seat].reduce((sum, count, index) => sum + count * (index + 1), 0);
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
  $("#rollout-start").disabled = !answer || rollout.id !== null;
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
    const answer = await post("/api/editor/read", id === null ? { variant } : { id, variant });
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

// Studying the position: the engine API (/api/v1/engine/), asked from the player on roll's
// side, with the checkers themselves so that every variant's count is kept.

function question() {
  const r = editor.onRoll;
  const side = (seat) => [off(seat), ...editor.boards[seat]];
  const body = {
    checkers: { on_roll: side(r), opponent: side(1 - r) },
    cube: {
      value: editor.cubeValue,
      owner: editor.cubeOwner === null ? "centre" : editor.cubeOwner === r ? "on roll" : "opponent",
    },
    plies: Number($("#editor-plies").value),
  };
  if (editor.length > 0) {
    body.match = { length: editor.length, score: [editor.score[r], editor.score[1 - r]], crawford: editor.crawford };
  }
  return body;
}

function percent(value) {
  return new Intl.NumberFormat(language(), { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

function signed(value) {
  return new Intl.NumberFormat(language(), { signDisplay: "always", minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(value);
}

function chances(probabilities) {
  return t("hint.chances", {
    win: percent(probabilities.win),
    winGammon: percent(probabilities.win_gammon),
    winBackgammon: percent(probabilities.win_backgammon),
    lose: percent(1 - probabilities.win),
    loseGammon: percent(probabilities.lose_gammon),
    loseBackgammon: percent(probabilities.lose_backgammon),
  });
}

function line(text, className = "") {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

function cubeful(figure) {
  if (figure.match_winning_chance !== null && editor.length > 0) {
    return t("editor.withMatch", { equity: signed(figure.equity), mwc: percent(figure.match_winning_chance) });
  }
  return signed(figure.equity);
}

function showPlays(answer) {
  const dice = answer.dice.map(formatNumber).join("-");
  const nodes = [line(answer.plays.length
    ? t(answer.plays.length === 1 ? "hint.plays.one" : "hint.plays.other", { count: answer.plays.length, dice })
    : t("editor.noPlay", { dice }))];
  const list = document.createElement("ol");
  list.className = "editor-plays";
  for (const play of answer.plays) {
    const item = document.createElement("li");
    const notation = document.createElement("span");
    notation.className = "hint-notation";
    notation.textContent = isolate(play.play);
    item.append(notation, ` ${t("hint.column.equity")} ${signed(play.equity)}`);
    if (play.rank > 1) item.append(` (${signed(play.difference)})`);
    item.append(line(chances(play.probabilities), "hint-chances"));
    list.appendChild(item);
  }
  nodes.push(list);
  return nodes;
}

function showCube(answer) {
  const action = { "no double": "noDouble", double: "double", "too good": "tooGood" }[answer.action];
  const response = t(`hint.cube.response.${answer.response}`);
  const list = document.createElement("dl");
  list.className = "hint-equities";
  for (const [key, figure] of [
    ["hint.cube.noDouble", answer.equities.no_double],
    ["hint.cube.doubleTake", answer.equities.double_take],
    ["hint.cube.doublePass", answer.equities.double_drop],
  ]) {
    const term = document.createElement("dt");
    term.textContent = t(key);
    const value = document.createElement("dd");
    value.textContent = cubeful(figure);
    list.append(term, value);
  }
  return [
    line(t(`hint.cube.proper.${action}`, { response }), "hint-proper"),
    list,
    line(chances(answer.probabilities)),
  ];
}

function showEvaluation(answer) {
  return [
    line(chances(answer.probabilities)),
    line(t("editor.cubeless", { equity: signed(answer.cubeless_equity) })),
    line(t("editor.cubeful", { equity: cubeful(answer.cubeful) })),
  ];
}

async function study(kind) {
  const panel = $("#editor-answer");
  const ticket = editor.asked;
  panel.hidden = false;
  panel.setAttribute("aria-busy", "true");
  panel.replaceChildren(line(t("hint.thinking")));
  const body = question();
  let path = "/api/v1/engine/eval";
  if (kind === "hint" && editor.dice) {
    path = "/api/v1/engine/move";
    body.dice = editor.dice;
    body.plays = 5;
  } else if (kind === "hint") {
    path = "/api/v1/engine/cube";
  }
  const player = t(editor.onRoll === 0 ? "editor.white" : "editor.black");
  const heading = document.createElement("h3");
  heading.textContent = t(kind === "hint" ? "editor.hintFor" : "editor.evaluationFor", { player });
  try {
    const answer = await post(path, body);
    if (ticket !== editor.asked) return; // the position changed meanwhile
    let nodes;
    if (path.endsWith("move")) nodes = showPlays(answer);
    else if (path.endsWith("cube")) nodes = showCube(answer);
    else nodes = showEvaluation(answer);
    panel.replaceChildren(heading, ...nodes);
    panel.dataset.kind = path.split("/").pop();
  } catch (error) {
    panel.replaceChildren(line(failure(error, "error.position"), "message"));
  } finally {
    panel.setAttribute("aria-busy", "false");
  }
}

// Rolling the position out: a job of the server's, followed (js/rollouts.js) until it ends,
// with its progress, a Cancel and the result with standard errors.

const MOST_TRIALS = [1296, 324, 36]; // at 0, 1 and 2 plies, as the server allows
const rollout = { id: null, job: null, player: null };

function toggleRollout() {
  const panel = $("#editor-rollout-panel");
  panel.hidden = !panel.hidden;
  $("#editor-rollout").setAttribute("aria-expanded", String(!panel.hidden));
  if (!panel.hidden) $("#rollout-trials").focus();
}

function fitTrials() {
  const most = MOST_TRIALS[Number($("#editor-plies").value)];
  const trials = $("#rollout-trials");
  trials.max = String(most);
  if (Number(trials.value) > most) trials.value = String(most);
}

async function startRollout(event) {
  event.preventDefault();
  if (!editor.checked || rollout.id) return;
  $("#rollout-message").textContent = "";
  $("#rollout-result").replaceChildren();
  const body = {
    ...question(),
    trials: Number($("#rollout-trials").value),
    truncate: Number($("#rollout-truncate").value),
    cubeful: $("#rollout-cubeful").checked,
  };
  rollout.player = t(editor.onRoll === 0 ? "editor.white" : "editor.black");
  rollout.id = "starting"; // no second start while the first is asked for
  try {
    rollout.job = await followRollout(body, {
      update: showRollout,
      end(_job, error) {
        endRollout();
        if (error) $("#rollout-message").textContent = failure(error, "error.position");
      },
    });
    rollout.id = rollout.job.id;
    $("#rollout-start").disabled = true;
    $("#rollout-running").hidden = false;
    showProgress({ done: 0, trials: body.trials });
  } catch (error) {
    rollout.id = null;
    $("#rollout-message").textContent = failure(error, "error.position");
  }
}

function cancelRollout() {
  rollout.job?.cancel();
}

function endRollout() {
  rollout.id = null;
  rollout.job = null;
  $("#rollout-start").disabled = false;
  $("#rollout-running").hidden = true;
}

function showProgress(job) {
  const progress = $("#rollout-progress");
  progress.max = job.trials;
  progress.value = job.done;
  $("#rollout-progress-label").textContent = t("rollout.progress", {
    done: formatNumber(job.done), trials: formatNumber(job.trials),
  });
}

function withSe(value, se) {
  return t("rollout.withSe", { value, se });
}

function showRollout(job) {
  showProgress(job);
  const panel = $("#rollout-result");
  panel.dataset.status = job.status;
  panel.dataset.done = String(job.done);
  const result = job.result;
  if (job.status === "cancelled") {
    $("#rollout-message").textContent = t("rollout.cancelled", {
      done: formatNumber(job.done), trials: formatNumber(job.trials),
    });
  } else if (job.status === "failed") {
    $("#rollout-message").textContent = t("rollout.failed");
  }
  if (!result) return;
  const heading = document.createElement("h3");
  heading.textContent = t("rollout.resultFor", { player: rollout.player });
  const p = result.probabilities;
  const se = result.probabilities_se;
  const se3 = (value) => formatNumber(Number(value.toFixed(3)));
  const rows = [
    ["rollout.win", withSe(percent(p.win), percent(se.win))],
    ["rollout.winGammon", withSe(percent(p.win_gammon), percent(se.win_gammon))],
    ["rollout.loseGammon", withSe(percent(p.lose_gammon), percent(se.lose_gammon))],
    ["rollout.cubeless", withSe(signed(result.equity), se3(result.equity_se))],
    [result.cubeful ? "rollout.cubefulPlayed" : "rollout.cubeful",
      withSe(signed(result.cubeful_equity), se3(result.cubeful_se))],
  ];
  if (result.match_winning_chance !== null) {
    rows.push(["rollout.mwc", withSe(percent(result.match_winning_chance), percent(result.match_winning_chance_se))]);
  }
  if (result.cubeful) {
    rows.push(["rollout.doubled", percent(result.doubled)], ["rollout.dropped", percent(result.dropped)]);
  }
  const list = document.createElement("dl");
  list.className = "hint-equities";
  for (const [key, text] of rows) {
    const term = document.createElement("dt");
    term.textContent = t(key);
    const value = document.createElement("dd");
    value.textContent = text;
    list.append(term, value);
  }
  panel.replaceChildren(heading, list);
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
  $("#editor-hint").addEventListener("click", () => study("hint"));
  $("#editor-evaluate").addEventListener("click", () => study("eval"));
  $("#editor-rollout").addEventListener("click", toggleRollout);
  $("#editor-rollout-form").addEventListener("submit", startRollout);
  $("#rollout-cancel").addEventListener("click", cancelRollout);
  $("#editor-plies").addEventListener("change", fitTrials);
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
