// The lobby beside the front page's choices: the open games waiting for an opponent (who
// made each, with their rating, what is played: the length, the rules that differ from the
// plain game, and whether it is rated), each with its Join button; and the games being played,
// each with a Watch link that opens it read-only. Each button or link is described by its
// entry's text, so that "Join" and "Watch" say which game they are for.
//
// The lists read themselves again every REFRESH_SECONDS while the lobby is shown (the front
// page is) and the tab is seen (document.visibilityState), and not otherwise; Refresh reads
// them at once. A page may set another interval, in seconds, as #lobby's
// data-refresh-seconds (the browser tests do, to see a new game come without waiting ten
// seconds); it takes effect at once. #lobby's data-refresh says whether the lists read
// themselves now ("on") or not ("off").
//
// A read changes only what changed: an entry still there keeps its line, in its place, so that
// focus and a screen reader's place stay on it; a line whose game has gone gives its focus to the
// next line's control; and what came or went is said politely (#lobby-update).

import { getLiveMatches, getLobby, refusal } from "./api.js";
import { formatNumber, language, t } from "./i18n.js";

const $ = (selector) => document.querySelector(selector);

/** How often the shown lobby reads its lists again, unless #lobby's data-refresh-seconds says. */
export const REFRESH_SECONDS = 10;
/** The shortest interval a page may set, so that a mistaken 0 does not read without pause. */
const SHORTEST_SECONDS = 0.1;

const lobby = {
  join: null, // join(invite): take the seat an open game's invite gives (from online.js)
  open: [], // the entries last read, drawn again in a new language
  live: [],
  lines: { open: new Map(), live: new Map() }, // each entry's <li>, by its invite or match id
  drawn: false, // whether the lists have been drawn from a read (none to compare the first with)
  failure: null, // the message key of why the last read failed, if it did
  reading: null, // the read under way: a second asks for the same
  timer: null, // the next read by itself
  labels: 0, // the ids given to the entries' texts, each line its own
};

/** Set up the lobby's refresh button, and its reading by itself while shown; `join(invite)`
 * takes an open game's seat. */
export function setUpLobby({ join }) {
  lobby.join = join;
  $("#lobby-refresh").addEventListener("click", () => showLobby());
  // The page shows and hides the front page (a match, an analysis): read by itself only while
  // it is shown, and at once when the tab is seen again, as the lists may have aged.
  const reschedule = new MutationObserver(schedule);
  reschedule.observe($("#setup"), { attributes: true, attributeFilter: ["hidden"] });
  reschedule.observe($("#lobby"), { attributes: true, attributeFilter: ["data-refresh-seconds"] });
  document.addEventListener("visibilitychange", () => (shown() ? showLobby() : schedule()));
  schedule();
}

/** Read the open games and the games being played, and show them; a read under way is not
 * asked for twice. A failed read leaves the lists as they were and says why. */
export function showLobby() {
  if (!lobby.reading) {
    lobby.reading = read().finally(() => {
      lobby.reading = null;
      schedule();
    });
  }
  return lobby.reading;
}

async function read() {
  const [open, live] = await Promise.allSettled([getLobby(), getLiveMatches()]);
  if (open.status === "fulfilled") lobby.open = open.value;
  if (live.status === "fulfilled") lobby.live = live.value;
  const failed = [open, live].find((each) => each.status === "rejected");
  lobby.failure = failed ? refusal(failed.reason, "error.refused") : null;
  const changed = drawLists();
  if (changed && lobby.drawn) {
    say($("#lobby-update"), t("lobby.updated", { open: lobby.open.length, live: lobby.live.length }));
  }
  lobby.drawn = true;
}

/** Draw the lists again in the language just loaded. */
export function relabelLobby() {
  drawLists();
}

/** Whether the lobby is in sight: the front page shown, in a tab that is seen. */
function shown() {
  return !$("#setup").hidden && document.visibilityState === "visible";
}

/** The next read by itself, an interval from now, if the lobby is in sight; none otherwise. */
function schedule() {
  clearTimeout(lobby.timer);
  lobby.timer = null;
  const on = shown();
  $("#lobby").dataset.refresh = on ? "on" : "off";
  if (!on) return;
  const asked = Number.parseFloat($("#lobby").dataset.refreshSeconds);
  const seconds = Number.isFinite(asked) ? Math.max(asked, SHORTEST_SECONDS) : REFRESH_SECONDS;
  lobby.timer = setTimeout(showLobby, seconds * 1000);
}

/** Both lists from the entries last read; whether an entry came or went. */
function drawLists() {
  say($("#lobby-note"), lobby.failure ? t(lobby.failure) : lobby.open.length ? "" : t("lobby.empty"));
  const open = drawList($("#lobby-list"), lobby.lines.open, lobby.open, {
    key: (entry) => entry.invite,
    text: openText,
    label: t("lobby.join"),
    control: (entry) => {
      const button = document.createElement("button");
      button.type = "button";
      button.addEventListener("click", () => lobby.join(entry.invite));
      return button;
    },
  });
  say($("#live-note"), lobby.live.length ? "" : t("lobby.live.empty"));
  const live = drawList($("#live-list"), lobby.lines.live, lobby.live, {
    key: (entry) => entry.id,
    text: liveText,
    label: t("lobby.watch"),
    control: (entry) => {
      const link = document.createElement("a");
      link.href = `/?match=${encodeURIComponent(entry.id)}`;
      return link;
    },
  });
  return open || live;
}

