// The front page's form: three choices (the computer, a friend, an opponent found in the
// lobby), each showing only the fields it needs, the rest under "More options"; and the
// options of the match it asks the server for.
//
// A field's data-for lists the modes it is shown in: a choice ("computer", "friend",
// "lobby") or, for a friend, where they are ("friend-online": a link to send them,
// "friend-screen": at this screen). A hidden field is not read, whatever it holds.

import { signedIn } from "./csrf.js";
import { t } from "./i18n.js";

/** The start button's words in each mode: what pressing it will do. */
const START = {
  computer: "setup.start",
  "friend-online": "setup.invite",
  "friend-screen": "setup.start",
  lobby: "setup.offer",
};

/** Show the fields of the mode chosen in `form`, now and whenever a choice changes. */
export function setUpSetup(form) {
  form.addEventListener("input", () => showChoice(form));
  showChoice(form);
}

/** The modes the form is in: its choice, and for a friend where they are. */
function modes(form) {
  const choice = form.elements.namedItem("choice").value;
  return choice === "friend" ? [choice, `friend-${form.elements.namedItem("where").value}`] : [choice];
}

/** Show the fields the form's mode needs and hide the others; name the start button. */
export function showChoice(form) {
  const shown = modes(form);
  for (const node of form.querySelectorAll("[data-for]")) {
    const wanted = node.dataset.for.split(" ").some((mode) => shown.includes(mode));
    // A rated match needs an account: a guest is not offered one at all.
    node.hidden = !wanted || ("signedIn" in node.dataset && !signedIn());
  }
  offerRated(form);
  offerPractice(form);
  offerCustomClock(form);
  const start = form.querySelector("#setup-start");
  start.dataset.msg = START[shown[shown.length - 1]];
  start.textContent = t(start.dataset.msg);
}

/** Enable "Rated match" only where the server can rate the match (its check_rated): shown
 * (a signed-in page, an opponent online), a match length, no position. A disabled box is not
 * sent, so a choice made before the form changed does not ride along. */
function offerRated(form) {
  const field = (name) => form.elements.namedItem(name); // not .length: the number of fields
  const rated = field("rated");
  rated.disabled = rated.closest("[data-for]").hidden
    || !(Number(field("length").value) >= 1 && !field("position").value.trim());
}

/** Enable "Allow hints and analysis" only where the server takes it: a friend's online
 * game (shown) that is not rated. A rated match leaves it unchecked too, so that no box
 * looks chosen that is not sent. */
function offerPractice(form) {
  const practice = form.elements.namedItem("practice");
  const rated = form.elements.namedItem("rated");
  const ratedChosen = !rated.disabled && rated.checked;
  if (ratedChosen) practice.checked = false;
  practice.disabled = practice.closest("[data-for]").hidden || ratedChosen;
}

/** Show the custom clock's fields only where the time control chosen is "custom". */
function offerCustomClock(form) {
  const custom = form.querySelector("#clock-custom");
  custom.hidden = form.elements.namedItem("clock").value !== "custom";
}

/** The time control `data` asks for (the API's `clock`): none, a preset's name, or a custom
 * delay and bank a point. */
function clockOf(data) {
  const clock = data.get("clock");
  if (clock === "custom") {
    return { delay: Number(data.get("clock_delay")) || 0, bank: Number(data.get("clock_bank")) || 0 };
  }
  return clock === "none" ? null : clock;
}

/** The options of the match `form` asks for (POST /api/matches): a friend's online game is
 * unlisted, an opponent's is listed in the lobby. */
export function matchOptions(form) {
  const data = new FormData(form);
  const [choice, friend] = modes(form);
  const opponent = choice === "computer" ? "computer" : friend === "friend-screen" ? "human" : "online";
  const game = form.elements.namedItem("game");
  // Another game has its own layout and cube: of the options, only those it shares.
  if (game.value !== "backgammon") {
    const options = {
      opponent,
      game: game.value,
      length: Number(data.get("length")) || 0,
      auto_forced: data.has("auto_forced"),
      crawford: data.has("crawford"),
    };
    if (opponent === "computer") options.level = data.get("level");
    if (opponent !== "human") options.colour = data.get("colour");
    if (opponent === "online") Object.assign(options, onlineOptions(data, options.colour, choice === "lobby"));
    return options;
  }
  const options = {
    opponent,
    length: Number(data.get("length")) || 0,
    variant: data.get("variant"),
    cube: data.has("cube"),
    auto_forced: data.has("auto_forced"),
    crawford: data.has("crawford"),
    jacoby: data.has("jacoby"),
    beavers: data.has("beavers"),
    automatic_doubles: Number(data.get("automatic_doubles")) || 0,
  };
  if (options.length) Object.assign(options, { jacoby: false, beavers: false, automatic_doubles: 0 });
  if (opponent === "computer") options.level = data.get("level");
  if (opponent !== "human") options.colour = data.get("colour");
  const position = String(data.get("position") || "").trim();
  if (position) options.position = position;
  if (opponent === "online") Object.assign(options, onlineOptions(data, options.colour, choice === "lobby"));
  return options;
}

/** What an online match adds: whether the lobby lists it, whether it is rated or a
 * practice match, its time control, and the names (the creator's, else their colour's; the other seat's colour
 * until it is taken). */
function onlineOptions(data, colour, listed) {
  const colours = colour === "white" ? ["white", "black"] : ["black", "white"];
  const name = String(data.get("player_name") || "").trim();
  return {
    lobby: listed,
    rated: data.has("rated"),
    practice: data.has("practice"),
    clock: clockOf(data),
    names: [name || t(`name.${colours[0]}`), t(`name.${colours[1]}`)],
  };
}
