// The trainer's deck kept in this browser (localStorage), for a player without an account:
// the cards of the matches analysed here (GET /api/matches/{id}/mistakes), each once, with
// their schedules as the server last made them (POST /api/trainer/review), and the answers'
// days and results for the progress. The server keeps none of it until the player signs in:
// the cards then join their account's deck (POST /api/trainer/browser-cards), and are
// forgotten here.

const KEY = "backgammon.trainer";
const MOST_ANSWERS = 5000; // the oldest answers go first beyond this
const REVIEW = 2; // FSRS's state of a card past its first steps: learned

function stored() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { cards: kept.cards || {}, answers: kept.answers || [] };
  } catch {
    return { cards: {}, answers: [] };
  }
}

function store(deck) {
  localStorage.setItem(KEY, JSON.stringify(deck));
}

/** A card's key in the deck: one a decision of a match. */
function keyOf(match, card) {
  return `${match}:${card.game}:${card.move_number}:${card.kind}`;
}

/** Add the cards of `match` the deck lacks (those it has keep their schedules); the count added. */
export function addCards(match, cards) {
  const deck = stored();
  let added = 0;
  for (const card of cards) {
    const key = keyOf(match, card);
    if (deck.cards[key]) continue;
    deck.cards[key] = { ...card, key, match };
    added += 1;
  }
  store(deck);
  return added;
}

/** The cards due now (of `match` alone, if given), the longest due first. */
export function dueCards(match = null) {
  const now = Date.now();
  return Object.values(stored().cards)
    .filter((card) => (match === null || card.match === match) && Date.parse(card.due) <= now)
    .sort((a, b) => Date.parse(a.due) - Date.parse(b.due));
}

/** Every card kept, each as the server reads it with its `match`: for the account's deck. */
export function allCards() {
  return Object.values(stored().cards).map((card) => ({ ...asSent(card), match: card.match }));
}

/** Forget the deck kept here (its cards have joined the account's). */
export function forget() {
  localStorage.removeItem(KEY);
}

/** The card as the server reads it: without the page's own fields. */
export function asSent(card) {
  const { key: _key, match: _match, ...sent } = card;
  return sent;
}

/** Keep the schedule the server made of an answer to `card`, and the answer's result. */
export function keepAnswer(card, judged) {
  const deck = stored();
  const kept = deck.cards[card.key];
  if (kept) Object.assign(kept, { schedule: judged.schedule, due: judged.due });
  deck.answers.push({ at: new Date().toISOString(), right: judged.right });
  deck.answers = deck.answers.slice(-MOST_ANSWERS);
  store(deck);
}

/** Keep the schedule the server made of an answer rated again (how it felt): no new answer. */
export function keepRating(card, judged) {
  const deck = stored();
  const kept = deck.cards[card.key];
  if (kept) Object.assign(kept, { schedule: judged.schedule, due: judged.due });
  store(deck);
}

/** How the deck stands, as the server says it of a signed-in player's. */
export function progress() {
  const { cards, answers } = stored();
  const all = Object.values(cards);
  const now = Date.now();
  const days = new Map();
  const since = now - 30 * 86_400_000;
  for (const answer of answers) {
    if (Date.parse(answer.at) < since) continue;
    const day = answer.at.slice(0, 10);
    const counts = days.get(day) || { day, answered: 0, right: 0 };
    counts.answered += 1;
    counts.right += answer.right ? 1 : 0;
    days.set(day, counts);
  }
  return {
    cards: all.length,
    due: all.filter((card) => Date.parse(card.due) <= now).length,
    learned: all.filter((card) => card.schedule && card.schedule.state === REVIEW).length,
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
  };
}
