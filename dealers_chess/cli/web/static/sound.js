// Sounds for moves, captures, checks and the end of the game: short tones made with the Web Audio API (no files),
// and a mute switch the browser remembers (localStorage).

const MUTE_STORE = "dealer-sound";
// each sound: [frequency Hz, start s, length s, wave] notes
const SOUNDS = {
  move: [[520, 0, 0.07, "triangle"]],
  capture: [[330, 0, 0.06, "square"], [220, 0.05, 0.1, "triangle"]],
  check: [[880, 0, 0.09, "sine"], [1175, 0.1, 0.16, "sine"]],
  end: [[523, 0, 0.14, "sine"], [659, 0.14, 0.14, "sine"], [784, 0.28, 0.3, "sine"]],
  takeback: [[440, 0, 0.06, "triangle"], [330, 0.07, 0.08, "triangle"]],
};

let context = null;
let muted = localStorage.getItem(MUTE_STORE) === "off";

export function isMuted() {
  return muted;
}

export function setMuted(value) {
  muted = value;
  localStorage.setItem(MUTE_STORE, value ? "off" : "on");
}

export function wake() {
  // browsers start audio only after the player touches the page: called on the first tap or key
  if (!context && window.AudioContext) context = new AudioContext();
  if (context && context.state === "suspended") context.resume();
}

export function play(kind) {
  // the sound of `kind`; the page's body records the last one asked for (data-sound), heard or muted
  document.body.dataset.sound = kind;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  if (muted || !context || !SOUNDS[kind]) return;
  const now = context.currentTime;
  for (const [frequency, start, length, wave] of SOUNDS[kind]) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = wave;
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.25, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(now + start);
    oscillator.stop(now + start + length + 0.02);
  }
}

export function soundOf(before, after) {
  // which sound a new state makes: a move (capture, check), a move taken back, the end of the game, or none
  if (!before || after.version === before.version) return null;
  if (after.result && !before.result) return "end";
  if (after.moves.length < before.moves.length) return "takeback";
  if (after.moves.length === before.moves.length) return null;
  if (after.check) return "check";
  return after.moves[after.moves.length - 1].includes("x") ? "capture" : "move";
}
