// The analysis view: a match's analysis (or an uploaded .mat file's), as the server reports it
// (the JSON of `backgammon analyse --json`): the equity graph over the match, each point a
// button that shows its move; the move list with marks; at the decision shown, its board (the
// page's own renderer, from GET /api/board), the choices weighed with their equities, and what
// was played; each player's statistics. While the server thinks, its progress is shown and
// asked again until the report comes. A match of the other games (Plakoto, Long Nardy, ...)
// has a report of its own ("kind": "board"): each player's totals and the marked decisions,
// shown in a panel of their own.

import { ApiError, analysisOf, boardOf, matchMistakes, refusal, uploadMat } from "./api.js";
import { renderBoard } from "./board.js";
import { signedIn } from "./csrf.js";
import { lost, signed } from "./figures.js";
import { formatNumber, isolate, t } from "./i18n.js";
import { addCards } from "./localdeck.js";
import { followRollout } from "./rollouts.js";

const SVG = "http://www.w3.org/2000/svg";
// The graph's drawing: its size and the margins around the plot.
const WIDTH = 600;
const HEIGHT = 240;
const PAD = 14;
// Room for the axes' labels: the values at the left, the moves and the axis's name below.
const LEFT = 64;
const BELOW = 44;
const POLL_MS = 300;
// The plays a decision's rollout takes: the best ones weighed, and the one played.
const ROLLED_PLAYS = 3;

const view = {
  source: null, // {match: id} or {upload: id}
  report: null, // the analysis, once done
  selected: null, // the index of the decision shown
  colours: ["white", "black"],
  ticket: 0, // the latest opening: an answer for an earlier one is dropped
  onClose: null,
  rollout: null, // the rollout of the decision shown's plays under way: {job, decision}
};

const $ = (selector) => document.querySelector(selector);

/** Set up the view's controls. `onClose()`: go back to what was shown before. */
export function setUpAnalysis({ onClose }) {
  view.onClose = onClose;
  $("#analysis-close").addEventListener("click", () => {
    closeAnalysis();
    view.onClose();
  });
  $("#analysis-plays-rollout").addEventListener("submit", (event) => {
    event.preventDefault();
    rollPlays();
  });
  $("#analysis-rollout-cancel").addEventListener("click", () => view.rollout?.job?.cancel());
  numberTrials();
  $("#mat-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) await upload(await file.text());
  });
}

/** Send a .mat file's text to be analysed, then show its analysis (its address kept). */
async function upload(text) {
  $("#message").textContent = "";
  $("#upload-message").textContent = "";
  try {
    const started = await uploadMat(text);
    history.pushState(null, "", `?analysis=${encodeURIComponent(started.id)}`);
    openAnalysis({ upload: started.id });
  } catch (error) {
    const why = error instanceof ApiError && error.status === 422 ? error.message : "";
    $("#upload-message").textContent = why
      ? t("analysis.unreadable", { reason: why })
      : t(refusal(error, "error.refused"));
  }
}

/** Show the analysis of `source` ({match: id} or {upload: id}), starting it if need be.
 * `colours`: the seats' colours, where the match has them. */
export async function openAnalysis(source, colours = ["white", "black"]) {
  const ticket = ++view.ticket;
  Object.assign(view, { source, report: null, selected: null, colours });
  for (const id of ["#setup", "#play"]) $(id).hidden = true;
  $("#analysis").hidden = false;
  $("#analysis-body").hidden = true;
  $("#analysis-games").hidden = true;
  showProgress({ done: 0, total: 0 });
  for (;;) {
    let answer;
    try {
      answer = await analysisOf(source);
    } catch (error) {
      if (ticket !== view.ticket) return;
      const failed = error instanceof ApiError && error.status === 409;
      $("#analysis-status").textContent = failed
        ? t("analysis.failed", { reason: error.message })
        : t(refusal(error, "error.notFound"));
      $("#analysis-progress").hidden = true;
      return;
    }
    if (ticket !== view.ticket) return;
    if (answer.status !== "running") {
      view.report = answer;
      break;
    }
    showProgress(answer);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (ticket !== view.ticket) return;
  }
  $("#analysis-progress").hidden = true;
  $("#analysis-status").textContent = "";
  if (view.report.kind === "board") {
    renderGames();
    $("#analysis-games").hidden = false;
    return;
  }
  showPractise(source);
  $("#analysis-body").hidden = false;
  const first = view.report.graph.length ? view.report.graph[0].decision : 0;
  renderAnalysis();
  if (view.report.decisions.length) select(first);
}

