// The tutorial (/tutorial/<lang>): a guided first game on the game's own board.
//
// The server renders every step's heading and instruction, and answers /api/tutorial/<step>
// with the board after what the player did, the checker steps allowed next and whether it is
// what the step teaches (server/routes/tutorial.py). This module shows one step at a time,
// turns clicks, drags and buttons into those questions, and says the step's feedback.

import { drawPlayMarks, renderBoard } from "./board.js";
import { enableDrag } from "./drag.js";
import { loadMessages, t } from "./i18n.js";
import { obviousStep, placeOf, sourcesOf, stepBetween, targetsOf } from "./moves.js";

const $ = (selector) => document.querySelector(selector);

/** The step's feedback words ("<step>.done", ".wrong", ".help", and "error"), rendered into
 * the page. */
const words = JSON.parse($("#tutorial-words").textContent);
const names = [...document.querySelectorAll(".tutorial-step[data-kind]")].map((node) => node.dataset.step);

const tour = {
  index: 0, // names.length: the end
  view: null, // the server's answer for the step now shown
  made: [], // the checker steps made, as the server numbers them: [from, to]
  selected: null,
  busy: false,
};

async function ask(name, params = {}) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/tutorial/${encodeURIComponent(name)}${query ? `?${query}` : ""}`);
  if (!response.ok) throw new Error(`the tutorial's step ${name}: ${response.status}`);
  return response.json();
}

function current() {
  return names[tour.index];
}

function done() {
  return tour.view !== null && tour.view.verdict === "right";
}

/** The checker steps the player may make now: none once the turn is whole. */
function movable() {
  const { view } = tour;
  return view && view.kind === "move" && view.verdict === null && !tour.busy ? view.steps : [];
}

function model() {
  const { view } = tour;
  const steps = movable();
  const sources = sourcesOf(steps, view.mover);
  const selected = sources.has(tour.selected) ? tour.selected : null;
  return {
    view: 0,
    mover: view.mover,
    points: view.board.points,
    bar: view.board.bar,
    off: view.board.off,
    colours: ["white", "black"],
    names: [t("name.you"), t("name.computer")],
    dice: view.dice,
    openingTie: null,
    cube: view.cube,
    sources,
    targets: targetsOf(steps, view.mover, selected),
    selected,
    canRoll: view.kind === "roll" && view.verdict === null,
  };
}

function render() {
  const { view } = tour;
  if (!view) return;
  const board = $("#board");
  const focused = board.contains(document.activeElement) ? document.activeElement.dataset.place : null;
  const shown = model();
  tour.selected = shown.selected;
  renderBoard(board, shown, { onPlace, onBoard });
  // The computer's turn that led here, marked on the board until the player moves.
  if (view.reply && tour.made.length === 0 && view.verdict === null) {
    const steps = view.reply.steps.map((step, i) => ({
      from: placeOf(step.board_from, 1), to: placeOf(step.board_to, 1), hit: step.hit, number: i + 1,
    }));
    drawPlayMarks(board, { view: 0, ...view.reply.board }, steps);
  }
  board.classList.toggle("can-drag", shown.sources.size > 0);
  board.dataset.step = view.name;
  board.dataset.verdict = view.verdict || "";
  board.dataset.made = String(view.made.length);
  board.setAttribute("aria-busy", String(tour.busy));
  const open = view.verdict === null;
  const show = (name, visible) => {
    $(`#${name}-button`).hidden = !visible;
  };
  show("roll", open && (view.kind === "roll" || view.kind === "double"));
  show("double", open && view.kind === "double");
  show("take", open && view.kind === "take");
  show("drop", open && view.kind === "take");
  show("undo", open && view.kind === "move" && tour.made.length > 0);
  show("again", view.verdict === "wrong");
  $("#next-button").disabled = !done();
  $("#back-button").disabled = tour.index === 0;
  if (focused) {
    const again = board.querySelector(`[data-place="${focused}"][tabindex]`) || board.querySelector(".is-source[tabindex]");
    if (again) again.focus();
  }
}

function say(key) {
  $("#feedback").textContent = key ? words[key] : "";
}

