// The match's provably fair dice in the page: the commitment of the game in play, a field for
// each person's own seed before the game's first roll, and a link to /verify.html once a game
// has revealed its seed.

import { addSeed, refusal } from "./api.js";
import { t } from "./i18n.js";
import { seatsHeld } from "./seats.js";

const $ = (selector) => document.querySelector(selector);

let shown = null; // the state the panel shows
let nameOf = (state, seat) => String(seat);

/** Show `state`'s fair dice (the panel hides for seeded dice). */
export function renderFairDice(state) {
  shown = state;
  const fair = state.fair_dice;
  $("#fair-dice").hidden = !fair;
  if (!fair) return;
  $("#fair-commitment").value = fair.commitment;
  const open = fair.rolls === 0 && !state.match_over;
  $("#fair-seed-form").hidden = !open;
  for (const row of document.querySelectorAll("#fair-seed-form [data-seat]")) {
    const seat = Number(row.dataset.seat);
    row.hidden = !seatsHeld(state.id).includes(seat); // a seed for the seats played here
    row.querySelector("span").textContent = t("fair.seedOf", { player: nameOf(state, seat) });
    const input = row.querySelector("input");
    if (document.activeElement !== input) input.value = fair.seeds[seat];
  }
  const revealed = state.record.some((game) => game.fair_dice && game.fair_dice.server_seed);
  const link = $("#fair-verify");
  link.hidden = !revealed;
  link.href = `/verify.html?match=${encodeURIComponent(state.id)}`;
}

async function submit(event) {
  event.preventDefault();
  if (!shown) return;
  $("#fair-message").textContent = "";
  for (const row of document.querySelectorAll("#fair-seed-form [data-seat]")) {
    const seat = Number(row.dataset.seat);
    const seed = row.querySelector("input").value.trim();
    if (row.hidden || seed === shown.fair_dice.seeds[seat]) continue;
    try {
      renderFairDice(await addSeed(shown.id, seat, seed));
    } catch (error) {
      $("#fair-message").textContent = t(refusal(error, "fair.refused"));
      return;
    }
  }
}

/** Wire the seed form; `names(state, seat)` names a player as the page does. */
export function setUpFairDice({ names }) {
  nameOf = names;
  $("#fair-seed-form").addEventListener("submit", submit);
}