/** The way to practise the match's mistakes in the trainer: for a match of the server's
 * (the trainer gives its mistakes once it is over, and says so otherwise). */
function showPractise(source) {
  const match = source.match !== undefined;
  $("#analysis-practise-line").hidden = !match;
  if (!match) return;
  $("#analysis-practise").href = `/trainer?${new URLSearchParams({ match: source.match })}`;
  // A guest's deck is this browser's: the finished match's mistakes join it now (a signed-in
  // player's joined their account's as the server gave the analysis).
  if (!signedIn()) {
    matchMistakes(source.match).then((found) => addCards(source.match, found.cards), () => null);
  }
}

/** Leave the view: an analysis still being asked for is no longer waited on. */
export function closeAnalysis() {
  view.ticket += 1;
  view.source = null;
  stopRollout();
  $("#analysis").hidden = true;
}

function showProgress({ done, total }) {
  const bar = $("#analysis-progress");
  bar.hidden = false;
  if (total) {
    bar.max = total;
    bar.value = done;
  } else {
    bar.removeAttribute("value"); // indeterminate until the decisions are counted
  }
  $("#analysis-status").textContent = total
    ? t("analysis.running", { done, total })
    : t("analysis.starting");
}

/** Every text of the view again (the language changed). */
export function relabelAnalysis() {
  numberTrials();
  if (view.report?.kind === "board") renderGames();
  else if (view.report) {
    renderAnalysis();
    if (view.selected !== null) select(view.selected);
  }
}

function renderAnalysis() {
  drawGraph();
  renderMoves();
  renderStatistics();
}

function node(name, attributes = {}, parent = null, text = null) {
  const made = name.startsWith("svg:")
    ? document.createElementNS(SVG, name.slice(4))
    : document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, String(value));
  if (text !== null) made.textContent = text;
  if (parent) parent.appendChild(made);
  return made;
}

function playerName(seat) {
  return view.report.players[seat].name;
}

/** A value of the graph as said: a chance in per cent (a match), else points. */
function graphValue(value) {
  if (view.report.length) return `${formatNumber(Math.round(value * 1000) / 10)}%`;
  return signed(value);
}

// The graph: seat 0's chance of winning the match (or equity) after each checker play.