/**
 * Draw `entries` in `list`, whose lines by key are `lines`: a line whose entry is still there
 * stays where it is (its texts changed only where they differ), a line whose entry has gone
 * is removed, and a new entry's line comes in before the line that follows it in the answer's
 * order. So focus on a line that stays stays, and nothing moves under the
 * reader's eyes; focus on a line removed goes to the control of the line now in its place
 * (else the last one, else Refresh). Whether an entry came or went.
 */
function drawList(list, lines, entries, { key, text, label, control }) {
  const active = document.activeElement;
  const focused = [...list.children].findIndex((line) => line.contains(active));
  const wanted = new Map();
  for (const entry of entries) {
    const line = lines.get(key(entry)) || item(control(entry));
    say(line.firstChild, text(entry));
    say(line.lastChild, label);
    wanted.set(key(entry), line);
  }
  const changed = wanted.size !== lines.size || [...wanted.keys()].some((each) => !lines.has(each));
  for (const [each, line] of lines) if (!wanted.has(each)) line.remove();
  let following = null; // the line the next new one goes before (none: at the end)
  for (const line of [...wanted.values()].reverse()) {
    if (line.parentNode !== list) list.insertBefore(line, following);
    following = line;
  }
  lines.clear();
  for (const [each, line] of wanted) lines.set(each, line);
  if (focused >= 0 && !active.isConnected) {
    const place = list.children[Math.min(focused, list.children.length - 1)];
    (place ? place.lastChild : $("#lobby-refresh")).focus();
  }
  return changed;
}

/** A list item: the entry's text, then the control it describes. */
function item(control) {
  const line = document.createElement("li");
  const label = document.createElement("span");
  label.id = `lobby-entry-${++lobby.labels}`;
  control.setAttribute("aria-describedby", label.id);
  line.append(label, " ", control);
  return line;
}

/** Set `node`'s text if it differs: the same text set again would be read out again in a live
 * region (the notes), and is a needless change of the page anywhere else. */
function say(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** "Ann (rating 1512.40): Match to 5; Crawford rule; Rated", or with "Practice match (hints
 * and analysis allowed)" before whoever joins agrees to it, and the time control, if any. */
function openText(entry) {
  const details = [...gameTexts(entry), kindText(entry.length), ...optionTexts(entry), entry.rated ? t("lobby.rated") : t("lobby.unrated")];
  if (entry.practice) details.push(t("lobby.practice"));
  if (entry.clock) details.push(clockText(entry.clock));
  return t("lobby.entry", { player: playerText(entry.creator, entry.rating), details: details.join(t("lobby.separator")) });
}

/** A time control in words: "Clock: 8 s a move, then 20 s a point" (the lobby's entries,
 * an invitation). */
export function clockText(clock) {
  return t("lobby.clock", { delay: formatNumber(clock.delay), bank: formatNumber(clock.bank) });
}

/** "Ann (rating 1512.40) against Bob (guest): 2–1; Match to 5; Rated". */
function liveText(entry) {
  const [first, second] = entry.players.map((player) => playerText(player.name, player.rating));
  const details = [
    ...gameTexts(entry),
    t("lobby.live.score", { first: formatNumber(entry.score[0]), second: formatNumber(entry.score[1]) }),
    kindText(entry.length),
    entry.rated ? t("lobby.rated") : t("lobby.unrated"),
  ];
  if (entry.clock) details.push(clockText(entry.clock));
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

/** The game an entry plays, where it is not backgammon: "Plakoto", or Tavli's games in turn
 * (the ratings shown are in that game). */
function gameTexts(entry) {
  return entry.game && entry.game !== "backgammon" ? [gameText(entry.game)] : [];
}

/** A game's name: "Plakoto", or "Tavli: Portes, Plakoto and Fevga in turn". */
export function gameText(game) {
  return t(game === "tavli" ? "game.tavliMatch" : `game.${game}`);
}

/** The rules of an open game that differ from the plain game's (RULES.md, the options); the
 * other games have their own layout and cube, and share only the options after those. */
function optionTexts(entry) {
  const rules = entry.rules;
  const texts = [];
  const backgammon = !entry.game || entry.game === "backgammon";
  if (backgammon && rules.variant !== "standard") texts.push(t(`variant.${rules.variant}`));
  if (backgammon && !rules.cube) texts.push(t("lobby.option.noCube"));
  if (entry.length > 1) texts.push(entry.crawford ? t("lobby.option.crawford") : t("lobby.option.noCrawford"));
  if (rules.jacoby) texts.push(t("lobby.option.jacoby"));
  if (rules.beavers) texts.push(t("lobby.option.beavers"));
  if (rules.automatic_doubles) texts.push(t("lobby.option.automaticDoubles", { count: formatNumber(rules.automatic_doubles) }));
  if (rules.cube && rules.max_cube) texts.push(t("lobby.option.maxCube", { value: formatNumber(rules.max_cube) }));
  if (backgammon && rules.opening_reroll) texts.push(t("lobby.option.openingReroll"));
  if (rules.auto_forced) texts.push(t("lobby.option.autoForced"));
  if (rules.auto_race_roll) texts.push(t("lobby.option.autoRaceRoll"));
  return texts;
}
