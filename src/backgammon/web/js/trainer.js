// The trainer (/trainer): the decisions a player got wrong in their analysed matches, one card
// at a time. A card shows the board of the moment and asks for the play, made on the board
// step by step as in a game (the server offers each next step: POST /api/trainer/turn), or
// picked from the plays the analysis weighed; or the cube action. The answer says whether it
// was the best, the best choice, what the answer lost and why; the server reschedules the card
// (FSRS), so that it comes back when it is due. A signed-in player's deck is kept with their account; a
// guest's in this browser (localdeck.js), the server judging and scheduling its answers too.
// The address may name a match (?match=ID): its mistakes join the deck and are practised.

import {
  ApiError, answerCard, boardOf, deckProgress, dueCards, matchMistakes, mergeCards,
  practiseMatch, rateCard, refusal, reviewCard, turnOf,
} from "./api.js";
import { renderBoard } from "./board.js";
import { obviousStep, sourcesOf, stepBetween, targetsOf } from "./moves.js";
import { signedIn } from "./csrf.js";
import { lost } from "./figures.js";
import {
  LANGUAGES, applyMessages, browserLanguage, formatNumber, isolate, language, loadMessages, t,
} from "./i18n.js";
import * as local from "./localdeck.js";
import { setUpLanguageMenu } from "./language_menu.js";
import { language as chosenLanguage } from "./prefs.js";

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
  added: null, // the cards the match named added to the deck, if one was named
  refused: null, // why the deck could not be read, if it could not
  // A checker card's play on the board: the steps made, the server's turn after them, the
  // place picked up.
  made: [],
  turn: null,
  selected: null,
  asked: 0, // the latest turn asked for: an earlier answer that comes later is dropped
};

function choiceText(text) {
  return text in CHOICES ? t(`analysis.choice.${CHOICES[text]}`) : isolate(text);
}

function failure(error) {
  if (error instanceof ApiError && (error.status === 409 || error.status === 403)) {
    return t("trainer.refused", { reason: error.message });
  }
  return t(refusal(error, "error.refused"));
}

// The deck: the account's or this browser's.

// The most cards one request brings to the account's deck (the server's MOST_MERGED).
const MERGED_AT_ONCE = 200;

/** Once signed in, bring the cards this browser kept to the account's deck (the server adds
 * those it lacks), then forget them here. Where a part could not be sent, all stay here and
 * are sent again at the next visit (those that joined are not added twice), and the
 * account's deck is shown meanwhile. */
async function mergeLocalDeck() {
  const cards = local.allCards();
  if (!cards.length) return;
  try {
    for (let start = 0; start < cards.length; start += MERGED_AT_ONCE) {
      await mergeCards(cards.slice(start, start + MERGED_AT_ONCE));
    }
  } catch {
    return;
  }
  local.forget();
}

async function loadCards() {
  if (trainer.account) {
    await mergeLocalDeck();
    if (trainer.match) {
      const dealt = await practiseMatch(trainer.match);
      trainer.added = dealt.added;
      return dealt.cards;
    }
    return (await dueCards()).cards;
  }
  if (trainer.match) {
    const found = await matchMistakes(trainer.match);
    trainer.added = local.addCards(trainer.match, found.cards);
  }
  return local.dueCards(trainer.match);
}

async function judge(card, answer) {
  if (trainer.account) return answerCard(card.id, answer, language());
  const judged = await reviewCard(local.asSent(card), answer, language());
  local.keepAnswer(card, judged);
  return judged;
}

/** Rate the right answer to `card` as it felt: the card's new due time. */
async function rate(card, judged, rating) {
  if (trainer.account) return (await rateCard(card.id, rating)).due;
  // The card as it was before the answer, answered again with the rating: nothing new counted.
  const again = await reviewCard(local.asSent(card), judged.answer, language(), rating);
  local.keepRating(card, again);
  return again.due;
}

async function progressNow() {
  return trainer.account ? deckProgress() : local.progress();
}

