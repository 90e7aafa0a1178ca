// The engine's figures as the page's language writes them: equities to three places with
// their sign, what a choice lost to three places, chances in percent to one place, and a
// position's chances of winning and losing in a sentence. The hints (hint.js), the tutor
// (tutor.js), the analysis (analysis.js), the trainer (trainer.js) and the editor's study
// (editor_study.js) write them alike.

import { language, t } from "./i18n.js";

/** An equity to three places with its sign; zero has none unless `always` ("+0.000"). */
export function signed(value, { always = false } = {}) {
  return new Intl.NumberFormat(language(), {
    minimumFractionDigits: 3, maximumFractionDigits: 3, signDisplay: always ? "always" : "exceptZero",
  }).format(value);
}

/** What a choice lost (equity, or for the other games points) to three places, unsigned. */
export function lost(value) {
  return new Intl.NumberFormat(language(), {
    minimumFractionDigits: 3, maximumFractionDigits: 3,
  }).format(value);
}

/** A chance (0 to 1) in percent, to one place. */
export function percent(value) {
  return new Intl.NumberFormat(language(), {
    style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1,
  }).format(value);
}

/** The chances in short (`key` "hint.chances") or in words ("hint.chancesLabel"). */
export function chancesText(chances, key = "hint.chances") {
  return t(key, {
    win: percent(chances.win),
    winGammon: percent(chances.win_gammon),
    winBackgammon: percent(chances.win_backgammon),
    lose: percent(1 - chances.win),
    loseGammon: percent(chances.lose_gammon),
    loseBackgammon: percent(chances.lose_backgammon),
  });
}