function drawGraph() {
  const svg = $("#analysis-graph");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  const { graph, length } = view.report;
  const player = playerName(0);
  $("#analysis-graph-caption").textContent = t(length ? "analysis.graphMatch" : "analysis.graphMoney", { player });
  const axis = t(length ? "analysis.axis.chance" : "analysis.axis.equity", { player });
  renderGraphTable(axis);
  if (!graph.length) return;
  // A match's chances lie in 0..1; money equities around 0, at least ±1 shown.
  const top = length ? 1 : Math.max(1, ...graph.map((p) => Math.abs(p.value)));
  const bottom = length ? 0 : -top;
  const right = WIDTH - PAD;
  const floor = HEIGHT - BELOW;
  const x = (i) => LEFT + PAD + (graph.length === 1 ? 0 : (i * (right - LEFT - 2 * PAD)) / (graph.length - 1));
  const y = (v) => floor - PAD - ((v - bottom) * (floor - 2 * PAD)) / (top - bottom);
  // The axes, their ticks and labels: read from the table by screen readers, not from here.
  const axes = node("svg:g", { class: "graph-axes", "aria-hidden": "true" }, svg);
  node("svg:line", { x1: LEFT, x2: LEFT, y1: PAD / 2, y2: floor, class: "graph-axis" }, axes);
  node("svg:line", { x1: LEFT, x2: right, y1: floor, y2: floor, class: "graph-axis" }, axes);
  for (let k = 0; k <= 4; k += 1) {
    const value = bottom + ((top - bottom) * k) / 4;
    node("svg:line", { x1: LEFT - 4, x2: LEFT, y1: y(value), y2: y(value), class: "graph-axis" }, axes);
    node("svg:text", { x: LEFT - 7, y: y(value) + 4, class: "graph-tick graph-tick--value" }, axes,
      length ? `${formatNumber(value * 100)}%` : signed(value));
  }
  // The moves: a few of them numbered along the bottom, evenly spread.
  const ticks = new Set([0, graph.length - 1]);
  for (let k = 1; k < 5; k += 1) ticks.add(Math.round(((graph.length - 1) * k) / 5));
  for (const i of ticks) {
    node("svg:line", { x1: x(i), x2: x(i), y1: floor, y2: floor + 4, class: "graph-axis" }, axes);
    node("svg:text", { x: x(i), y: floor + 16, class: "graph-tick" }, axes, formatNumber(graph[i].move_number));
  }
  node("svg:text", { x: (LEFT + right) / 2, y: HEIGHT - 6, class: "graph-axis-label" }, axes,
    t("analysis.axis.move"));
  node("svg:text", {
    x: 0, y: 0, class: "graph-axis-label", transform: `translate(14 ${floor / 2}) rotate(-90)`,
  }, axes, t(length ? "analysis.axis.chanceShort" : "analysis.axis.equityShort"));
  node("svg:line", { x1: LEFT, x2: right, y1: y((top + bottom) / 2), y2: y((top + bottom) / 2),
    class: "graph-middle" }, svg);
  graph.forEach((point, i) => {
    if (i && point.game !== graph[i - 1].game) {
      const at = (x(i) + x(i - 1)) / 2;
      node("svg:line", { x1: at, x2: at, y1: PAD / 2, y2: floor, class: "graph-game" }, svg);
    }
  });
  node("svg:polyline", {
    points: graph.map((p, i) => `${x(i)},${y(p.value)}`).join(" "), class: "graph-line",
  }, svg);
  graph.forEach((point, i) => {
    const decision = view.report.decisions[point.decision];
    const mark = decision.mark ? ` is-${decision.mark.replace(" ", "-")}` : "";
    const dot = node("svg:circle", {
      cx: x(i), cy: y(point.value), r: 5, class: `graph-point${mark}`, tabindex: 0, role: "button",
      "data-decision": point.decision,
      "aria-label": t("analysis.point", {
        game: point.game, move: point.move_number, player: playerName(point.player),
        value: graphValue(point.value),
      }),
    }, svg);
    dot.addEventListener("click", () => select(point.decision));
    dot.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        select(point.decision);
      }
    });
  });
}

/** The graph's values as a table, its text alternative: a row a point (game, move, player,
 * value); `axis` names the value. */
function renderGraphTable(axis) {
  $("#analysis-graph-table-caption").textContent = axis;
  $("#analysis-graph-value-heading").textContent = axis;
  const body = $("#analysis-graph-table tbody");
  body.replaceChildren();
  for (const point of view.report.graph) {
    const row = node("tr", {}, body);
    node("td", { class: "number" }, row, formatNumber(point.game));
    node("td", { class: "number" }, row, formatNumber(point.move_number));
    node("td", {}, row, playerName(point.player));
    node("td", { class: "number" }, row, graphValue(point.value));
  }
}

// The move list: every decision by game, each a button, its marks beside it.

const MARKS = { doubtful: "doubtful", bad: "bad", "very bad": "veryBad" };
const LUCK = { "very lucky": "veryLucky", lucky: "lucky", unlucky: "unlucky", "very unlucky": "veryUnlucky" };
// The engine's words for the choices that are not plays (plays are notation).
const CHOICES = {
  "no double": "noDouble", double: "double", "double, take": "doubleTake",
  "double, drop": "doubleDrop", take: "take", drop: "drop", "play on": "playOn",
  "resign single": "resignSingle", "resign gammon": "resignGammon",
  "resign backgammon": "resignBackgammon", accept: "accept", reject: "reject",
};

