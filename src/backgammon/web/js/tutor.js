// The tutor: in a game against the computer or at one screen (never online between people),
// the play made and not yet confirmed, or a double, take or drop not yet sent, is judged by
// the server first (POST /api/matches/{id}/tutor). Under the player's threshold (a preference
// of this browser, prefs.js) the action goes on at once; past it, a panel says what it loses,
// the better play or cube action and its reasons, and offers "Take back" (the steps undone,
// or the cube action not sent) or "Keep it" (sent as it was). The server keeps each warning
// with the match; the record keeps the steps and their undos.

import { judgeAction } from "./api.js";
import { say } from "./announce.js";
import { lost } from "./figures.js";
import { isolate, language, t } from "./i18n.js";
import { setTutorLevel, tutorLevel } from "./prefs.js";

/** The actions the tutor judges before they are sent. */
const JUDGED = ["confirm", "double", "take", "drop"];
const MARKS = { doubtful: "doubtful", bad: "bad", "very bad": "veryBad" };
const CUBE_BEST = { "no double": "noDouble", double: "double", take: "take", drop: "drop" };

const tutor = {
  pending: null, // {keep, takeBack}: what the warning's buttons do, while it is shown
  judging: false,
};

const $ = (selector) => document.querySelector(selector);

/** Set up the board's tutor menu and the warning's buttons. */
export function setUpTutor() {
  const menu = $("#tutor-level");
  syncMenus();
  menu.addEventListener("change", () => {
    setTutorLevel(menu.value);
    syncMenus();
  });
  $("#tutor-keep").addEventListener("click", () => answer("keep"));
  $("#tutor-take-back").addEventListener("click", () => answer("takeBack"));
  $("#tutor").addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      answer("takeBack");
    }
  });
}

/** The setup form's choice, where the form shows it (a game against the computer or at one
 * screen): kept as this browser's preference, as the home board's side is, never sent. */
export function keepTutorChoice(form) {
  const menu = form.elements.namedItem("tutor");
  if (!menu.closest("[data-for]").hidden) setTutorLevel(menu.value);
  syncMenus();
}

/** Every menu of the tutor's threshold (the board's, the setup form's) shows the one chosen. */
function syncMenus() {
  for (const menu of document.querySelectorAll('#tutor-level, [name="tutor"]')) menu.value = tutorLevel();
}

/** Whether the tutor may judge in `state`: backgammon, not online, a person to act at this
 * screen. */
export function tutorable(state) {
  const seat = state.to_act;
  return !state.online && !state.match_over && seat !== null && state.seats[seat].kind === "human"
    && !state.board.travel;
}

/** After each drawing of the board: the menu is shown where the tutor may judge, and a
 * warning the game has moved past is dropped. */
export function updateTutor(state) {
  // The tutor judges backgammon alone (the other games' boards say their travel).
  $("#tutor-option").hidden = !state || state.online || Boolean(state.board.travel);
  const shown = $("#tutor").dataset.version;
  if (shown && (!state || String(state.version) !== shown || state.id !== $("#tutor").dataset.match)) hide();
}

/**
 * Send `action` ({action: ...}) through the tutor: `go()` sends it; `takeBack()` undoes the
 * play's steps; `busy(flag)` holds the board while the tutor thinks. Judged only where the
 * tutor is on and the action is one it judges; a warning waits for the player's choice, and a
 * failed judgement lets the action go on (the tutor is a help, never a gate).
 */
export async function throughTutor(state, view, action, { go, takeBack, busy }) {
  const threshold = tutorLevel();
  if (threshold === "off" || !JUDGED.includes(action) || !tutorable(state)) return go();
  if (tutor.judging || tutor.pending) return undefined;
  tutor.judging = true;
  busy(true); // the board takes nothing else while the tutor thinks (about a second at most)
  let verdict;
  try {
    verdict = await judgeAction(state.id, {
      action, threshold, version: state.version, view, lang: language(),
    });
  } catch {
    verdict = null;
  } finally {
    tutor.judging = false;
    busy(false);
  }
  // The board moved on while the tutor thought (a step undone, say): the action is not the
  // one judged, and the player acts again on what the board shows.
  if ($("#board").dataset.version !== String(state.version)) return undefined;
  if (!verdict || !verdict.warn) return go();
  show(state, verdict, { keep: go, takeBack: action === "confirm" ? takeBack : () => {} });
  return undefined;
}

/** The warning's sentences: what the action loses, and what is better. */
function sentences(verdict) {
  const mark = t(`analysis.mark.${MARKS[verdict.mark]}`);
  const loss = t(`tutor.loss.${verdict.action}`, { loss: lost(verdict.loss), mark });
  const better = verdict.action === "confirm"
    ? t("tutor.better.play", { play: isolate(verdict.best) })
    : t(`tutor.better.${CUBE_BEST[verdict.best]}`);
  return { loss, better };
}

function reasonsOf(verdict) {
  const hint = verdict.hint;
  if (!hint) return [];
  if (hint.cube) return hint.cube.reasons;
  const best = hint.plays.find((play) => play.play === verdict.best) || hint.plays[0];
  return best ? best.reasons : [];
}

function show(state, verdict, choices) {
  const panel = $("#tutor");
  const { loss, better } = sentences(verdict);
  $("#tutor-loss").textContent = loss;
  $("#tutor-better").textContent = better;
  const reasons = reasonsOf(verdict);
  $("#tutor-why").hidden = !reasons.length;
  $("#tutor-reasons").replaceChildren(...reasons.map((reason) => {
    const item = document.createElement("li");
    item.textContent = reason;
    return item;
  }));
  panel.dataset.version = String(state.version);
  panel.dataset.match = state.id;
  panel.dataset.mark = verdict.mark || "";
  tutor.pending = choices;
  panel.hidden = false;
  // Said once, then the choice has the focus: "Take back" first, the advice.
  say([t("tutor.heading"), loss, better, ...reasons].join(" "));
  $("#tutor-take-back").focus();
}

function hide() {
  const panel = $("#tutor");
  panel.hidden = true;
  delete panel.dataset.version;
  tutor.pending = null;
}

async function answer(choice) {
  const pending = tutor.pending;
  if (!pending) return;
  hide();
  await pending[choice]();
  if (choice === "takeBack") {
    const focus = document.querySelector(".controls [data-action]:not([hidden])") || $("#board");
    focus.focus();
  }
}

/** A new language: a warning shown is dropped (its sentences were the old language's). */
export function relabelTutor() {
  hide();
}
