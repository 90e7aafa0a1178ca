// The notice of a turn come in an online game: two short soft tones made by the Web Audio API
// (no sound file), played only where the player has asked for them (prefs.js). Each notice is
// also told to the page as the event "backgammon:turn-sound" on the document (a hook for tests,
// which hear no speakers).

let audio = null;

function context() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  audio ||= new Context();
  // Browsers start sound only after the person has used the page; asked again each time.
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Make the sound ready while the person is using the page (the switch turned on): the
 * browser lets it play from then on. */
export function primeSound() {
  try {
    context();
  } catch {
    // No sound on this browser: the notice is the tab's title.
  }
}

/** Play the notice: two tones, a fifth apart, a quarter of a second in all. */
export function playTurnSound() {
  document.dispatchEvent(new CustomEvent("backgammon:turn-sound"));
  try {
    const sound = context();
    if (!sound) return;
    const now = sound.currentTime;
    [587.33, 880].forEach((frequency, i) => {
      const tone = sound.createOscillator();
      const volume = sound.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      const start = now + i * 0.12;
      volume.gain.setValueAtTime(0.0001, start);
      volume.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + 0.13);
      tone.connect(volume).connect(sound.destination);
      tone.start(start);
      tone.stop(start + 0.14);
    });
  } catch {
    // No sound on this browser: the notice is the tab's title.
  }
}