function choiceText(text) {
  return text in CHOICES ? t(`analysis.choice.${CHOICES[text]}`) : isolate(text);
}

function entryText(decision) {
  const params = {
    move: decision.move_number, player: playerName(decision.player),
    played: choiceText(decision.played),
  };
  if (decision.kind === "checker") {
    return t("analysis.entry.checker", { ...params, dice: decision.dice.map(formatNumber).join("") });
  }
  return t("analysis.entry.action", params);
}

function renderMoves() {
  const container = $("#analysis-moves");
  container.replaceChildren();
  const { decisions, games } = view.report;
  let list = null;
  let game = null;
  decisions.forEach((decision, index) => {
    if (decision.game !== game) {
      game = decision.game;
      const info = games[game - 1];
      node("h3", {}, container, t("record.game", { number: game, first: info.score[0], second: info.score[1] }));
      list = node("ol", { class: "analysis-list" }, container);
    }
    const item = node("li", {}, list);
    const button = node("button", { type: "button", class: "analysis-entry", "data-decision": index },
      item, entryText(decision));
    if (decision.mark) {
      node("span", { class: `analysis-mark is-${decision.mark.replace(" ", "-")}` }, button,
        t(`analysis.mark.${MARKS[decision.mark]}`));
    }
    if (decision.luck && decision.luck.mark) {
      node("span", { class: "analysis-luck" }, button, t(`analysis.luck.${LUCK[decision.luck.mark]}`));
    }
    button.addEventListener("click", () => select(index));
  });
}

// The decision shown: its board, what was played, the choices weighed.

async function select(index) {
  view.selected = index;
  const decision = view.report.decisions[index];
  for (const each of document.querySelectorAll("[data-decision]")) {
    const chosen = Number(each.dataset.decision) === index;
    each.classList.toggle("is-selected", chosen);
    if (each.tagName.toLowerCase() === "button") each.setAttribute("aria-pressed", String(chosen));
  }
  const panel = $("#analysis-decision");
  panel.dataset.decision = String(index);
  $("#analysis-decision-heading").textContent = t("analysis.decision", {
    game: decision.game, move: decision.move_number, player: playerName(decision.player),
  });
  $("#analysis-played").textContent = [
    t("analysis.played", { played: choiceText(decision.played) }),
    t("analysis.best", { best: choiceText(decision.best) }),
    t("analysis.loss", { loss: signed(-decision.equity_loss) }),
  ].join(" · ");
  stopRollout();
  renderChoices(decision);
  $("#analysis-plays-rollout").hidden = decision.kind !== "checker" || decision.alternatives.length < 2;
  $("#analysis-rollout-message").textContent = "";
  // The decision's position, rolled out in the editor (before its roll: the dice are not read).
  const id = decision.match_id ? `${decision.position_id}:${decision.match_id}` : decision.position_id;
  $("#analysis-rollout").href = `/editor?${new URLSearchParams({ id, rollout: "1" })}`;
  const ticket = view.ticket;
  let shown;
  try {
    shown = await boardOf(decision.position_id, decision.match_id);
  } catch (error) {
    $("#analysis-played").textContent = t(refusal(error, "error.refused"));
    return;
  }
  if (ticket !== view.ticket || view.selected !== index) return;
  drawBoard(shown);
  panel.dataset.shown = String(index); // for tests: the board drawn is this decision's
}

function renderChoices(decision) {
  const body = $("#analysis-choices tbody");
  body.replaceChildren();
  const best = decision.alternatives.length ? decision.alternatives[0].equity : 0;
  for (const choice of decision.alternatives) {
    const row = node("tr", { "data-play": choice.text }, body);
    if (choice.text === decision.played) row.classList.add("is-played");
    node("td", {}, row, choiceText(choice.text));
    node("td", { class: "number" }, row, signed(choice.equity));
    node("td", { class: "number" }, row, signed(choice.equity - best));
    node("td", { class: "number analysis-rolled", hidden: "" }, row);
  }
  $("#analysis-choices").hidden = !decision.alternatives.length;
  showRolled(null);
}

// The decision's plays rolled out by the server: the best weighed and the one played, each
// from the position it leaves, with the same dice; their rolled-out equities (95% intervals)
// fill a column of the choices as they come.

