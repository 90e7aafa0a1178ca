// The lobby under the setup form: the open games waiting for an opponent (who made each, with
// their rating, what is played: the length, the rules that differ from the plain game, and
// whether it is rated), each with its Join button; and the games being played, each with a
// Watch link that opens it read-only. Each button or link is described by its entry's text,
// so that "Join" and "Watch" say which game they are for.

import { getLiveMatches, getLobby, refusal } from "./api.js";
import { formatNumber, language, t } from "./i18n.js";

const $ = (selector) => document.querySelector(selector);

const lobby = {
  join: null, // join(invite): take the seat an open game's invite gives (from online.js)
  open: [], // the entries last read, drawn again in a new language
  live: [],
};

/** Set up the lobby's refresh button; `join(invite)` takes an open game's seat. */
export function setUpLobby({ join }) {
  lobby.join = join;
  $("#lobby-refresh").addEventListener("click", showLobby);
}

/** Read the open games and the games being played, and show them. */
export async function showLobby() {
  const [open, live] = await Promise.allSettled([getLobby(), getLiveMatches()]);
  lobby.open = open.status === "fulfilled" ? open.value : [];
  lobby.live = live.status === "fulfilled" ? live.value : [];
  drawLists();
  const failed = [open, live].find((read) => read.status === "rejected");
  if (failed) $("#lobby-note").textContent = t(refusal(failed.reason, "error.refused"));
}

/** Draw the lists again in the language just loaded. */
export function relabelLobby() {
  drawLists();
}

function drawLists() {
  $("#lobby-note").textContent = lobby.open.length ? "" : t("lobby.empty");
  $("#lobby-list").replaceChildren(...lobby.open.map((entry, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = t("lobby.join");
    button.addEventListener("click", () => lobby.join(entry.invite));
    return item(`lobby-entry-${index}`, openText(entry), button);
  }));
  $("#live-note").textContent = lobby.live.length ? "" : t("lobby.live.empty");
  $("#live-list").replaceChildren(...lobby.live.map((entry, index) => {
    const link = document.createElement("a");
    link.href = `/?match=${encodeURIComponent(entry.id)}`;
    link.textContent = t("lobby.watch");
    return item(`live-entry-${index}`, liveText(entry), link);
  }));
}

/** A list item: the entry's text, then the control it describes. */
function item(id, text, control) {
  const line = document.createElement("li");
  const label = document.createElement("span");
  label.id = id;
  label.textContent = text;
  control.setAttribute("aria-describedby", id);
  line.append(label, " ", control);
  return line;
}

/** "Ann (rating 1512.40): Match to 5; Crawford rule; Rated". */
function openText(entry) {
  const details = [kindText(entry.length), ...optionTexts(entry), entry.rated ? t("lobby.rated") : t("lobby.unrated")];
  return t("lobby.entry", { player: playerText(entry.creator, entry.rating), details: details.join(t("lobby.separator")) });
}

/** "Ann (rating 1512.40) against Bob (guest): 2–1; Match to 5; Rated". */
function liveText(entry) {
  const [first, second] = entry.players.map((player) => playerText(player.name, player.rating));
  const details = [
    t("lobby.live.score", { first: formatNumber(entry.score[0]), second: formatNumber(entry.score[1]) }),
    kindText(entry.length),
    entry.rated ? t("lobby.rated") : t("lobby.unrated"),
  ];
  return t("lobby.live.entry", { first, second, details: details.join(t("lobby.separator")) });
}

/** A player and their rating, or that they play as a guest (no account, so no rating). */
function playerText(name, rating) {
  if (rating === null || rating === undefined) return t("lobby.guest", { player: name });
  // As the players' pages write ratings: two decimals, no grouping.
  const format = new Intl.NumberFormat(language(), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false });
  return t("lobby.rating", { player: name, rating: format.format(rating) });
}

function kindText(length) {
  return length ? t("info.match", { length: formatNumber(length) }) : t("info.money");
}

/** The rules of an open game that differ from the plain game's (RULES.md, the options). */
function optionTexts(entry) {
  const rules = entry.rules;
  const texts = [];
  if (rules.variant !== "standard") texts.push(t(`variant.${rules.variant}`));
  if (!rules.cube) texts.push(t("lobby.option.noCube"));
  if (entry.length > 1) texts.push(entry.crawford ? t("lobby.option.crawford") : t("lobby.option.noCrawford"));
  if (rules.jacoby) texts.push(t("lobby.option.jacoby"));
  if (rules.beavers) texts.push(t("lobby.option.beavers"));
  if (rules.automatic_doubles) texts.push(t("lobby.option.automaticDoubles", { count: formatNumber(rules.automatic_doubles) }));
  if (rules.cube && rules.max_cube) texts.push(t("lobby.option.maxCube", { value: formatNumber(rules.max_cube) }));
  if (rules.opening_reroll) texts.push(t("lobby.option.openingReroll"));
  if (rules.auto_forced) texts.push(t("lobby.option.autoForced"));
  if (rules.auto_race_roll) texts.push(t("lobby.option.autoRaceRoll"));
  return texts;
}
