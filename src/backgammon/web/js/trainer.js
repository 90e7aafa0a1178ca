// The trainer (/trainer): the decisions a player got wrong in their analysed matches, one card
// at a time. A card shows the board of the moment and asks for the play (the plays the
// analysis weighed, as buttons) or the cube action; the answer says whether it was the best,
// the best choice, what the answer lost and why; the server reschedules the card (FSRS), so
// that it comes back when it is due. A signed-in player's deck is kept with their account; a
// guest's in this browser (localdeck.js), the server judging and scheduling its answers too.
// The address may name a match (?match=ID): its mistakes join the deck and are practised.

import {
  ApiError, answerCard, boardOf, deckProgress, dueCards, matchMistakes, practiseMatch, refusal,
  reviewCard,
} from "./api.js";
import { renderBoard } from "./board.js";
import { signedIn } from "./csrf.js";
import {
  LANGUAGES, applyMessages, browserLanguage, formatNumber, isolate, language, loadMessages, t,
} from "./i18n.js";
import * as local from "./localdeck.js";
import { language as chosenLanguage, setLanguage } from "./prefs.js";

const $ = (selector) => document.querySelector(selector);

// The cube's answers, in the analysis's words.
const CHOICES = { "no double": "noDouble", double: "double", take: "take", drop: "drop" };

const trainer = {
  account: false, // the deck is the account's (else this browser's)
  match: null, // the match whose cards are practised, or null: every due card
  queue: [], // the cards due, the one shown first
  shown: 0, // how many cards were shown this visit
  total: 0,
  answered: null, // the answer to the card shown, once judged
  note: "", // what the start said (a match's cards added, or why not)
};

function choiceText(text) {
  return text in CHOICES ? t(`analysis.choice.${CHOICES[text]}`) : isolate(text);
}

function emg(value) {
  return new Intl.NumberFormat(document.documentElement.lang, {
    minimumFractionDigits: 3, maximumFractionDigits: 3,
  }).format(value);
}

function failure(error) {
  if (error instanceof ApiError && (error.status === 409 || error.status === 403)) {
    return t("trainer.refused", { reason: error.message });
  }
  return t(refusal(error, "error.refused"));
}

// The deck: the account's or this browser's.

async function loadCards() {
  if (trainer.account) {
    if (trainer.match) {
      const dealt = await practiseMatch(trainer.match);
      trainer.note = t("trainer.added", { count: formatNumber(dealt.added) });
      return dealt.cards;
    }
    return (await dueCards()).cards;
  }
  if (trainer.match) {
    const found = await matchMistakes(trainer.match);
    trainer.note = t("trainer.added", { count: formatNumber(local.addCards(trainer.match, found.cards)) });
  }
  return local.dueCards(trainer.match);
}

async function judge(card, answer) {
  if (trainer.account) return answerCard(card.id, answer, language());
  const judged = await reviewCard(local.asSent(card), answer, language());
  local.keepAnswer(card, judged);
  return judged;
}

async function progressNow() {
  return trainer.account ? deckProgress() : local.progress();
}

// A card.

async function showCard() {
  const card = trainer.queue[0];
  trainer.answered = null;
  $("#trainer-answer").hidden = true;
  if (!card) {
    $("#trainer-card").hidden = true;
    $("#trainer-status").textContent = [trainer.note, t("trainer.none")].filter(Boolean).join(" ");
    document.body.dataset.card = "";
    return;
  }
  $("#trainer-status").textContent = trainer.note;
  $("#trainer-card").hidden = false;
  $("#trainer-card-heading").textContent = t("trainer.cardOf", {
    n: formatNumber(trainer.shown + 1), total: formatNumber(trainer.total),
  });
  $("#trainer-question").textContent = question(card);
  renderChoices(card);
  try {
    const shown = await boardOf(card.position_id, card.match_id);
    if (trainer.queue[0] !== card) return;
    drawBoard(card, shown);
  } catch (error) {
    $("#trainer-status").textContent = failure(error);
  }
  document.body.dataset.card = cardName(card);
}

/** A name for the card shown, for tests: its id, or its key in this browser's deck. */
function cardName(card) {
  return String(card.id ?? card.key);
}

function question(card) {
  if (card.kind === "checker") {
    return t("trainer.yourPlay", { dice: card.dice.map(formatNumber).join("–") });
  }
  return t(card.kind === "cube" ? "trainer.yourCube" : "trainer.yourTake");
}

function renderChoices(card) {
  const box = $("#trainer-choices");
  box.replaceChildren();
  for (const choice of card.choices) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "trainer-choice";
    button.dataset.choice = choice;
    button.textContent = choiceText(choice);
    button.addEventListener("click", () => answer(card, choice));
    box.appendChild(button);
  }
}

/** The board of the moment, drawn from seat 0's side as the analysis draws it; the player
 * who decided (the answerer of a double) is "you". */