async function rollPlays() {
  const decision = view.report.decisions[view.selected];
  if (view.rollout || !decision) return;
  const texts = decision.alternatives.slice(0, ROLLED_PLAYS).map((choice) => choice.text);
  if (!texts.includes(decision.played)) texts.push(decision.played);
  const id = decision.match_id ? `${decision.position_id}:${decision.match_id}` : decision.position_id;
  const question = {
    position: id, dice: decision.dice, plays: texts,
    trials: Number($("#analysis-rollout-trials").value),
  };
  const rollout = { job: null, decision };
  view.rollout = rollout;
  $("#analysis-rollout-message").textContent = "";
  $("#analysis-rollout-start").disabled = true;
  $("#analysis-rollout-running").hidden = false;
  rolloutProgress({ done: 0, trials: question.trials * texts.length });
  const shown = (job) => view.rollout === rollout && view.report.decisions[view.selected] === decision && job;
  try {
    rollout.job = await followRollout(question, {
      update(job) {
        if (!shown(job)) return;
        rolloutProgress(job);
        if (job.plays) showRolled(job.plays);
      },
      end(job, error) {
        if (view.rollout !== rollout) return;
        view.rollout = null;
        endRollout();
        if (error) $("#analysis-rollout-message").textContent = t(refusal(error, "rollout.failed"));
        else if (job.status === "cancelled") {
          $("#analysis-rollout-message").textContent = t("rollout.cancelled", {
            done: formatNumber(job.done), trials: formatNumber(job.trials),
          });
        } else if (job.status === "failed") $("#analysis-rollout-message").textContent = t("rollout.failed");
        else $("#analysis-rollout-message").textContent = t("analysis.rolloutDone", { trials: formatNumber(job.trials) });
      },
    });
  } catch (error) {
    view.rollout = null;
    endRollout();
    $("#analysis-rollout-message").textContent = t(refusal(error, "rollout.failed"));
  }
}

/** The trials menu's numbers, written as the page's language writes them. */
function numberTrials() {
  for (const option of $("#analysis-rollout-trials").options) option.textContent = formatNumber(Number(option.value));
}

/** Stop following the rollout under way (another decision shown, the view closed). */
function stopRollout() {
  const rollout = view.rollout;
  view.rollout = null;
  endRollout();
  rollout?.job?.cancel();
}

function endRollout() {
  $("#analysis-rollout-start").disabled = false;
  $("#analysis-rollout-running").hidden = true;
}

function rolloutProgress(job) {
  const bar = $("#analysis-rollout-progress");
  bar.max = job.trials;
  bar.value = job.done;
  $("#analysis-rollout-progress-label").textContent = t("rollout.progress", {
    done: formatNumber(job.done), trials: formatNumber(job.trials),
  });
}

/** The rolled-out equities in the choices' last column (hidden while there are none). */
function showRolled(plays) {
  for (const cell of document.querySelectorAll("#analysis-choices .analysis-rolled")) {
    cell.hidden = !plays;
    if (cell.tagName.toLowerCase() === "td") cell.textContent = "";
  }
  if (!plays) return;
  for (const play of plays) {
    const row = [...document.querySelectorAll("#analysis-choices tbody tr")]
      .find((each) => each.dataset.play === play.play);
    if (!row) continue;
    row.querySelector(".analysis-rolled").textContent = t("rollout.withSe", {
      value: signed(play.equity), se: signed(Math.abs(play.se)).replace(/^[+]/, ""),
    });
  }
  $("#analysis-choices").dataset.rolled = String(plays.length);
}

function drawBoard(shown) {
  const dice = shown.dice ? shown.dice.map((value) => ({ value, used: false })) : [];
  const cube = { value: shown.cube_value, owner: shown.cube_owner, offer: null, used: true };
  renderBoard($("#analysis-board"), {
    view: 0,
    mover: shown.on_roll,
    points: shown.board.points,
    bar: shown.board.bar,
    off: shown.board.off,
    colours: view.colours,
    names: [playerName(0), playerName(1)],
    dice,
    openingTie: null,
    cube,
    sources: new Set(),
    targets: new Set(),
    selected: null,
    canRoll: false,
  }, { onPlace() {}, onBoard() {} });
}