/** What the start said: the cards a match added, or why the deck could not be read; and
 * that no card is due, when none is. */
function statusText() {
  const said = [];
  if (trainer.refused) said.push(failure(trainer.refused));
  else if (trainer.added !== null) said.push(t("trainer.added", { count: formatNumber(trainer.added) }));
  if (!trainer.queue.length) said.push(t("trainer.none"));
  return said.join(" ");
}

// A card.

async function showCard() {
  const card = trainer.queue[0];
  trainer.answered = null;
  $("#trainer-answer").hidden = true;
  $("#trainer-status").textContent = statusText();
  if (!card) {
    $("#trainer-card").hidden = true;
    document.body.dataset.card = "";
    return;
  }
  $("#trainer-card").hidden = false;
  $("#trainer-card-heading").textContent = t("trainer.cardOf", {
    n: formatNumber(trainer.shown + 1), total: formatNumber(trainer.total),
  });
  $("#trainer-question").textContent = question(card);
  renderChoices(card);
  const checker = card.kind === "checker";
  $("#trainer-on-board").hidden = !checker;
  $("#trainer-list").hidden = !checker;
  $("#trainer-list").open = false;
  $("#trainer-choices").hidden = checker;
  Object.assign(trainer, { made: [], turn: null, selected: null });
  try {
    if (checker) {
      await step(card, null);
    } else {
      const shown = await boardOf(card.position_id, card.match_id);
      if (trainer.queue[0] !== card) return;
      drawBoard(card, shown, null);
    }
  } catch (error) {
    $("#trainer-status").textContent = failure(error);
  }
  document.body.dataset.card = cardName(card);
}

// A checker card's play, on the board.

/** Make `move` ([from, to], or null: none yet) and show the turn the server answers. */
async function step(card, move) {
  const made = move ? [...trainer.made, move] : trainer.made;
  const ticket = ++trainer.asked;
  const turn = await turnOf(card, made);
  if (ticket !== trainer.asked || trainer.queue[0] !== card) return;
  Object.assign(trainer, { made, turn, selected: null });
  showTurn(card);
}

function showTurn(card) {
  const { turn } = trainer;
  drawBoard(card, turn, turn);
  $("#trainer-undo").disabled = !trainer.made.length || Boolean(trainer.answered);
  $("#trainer-confirm").disabled = turn.play === null || Boolean(trainer.answered);
  $("#trainer-made").textContent = turn.play
    ? t("trainer.madePlay", { play: isolate(turn.play) })
    : t("trainer.moveOnBoard");
  document.body.dataset.made = String(trainer.made.length);
}

function onPlace(place) {
  const card = trainer.queue[0];
  const { turn } = trainer;
  if (!card || !turn || trainer.answered) return;
  const mover = turn.on_roll;
  const steps = turn.steps;
  if (trainer.selected && targetsOf(steps, mover, trainer.selected).has(place)) {
    const chosen = stepBetween(steps, mover, trainer.selected, place);
    step(card, [chosen.from, chosen.to]).catch(showFailure);
    return;
  }
  const obvious = place !== trainer.selected ? obviousStep(steps, mover, place) : null;
  if (obvious) {
    step(card, [obvious.from, obvious.to]).catch(showFailure);
    return;
  }
  trainer.selected = sourcesOf(steps, mover).has(place) && place !== trainer.selected ? place : null;
  drawBoard(card, turn, turn);
}

function showFailure(error) {
  $("#trainer-status").textContent = failure(error);
}