/** Ask the server about the step now shown; `params` says what the player did. */
async function update(params = {}) {
  const name = current();
  tour.busy = true;
  $("#board").setAttribute("aria-busy", "true");
  let view;
  try {
    view = await ask(name, params);
  } catch (error) {
    console.warn(String(error));
    view = null;
  } finally {
    tour.busy = false;
  }
  if (name !== current()) return; // the player went on meanwhile
  if (!view) {
    // Nothing changed: the steps made are the board's last ones again.
    tour.made = tour.view ? tour.view.made.map((step) => [step.from, step.to]) : [];
    say("error");
    render();
    return;
  }
  tour.view = view;
  const { verdict } = tour.view;
  say(verdict === "right" ? `${name}.done` : verdict === "wrong" ? `${name}.wrong` : null);
  render();
  // The way on gets the focus, so that a keyboard goes on from where the feedback was said.
  if (verdict === "right") $("#next-button").focus();
  else if (verdict === "wrong") $("#again-button").focus();
}

function sendSteps() {
  return update({ made: tour.made.map(([from, to]) => `${from}/${to}`).join(",") });
}

function makeStep(step) {
  tour.selected = null;
  tour.made.push([step.from, step.to]);
  sendSteps();
}

function onPlace(place) {
  const { view } = tour;
  if (!view || tour.busy) return;
  if (view.kind === "roll" && view.verdict === null) {
    update({ action: "roll" });
    return;
  }
  const steps = movable();
  if (!steps.length) return;
  const shown = model();
  if (shown.selected && shown.targets.has(place)) {
    makeStep(stepBetween(steps, view.mover, shown.selected, place));
    return;
  }
  const obvious = place !== shown.selected ? obviousStep(steps, view.mover, place) : null;
  if (obvious) {
    makeStep(obvious);
    return;
  }
  if (shown.sources.has(place) && place !== shown.selected) {
    tour.selected = place;
    say(null);
  } else {
    tour.selected = null;
    // A checker that cannot move, or a point it cannot reach: say what the step asks for.
    if (!shown.sources.has(place)) say(`${current()}.help`);
  }
  render();
}

function onBoard() {
  const { view } = tour;
  if (view && view.kind === "roll" && view.verdict === null) update({ action: "roll" });
  else if (tour.selected) {
    tour.selected = null;
    render();
  }
}

/** Show step `index` (names.length: the end), from its start. */
async function open(index, { focus = true } = {}) {
  tour.index = Math.max(0, Math.min(index, names.length));
  tour.view = null;
  tour.made = [];
  tour.selected = null;
  const name = names[tour.index] || "end";
  for (const section of document.querySelectorAll(".tutorial-step")) {
    section.hidden = section.dataset.step !== name;
  }
  for (const link of document.querySelectorAll(".tutorial-steps a")) {
    if (link.hash === `#${name}`) link.setAttribute("aria-current", "step");
    else link.removeAttribute("aria-current");
  }
  const play = $(".tutorial-play");
  play.hidden = name === "end";
  // After the step's section, so that its instruction comes before the board.
  document.getElementById(name).after(play);
  if (focus) document.getElementById(`${name}-heading`).focus();
  say(null);
  if (name !== "end") await update();
}

function fromAddress() {
  const index = names.indexOf(location.hash.slice(1));
  if (location.hash === "#end") return names.length;
  return index >= 0 ? index : 0;
}

function setUp() {
  enableDrag($("#board"), {
    targetsFor: (place) => (tour.busy || !tour.view ? null : targetsOf(movable(), tour.view.mover, place)),
    onLift: (place) => {
      tour.selected = place;
      render();
    },
    onDrop: (from, to) => {
      const step = tour.view ? stepBetween(movable(), tour.view.mover, from, to) : null;
      if (step) makeStep(step);
      else render();
    },
    onCancel: () => {
      tour.selected = null;
      render();
    },
  });
  $("#board").addEventListener("keydown", (event) => {
    if (event.key === "Escape" && tour.selected) {
      event.preventDefault();
      tour.selected = null;
      render();
    }
  });
  for (const button of document.querySelectorAll(".tutorial-play [data-action]")) {
    button.addEventListener("click", () => {
      if (tour.busy) return;
      const action = button.dataset.action;
      if (action === "undo") {
        tour.made.pop();
        sendSteps();
      } else if (action === "again") {
        tour.made = [];
        update();
      } else {
        update({ action });
      }
    });
  }
  $("#next-button").addEventListener("click", () => {
    history.pushState(null, "", `#${names[tour.index + 1] || "end"}`);
    open(tour.index + 1);
  });
  $("#back-button").addEventListener("click", () => {
    history.pushState(null, "", `#${names[tour.index - 1]}`);
    open(tour.index - 1);
  });
  window.addEventListener("hashchange", () => open(fromAddress()));
}

async function main() {
  // The board's own words (points, dice, the cube) are the game's catalogue.
  await loadMessages(document.documentElement.lang);
  setUp();
  await open(fromAddress(), { focus: false });
}

main();