// Each player's statistics, in a few of gnubg's rows.

const STATISTICS = [
  ["moves", (p) => formatNumber(p.checker.moves)],
  ["unforced", (p) => formatNumber(p.checker.unforced)],
  ["doubtful", (p) => formatNumber(p.checker.doubtful)],
  ["bad", (p) => formatNumber(p.checker.bad)],
  ["veryBad", (p) => formatNumber(p.checker.very_bad)],
  ["checkerRate", (p) => rate(p.checker.error_rate_memg)],
  ["cubeDecisions", (p) => formatNumber(p.cube.decisions)],
  ["cubeRate", (p) => rate(p.cube.error_rate_memg)],
  ["luckRate", (p) => rate(p.luck.rate_memg)],
  ["overallRate", (p) => rate(p.overall.error_rate_memg)],
  ["pr", (p) => rate(p.overall.pr)],
];

function rate(value) {
  if (value === null || value === undefined) return "—";
  return new Intl.NumberFormat(document.documentElement.lang, {
    minimumFractionDigits: 1, maximumFractionDigits: 1,
  }).format(value);
}

function renderStatistics() {
  const table = $("#analysis-statistics");
  table.replaceChildren();
  const head = node("tr", {}, node("thead", {}, table));
  node("th", { scope: "col" }, head, t("analysis.stat.heading"));
  for (const player of view.report.players) node("th", { scope: "col" }, head, player.name);
  const body = node("tbody", {}, table);
  for (const [key, figure] of STATISTICS) {
    const row = node("tr", { "data-statistic": key }, body);
    node("th", { scope: "row" }, row, t(`analysis.stat.${key}`));
    for (const player of view.report.players) node("td", { class: "number" }, row, figure(player));
  }
}

// The analysis of a match of the other games: each player's totals, then the decisions marked
// (the trainer's cards, the graph and the boards are backgammon's).

const TOTALS = [
  ["decisions", (p) => formatNumber(p.decisions)],
  ["lost", (p) => lost(p.loss)],
  ["rate", (p) => rate(p.error_rate)],
  ["doubtful", (p) => formatNumber(p.doubtful)],
  ["bad", (p) => formatNumber(p.bad)],
  ["veryBad", (p) => formatNumber(p.very_bad)],
];

function renderGames() {
  const { plies, players, decisions } = view.report;
  $("#analysis-games-note").textContent = t("analysis.games.note", { plies });
  const table = $("#analysis-games-totals");
  table.replaceChildren();
  const head = node("tr", {}, node("thead", {}, table));
  node("th", { scope: "col" }, head, t("analysis.stat.heading"));
  for (const player of players) node("th", { scope: "col" }, head, player.name);
  const body = node("tbody", {}, table);
  for (const [key, figure] of TOTALS) {
    const row = node("tr", { "data-statistic": key }, body);
    node("th", { scope: "row" }, row, t(`analysis.games.${key}`));
    for (const player of players) node("td", { class: "number" }, row, figure(player));
  }
  const marked = decisions.filter((decision) => decision.mark);
  const rows = $("#analysis-games-marked tbody");
  rows.replaceChildren();
  for (const decision of marked) {
    const row = node("tr", { "data-game": decision.game, "data-turn": decision.turn }, rows);
    node("td", { class: "number" }, row, formatNumber(decision.game));
    node("td", { class: "number" }, row, formatNumber(decision.turn));
    node("td", {}, row, players[decision.seat].name);
    node("td", { class: "number" }, row, isolate(decision.dice.map(formatNumber).join("-")));
    node("td", {}, row, isolate(decision.played));
    node("td", {}, row, isolate(decision.best));
    node("td", { class: "number" }, row, lost(decision.loss));
    node("td", {}, row, t(`analysis.mark.${MARKS[decision.mark]}`));
  }
  $("#analysis-games-marked").hidden = !marked.length;
  $("#analysis-games-none").hidden = Boolean(marked.length);
}
