// Each seat's clock, in a match with a time control (the state's `clock`): shown in the
// players' panels on both boards and a spectator's, ticking down from the figures the server
// made the state with. The page counts from the server's time then (`clock.now`), set
// against its own clock when the state came, so a page whose clock is wrong still counts
// right. The server alone decides: when a running clock reaches zero the page reads the
// state again, and that read makes the server record the time-out on its own time.
//
// The clocks are timers (role="timer"), not live regions: a screen reader is not told every
// second, only once that this browser's player's time is low.

import { say } from "./announce.js";
import { formatNumber, t } from "./i18n.js";
import { seatsHeld } from "./seats.js";

const TICK = 250; // milliseconds between two redraws
const LOW = 10; // seconds of bank left from which the player's time is low
const RETRY = 2000; // milliseconds between two reads while the server's clock has not run out

const clocks = {
  state: null,
  skew: 0, // the server's time less this page's, when the state came
  made: null, // the server's time the state shown was made at (`clock.now`)
  timer: null,
  refresh: null, // read the state again (from app.js, through online.js)
  asked: 0, // when the state was last read again for a clock run out
  low: new Set(), // the seats of matches whose low time has been said
};

/** Show `state`'s clocks, and keep them ticking; `refresh()` reads the state again. */
export function renderClocks(state, refresh) {
  clocks.refresh = refresh;
  clocks.state = state.clock ? state : null;
  // Set once a state, as it comes: the page draws the same state again at other times.
  if (state.clock && state.clock.now !== clocks.made) {
    clocks.made = state.clock.now;
    clocks.skew = Date.parse(state.clock.now) - Date.now();
  }
  clearInterval(clocks.timer);
  clocks.timer = null;
  draw();
  if (state.clock && state.clock.running.length && !state.match_over) {
    clocks.timer = setInterval(draw, TICK);
  }
}

/** Each seat's time left now: its bank and, for a seat whose clock runs, its delay. */
function timesNow(state) {
  const { clock } = state;
  const elapsed = Math.max(0, (Date.now() + clocks.skew - Date.parse(clock.now)) / 1000);
  const delay = Math.max(0, clock.delay_left - elapsed);
  const spent = Math.max(0, elapsed - clock.delay_left);
  return [0, 1].map((seat) => {
    const running = clock.running.includes(seat) && !state.match_over;
    return {
      running,
      delay: running ? delay : 0,
      bank: running ? Math.max(0, clock.banks[seat] - spent) : clock.banks[seat],
    };
  });
}

/** Seconds as minutes and seconds ("1:05"), in the page's digits. */
function minutes(seconds) {
  const whole = Math.ceil(seconds);
  const rest = whole % 60;
  return `${formatNumber(Math.floor(whole / 60))}:${rest < 10 ? formatNumber(0) : ""}${formatNumber(rest)}`;
}

function draw() {
  const { state } = clocks;
  for (const panel of document.querySelectorAll(".player")) {
    const shown = panel.querySelector(".clock");
    shown.hidden = !state;
    if (!state) continue;
    const seat = Number(panel.dataset.seat);
    const time = timesNow(state)[seat];
    shown.classList.toggle("is-running", time.running);
    shown.classList.toggle("is-low", time.running && time.delay === 0 && time.bank <= LOW);
    const delay = shown.querySelector(".clock-delay");
    delay.hidden = !(time.running && time.delay > 0);
    delay.textContent = `+${formatNumber(Math.ceil(time.delay))}`;
    shown.querySelector(".clock-bank").textContent = minutes(time.bank);
    shown.dataset.bank = String(Math.ceil(time.bank));
    if (time.running && time.delay === 0) sayLow(state, seat, time.bank);
    if (time.running && time.delay === 0 && time.bank === 0 && state.clock.running.length === 1) askAgain();
  }
}

/** Say once that this browser's player's time is low (again only after it was not). */
function sayLow(state, seat, bank) {
  const key = `${state.id}:${seat}`;
  if (bank > LOW) {
    clocks.low.delete(key);
    return;
  }
  if (clocks.low.has(key) || !seatsHeld(state.id).includes(seat)) return;
  clocks.low.add(key);
  say(t("clock.low", { seconds: formatNumber(Math.ceil(bank)) }));
}

/** Read the state again, at most every RETRY milliseconds: the server records the time-out
 * when its own clock says the time has run out. */
function askAgain() {
  if (Date.now() - clocks.asked < RETRY || !clocks.refresh) return;
  clocks.asked = Date.now();
  clocks.refresh();
}
