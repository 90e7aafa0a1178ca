// The game view's controls under the board: a button for each action the seat this screen
// acts for may take now (Roll, Double, Take, ...), the double to name after Acey-deucey's 1-2,
// Resign with its level and a question before it, and Analyse once there is something to look
// back on. The claims among them are online play's (online.js), the hint button the hints'
// (hint.js).

import { t } from "./i18n.js";
import { allowed, seatsHeld } from "./seats.js";

const $ = (selector) => document.querySelector(selector);

/** Wire the controls: `act(action)` takes an action by its name ("roll", "confirm", ...),
 * `send(action)` sends one whole (the double named, the resignation confirmed). */
export function setUpControls({ act, send }) {
  for (const button of document.querySelectorAll(".controls [data-action]")) {
    button.addEventListener("click", () => {
      const action = button.dataset.action;
      if (action === "resign") confirmResignation();
      else act(action);
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
}

/** Show the controls of what `state` lets this screen do now. */
export function renderControls(state) {
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
}

/** Ask before resigning: the level chosen, said in a dialog that keeps playing by default. */
function confirmResignation() {
  const level = t(`resign.level.${$("#resign-level").value}`);
  $("#resign-question").textContent = t("resign.confirm", { level });
  $("#resign-dialog").returnValue = "";
  $("#resign-dialog").showModal();
}