function drawBoard(card, shown) {
  const decider = card.kind === "take" ? 1 - shown.on_roll : shown.on_roll;
  const names = decider === 0 ? [t("trainer.you"), t("trainer.opponent")] : [t("trainer.opponent"), t("trainer.you")];
  renderBoard($("#trainer-board"), {
    view: 0,
    mover: shown.on_roll,
    points: shown.board.points,
    bar: shown.board.bar,
    off: shown.board.off,
    colours: ["white", "black"],
    names,
    dice: shown.dice ? shown.dice.map((value) => ({ value, used: false })) : [],
    openingTie: null,
    cube: { value: shown.cube_value, owner: shown.cube_owner, offer: null, used: true },
    sources: new Set(),
    targets: new Set(),
    selected: null,
    canRoll: false,
  }, { onPlace() {}, onBoard() {} });
}

async function answer(card, choice) {
  if (trainer.answered || trainer.queue[0] !== card) return;
  for (const button of document.querySelectorAll(".trainer-choice")) button.disabled = true;
  let judged;
  try {
    judged = await judge(card, choice);
  } catch (error) {
    $("#trainer-status").textContent = failure(error);
    for (const button of document.querySelectorAll(".trainer-choice")) button.disabled = false;
    return;
  }
  trainer.answered = judged;
  showAnswer(judged);
  renderProgress();
}

function showAnswer(judged) {
  for (const button of document.querySelectorAll(".trainer-choice")) {
    const text = button.dataset.choice;
    button.classList.toggle("is-best", text === judged.best);
    button.classList.toggle("is-chosen", text === judged.answer);
    button.setAttribute("aria-pressed", String(text === judged.answer));
  }
  const verdict = $("#trainer-verdict");
  verdict.textContent = t(judged.right ? "trainer.right" : "trainer.wrong");
  verdict.classList.toggle("is-right", judged.right);
  $("#trainer-detail").textContent = [
    t("trainer.best", { best: choiceText(judged.best) }),
    judged.right ? "" : t("trainer.lost", { loss: emg(judged.loss) }),
    t("trainer.played", { played: choiceText(judged.played), loss: emg(judged.played_loss) }),
    t("trainer.due", { when: dueText(judged.due) }),
  ].filter(Boolean).join(" ");
  const reasons = $("#trainer-reasons");
  reasons.replaceChildren();
  for (const reason of judged.reasons) {
    const item = document.createElement("li");
    item.textContent = reason;
    reasons.appendChild(item);
  }
  $("#trainer-why").hidden = !judged.reasons.length;
  $("#trainer-answer").hidden = false;
  document.body.dataset.answered = judged.right ? "right" : "wrong";
  $("#trainer-next").focus();
}

function dueText(iso) {
  return new Intl.DateTimeFormat(document.documentElement.lang, {
    dateStyle: "medium", timeStyle: "short",
  }).format(new Date(iso));
}

function next() {
  trainer.queue.shift();
  trainer.shown += 1;
  delete document.body.dataset.answered;
  showCard();
}

// Progress over time.

async function renderProgress() {
  let progress;
  try {
    progress = await progressNow();
  } catch {
    return; // the progress is a help; the cards go on without it
  }
  for (const key of ["cards", "due", "learned"]) {
    $(`#trainer-total-${key}`).textContent = formatNumber(progress[key]);
  }
  const body = $("#trainer-days tbody");
  body.replaceChildren();
  for (const day of progress.days) {
    const row = document.createElement("tr");
    const when = document.createElement("th");
    when.scope = "row";
    when.textContent = new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium" })
      .format(new Date(`${day.day}T12:00:00Z`));
    row.appendChild(when);
    for (const figure of [day.answered, day.right]) {
      const cell = document.createElement("td");
      cell.className = "number";
      cell.textContent = formatNumber(figure);
      row.appendChild(cell);
    }
    body.appendChild(row);
  }
  $("#trainer-days").hidden = !progress.days.length;
  $("#trainer-no-days").hidden = Boolean(progress.days.length);
  document.body.dataset.progress = String(progress.days.reduce((sum, day) => sum + day.answered, 0));
}

function relabel() {
  applyMessages();
  document.title = t("trainer.title");
  $("#language").value = language();
  $("#help-link").href = `/help/${language()}/`;
  $("#trainer-where").textContent = t(trainer.account ? "trainer.whereAccount" : "trainer.whereBrowser");
  const card = trainer.queue[0];
  if (card && !trainer.answered) {
    $("#trainer-question").textContent = question(card);
    renderChoices(card);
  } else if (card && trainer.answered) {
    showAnswer(trainer.answered);
  }
  renderProgress();
}

async function start() {
  await loadMessages(chosenLanguage(LANGUAGES) || browserLanguage());
  trainer.account = signedIn();
  trainer.match = new URLSearchParams(location.search).get("match");
  $("#trainer-next").addEventListener("click", next);
  $("#language").addEventListener("change", async (event) => {
    setLanguage(event.target.value);
    await loadMessages(event.target.value);
    relabel();
  });
  relabel();
  try {
    trainer.queue = await loadCards();
  } catch (error) {
    trainer.note = failure(error);
    trainer.queue = trainer.account || !trainer.match ? [] : local.dueCards();
  }
  trainer.total = trainer.queue.length;
  await showCard();
  await renderProgress();
  document.body.dataset.ready = "true";
}

start();
