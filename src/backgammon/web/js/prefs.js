// The viewer's display preferences, kept in this browser (localStorage): how this screen draws
// the board, which is no part of the game and so is never sent to the server.

const HOME_SIDE = "backgammon.homeSide";
const SIDES = ["right", "left"];

// What was chosen on this page, which holds even where the storage refuses to keep it.
let chosen = null;

/** Which side the viewer's home board is drawn on: "right" (the default) or "left". */
export function homeSide() {
  if (chosen) return chosen;
  try {
    const stored = localStorage.getItem(HOME_SIDE);
    return SIDES.includes(stored) ? stored : "right";
  } catch {
    return "right"; // storage refused (a private window, say)
  }
}

export function setHomeSide(side) {
  if (!SIDES.includes(side)) return;
  chosen = side;
  try {
    localStorage.setItem(HOME_SIDE, side);
  } catch {
    // Not kept beyond this page, but drawn as chosen while it stays open.
  }
}

// The language of the page: the viewer's choice in the menu, kept the same way; none kept, the
// browser's languages decide (i18n.js).

const LANGUAGE = "backgammon.language";
let chosenLanguage = null;

/** The language chosen on this browser, if it is one of `supported`; else null. */
export function language(supported) {
  if (chosenLanguage) return chosenLanguage;
  try {
    const stored = localStorage.getItem(LANGUAGE);
    return supported.includes(stored) ? stored : null;
  } catch {
    return null; // storage refused
  }
}

export function setLanguage(lang) {
  chosenLanguage = lang;
  try {
    localStorage.setItem(LANGUAGE, lang);
  } catch {
    // Not kept beyond this page.
  }
}

// The sound when the turn comes in an online game: off unless asked for.

const TURN_SOUND = "backgammon.turnSound";
let chosenSound = null;

/** Whether a sound says that the turn has come (online). */
export function turnSound() {
  if (chosenSound !== null) return chosenSound;
  try {
    return localStorage.getItem(TURN_SOUND) === "on";
  } catch {
    return false; // storage refused
  }
}

export function setTurnSound(on) {
  chosenSound = Boolean(on);
  try {
    localStorage.setItem(TURN_SOUND, chosenSound ? "on" : "off");
  } catch {
    // Not kept beyond this page.
  }
}

// Whether a player's board shows the spectators' chat (js/chat.js): shown unless hidden.

const SPECTATORS_CHAT = "backgammon.spectatorsChat";
let chosenSpectators = null;

/** Whether the spectators' messages are shown in the chat. */
export function spectatorsChat() {
  if (chosenSpectators !== null) return chosenSpectators;
  try {
    return localStorage.getItem(SPECTATORS_CHAT) !== "hidden";
  } catch {
    return true; // storage refused
  }
}

export function setSpectatorsChat(shown) {
  chosenSpectators = Boolean(shown);
  try {
    localStorage.setItem(SPECTATORS_CHAT, chosenSpectators ? "shown" : "hidden");
  } catch {
    // Not kept beyond this page.
  }
}

// The tutor (tutor.js): the least mistake it warns of, in games against the computer and at
// one screen; off unless asked for.

const TUTOR = "backgammon.tutor";
export const TUTOR_LEVELS = ["off", "doubtful", "bad", "very bad"];
let chosenTutor = null;

/** The tutor's threshold: "off", or the least mark it warns of ("doubtful", "bad", "very bad"). */
export function tutorLevel() {
  if (chosenTutor !== null) return chosenTutor;
  try {
    const stored = localStorage.getItem(TUTOR);
    return TUTOR_LEVELS.includes(stored) ? stored : "off";
  } catch {
    return "off"; // storage refused
  }
}

export function setTutorLevel(level) {
  if (!TUTOR_LEVELS.includes(level)) return;
  chosenTutor = level;
  try {
    localStorage.setItem(TUTOR, level);
  } catch {
    // Not kept beyond this page.
  }
}
