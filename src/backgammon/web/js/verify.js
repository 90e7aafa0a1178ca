// The page /verify.html: every roll of a match's finished games recomputed in this browser
// from the revealed seeds (fairdice.js), so that the check does not rest on the server's
// word. The match is named by ?match=ID (its record is fetched from the server) or its record
// is pasted.

import { canVerify, checkRecord } from "./fairdice.js";
import { applyMessages, browserLanguage, LANGUAGES, formatNumber, loadMessages, t } from "./i18n.js";
import { language as chosenLanguage } from "./prefs.js";

const $ = (selector) => document.querySelector(selector);

function diceText(dice) {
  return Array.isArray(dice) ? dice.map(formatNumber).join("-") : "?";
}

function gameText(check) {
  const number = check.number;
  if (!check.revealed) return t("verify.gameHidden", { number });
  if (!check.kept) return t("verify.gameBroken", { number });
  if (check.replaced.length) return t("verify.gameSeedReplaced", { number });
  if (check.mismatches.length) {
    const first = check.mismatches[0];
    return t("verify.gameDiffers", {
      number, roll: first.roll, recorded: diceText(first.recorded), derived: diceText(first.derived),
    });
  }
  return t("verify.gameOk", { number, count: check.rolls });
}

/** Show the verdict: `key` the message, `ok` true, false or null (nothing checked). */
function verdict(key, ok) {
  const node = $("#verify-verdict");
  node.textContent = t(key);
  node.dataset.ok = ok === null ? "" : String(ok);
}

async function recordOf(form) {
  const pasted = form.record.value.trim();
  if (pasted) return JSON.parse(pasted);
  const id = form.match.value.trim();
  const response = await fetch(`/api/matches/${encodeURIComponent(id)}/record`);
  if (!response.ok) throw new Error("notFound");
  $("#verify-back").href = `/?match=${encodeURIComponent(id)}`; // back to the match checked
  return response.json();
}

async function check(event) {
  event?.preventDefault();
  const list = $("#verify-games");
  list.replaceChildren();
  if (!canVerify()) return verdict("verify.noCrypto", null);
  let checks;
  try {
    checks = await checkRecord(await recordOf($("#verify-form")));
  } catch (error) {
    return verdict(error.message === "notFound" ? "verify.notFound" : "verify.notRecord", null);
  }
  for (const each of checks) {
    const item = document.createElement("li");
    item.textContent = gameText(each);
    list.appendChild(item);
  }
  const revealed = checks.filter((each) => each.revealed);
  if (!revealed.length) return verdict("verify.nothingRevealed", null);
  const ok = revealed.every((each) => each.kept && !each.replaced.length && !each.mismatches.length);
  return verdict(ok ? "verify.allMatch" : "verify.mismatch", ok);
}

async function main() {
  await loadMessages(chosenLanguage(LANGUAGES) || browserLanguage());
  document.title = t("verify.heading");
  applyMessages();
  $("#verify-form").addEventListener("submit", check);
  const id = new URLSearchParams(location.search).get("match");
  if (id) {
    $("#verify-match").value = id;
    $("#verify-back").href = `/?match=${encodeURIComponent(id)}`;
    await check();
  }
}

main();