function undo() {
  const card = trainer.queue[0];
  if (!card || !trainer.made.length || trainer.answered) return;
  trainer.made = trainer.made.slice(0, -1);
  step(card, null).catch(showFailure);
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
  for (const box of [$("#trainer-choices"), $("#trainer-list-choices")]) box.replaceChildren();
  const box = card.kind === "checker" ? $("#trainer-list-choices") : $("#trainer-choices");
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

/** The board of the moment (or, as the play is made, after its steps), drawn from seat 0's
 * side as the analysis draws it; the player who decided (the answerer of a double) is "you".
 * `turn`: the checker card's turn, whose steps the board offers. */
function drawBoard(card, shown, turn) {
  const decider = card.kind === "take" ? 1 - shown.on_roll : shown.on_roll;
  const names = decider === 0 ? [t("trainer.you"), t("trainer.opponent")] : [t("trainer.opponent"), t("trainer.you")];
  const movable = Boolean(turn) && !trainer.answered;
  renderBoard($("#trainer-board"), {
    view: 0,
    mover: shown.on_roll,
    points: shown.board.points,
    bar: shown.board.bar,
    off: shown.board.off,
    colours: ["white", "black"],
    names,
    dice: turn ? turn.dice : (shown.dice || []).map((value) => ({ value, used: false })),
    openingTie: null,
    cube: { value: shown.cube_value, owner: shown.cube_owner, offer: null, used: true },
    sources: movable ? sourcesOf(turn.steps, turn.on_roll) : new Set(),
    targets: movable && trainer.selected ? targetsOf(turn.steps, turn.on_roll, trainer.selected) : new Set(),
    selected: movable ? trainer.selected : null,
    canRoll: false,
  }, { onPlace, onBoard() {} });
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
  trainer.answered = { ...judged, rating: "good" };
  showAnswer(trainer.answered);
  if (trainer.turn) showTurn(card);
  renderProgress();
}

async function feel(rating) {
  const card = trainer.queue[0];
  const judged = trainer.answered;
  if (!card || !judged || !judged.right || judged.rating === rating) return;
  try {
    judged.due = await rate(card, judged, rating);
  } catch (error) {
    showFailure(error);
    return;
  }
  judged.rating = rating;
  showAnswer(judged);
  document.body.dataset.rated = rating;
}

function showAnswer(judged) {
  if (trainer.turn) $("#trainer-list").open = true; // the plays weighed, the best outlined
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
    judged.right ? "" : t("trainer.lost", { loss: lost(judged.loss) }),
    t("trainer.played", { played: choiceText(judged.played), loss: lost(judged.played_loss) }),
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
  $("#trainer-feel").hidden = !judged.right;
  for (const button of document.querySelectorAll("[data-rating]")) {
    button.setAttribute("aria-pressed", String(button.dataset.rating === judged.rating));
  }
  const shown = $("#trainer-answer").hidden;
  $("#trainer-answer").hidden = false;
  document.body.dataset.answered = judged.right ? "right" : "wrong";
  if (shown) $("#trainer-next").focus();
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
  delete document.body.dataset.rated;
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
    $("#trainer-question").textContent = question(card);
    showAnswer(trainer.answered);
  }
  if (card && trainer.turn) showTurn(card);
  if (document.body.dataset.ready) $("#trainer-status").textContent = statusText();
  renderProgress();
}

async function start() {
  await loadMessages(chosenLanguage(LANGUAGES) || browserLanguage());
  trainer.account = signedIn();
  trainer.match = new URLSearchParams(location.search).get("match");
  $("#trainer-next").addEventListener("click", next);
  $("#trainer-undo").addEventListener("click", undo);
  for (const button of document.querySelectorAll("[data-rating]")) {
    button.addEventListener("click", () => feel(button.dataset.rating));
  }
  $("#trainer-confirm").addEventListener("click", () => {
    const card = trainer.queue[0];
    if (card && trainer.turn && trainer.turn.play) answer(card, trainer.turn.play);
  });
  setUpLanguageMenu($("#language"), relabel);
  relabel();
  try {
    trainer.queue = await loadCards();
  } catch (error) {
    trainer.refused = error;
    trainer.queue = trainer.account || !trainer.match ? [] : local.dueCards();
  }
  trainer.total = trainer.queue.length;
  await showCard();
  await renderProgress();
  document.body.dataset.ready = "true";
}

start();
