// Studying the position in the editor (editor.js): the engine's hint (its best plays of the
// dice set, or its cube decision) and its evaluation, in a panel; and a rollout of the
// position, with its settings, progress, a Cancel and the result with standard errors.

import { askEngine } from "./api.js";
import { editor, failure, off } from "./editor_position.js";
import { chancesText, percent, signed as signedFigure } from "./figures.js";
import { formatNumber, isolate, t } from "./i18n.js";
import { followRollout } from "./rollouts.js";

const $ = (selector) => document.querySelector(selector);

/** Wire the hint, the evaluation and the rollout's controls. */
export function setUpStudy() {
  $("#editor-hint").addEventListener("click", () => study("hint"));
  $("#editor-evaluate").addEventListener("click", () => study("eval"));
  $("#editor-rollout").addEventListener("click", toggleRollout);
  $("#editor-rollout-form").addEventListener("submit", startRollout);
  $("#rollout-cancel").addEventListener("click", cancelRollout);
  $("#editor-plies").addEventListener("change", fitTrials);
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

/** An equity as the editor writes it: signed always, zero too ("+0.000"). */
function signed(value) {
  return signedFigure(value, { always: true });
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
    item.append(line(chancesText(play.probabilities), "hint-chances"));
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
    line(chancesText(answer.probabilities)),
  ];
}

function showEvaluation(answer) {
  return [
    line(chancesText(answer.probabilities)),
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
  let asking = "eval";
  if (kind === "hint" && editor.dice) {
    asking = "move";
    body.dice = editor.dice;
    body.plays = 5;
  } else if (kind === "hint") {
    asking = "cube";
  }
  const player = t(editor.onRoll === 0 ? "editor.white" : "editor.black");
  const heading = document.createElement("h3");
  heading.textContent = t(kind === "hint" ? "editor.hintFor" : "editor.evaluationFor", { player });
  try {
    const answer = await askEngine(asking, body);
    if (ticket !== editor.asked) return; // the position changed meanwhile
    let nodes;
    if (asking === "move") nodes = showPlays(answer);
    else if (asking === "cube") nodes = showCube(answer);
    else nodes = showEvaluation(answer);
    panel.replaceChildren(heading, ...nodes);
    panel.dataset.kind = asking;
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

/** Whether a rollout is running (or being started): no second one starts meanwhile. */
export function rolloutRunning() {
  return rollout.id !== null;
}

export function toggleRollout() {
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
