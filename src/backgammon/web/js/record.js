// The match's record beside the board: each game's entries in words, and its result.

import { formatNumber, isolate, t } from "./i18n.js";
import { about, playerName, resultText } from "./words.js";

const $ = (selector) => document.querySelector(selector);

/** One entry of the record in words, its player named. */
function entryText(state, entry) {
  const player = playerName(state, entry.seat);
  const dice = entry.dice ? entry.dice.map(formatNumber).join("") : "";
  const key = (name) => about(state, entry.seat, `record.${name}`);
  switch (entry.kind) {
    case "opening":
      return t("record.opening", { first: entry.dice[0], second: entry.dice[1] });
    case "play":
      return entry.play === null
        ? t(key("dance"), { player, dice })
        : t(key("play"), { player, dice, play: isolate(entry.play) });
    case "double":
    case "beaver":
      return t(key(entry.kind), { player, value: entry.value });
    case "resign":
      return t(key("resign"), { player, level: t(`resign.level.${entry.level}`) });
    case "name":
      return t(key("name"), { player, value: entry.value });
    default:
      return t(key(entry.kind), { player });
  }
}

/** List the record of `state`'s match: each game under its heading, its result last. */
export function renderRecord(state) {
  const container = $("#record");
  container.replaceChildren();
  for (const game of state.record) {
    const heading = document.createElement("h3");
    heading.textContent = t("record.game", { number: game.number, first: game.score_before[0], second: game.score_before[1] });
    const list = document.createElement("ol");
    for (const entry of game.entries) {
      const item = document.createElement("li");
      item.textContent = entryText(state, entry);
      list.appendChild(item);
    }
    if (game.result) {
      const item = document.createElement("li");
      item.textContent = resultText(state, game.result);
      list.appendChild(item);
    }
    container.append(heading, list);
  }
}
