// Optional table sounds, synthesised with WebAudio (no audio file is fetched from
// anywhere): your turn, a play, a bomb, a pass. Off by default; the choice is kept in
// localStorage ("cardavia.sound").
const KEY = "cardavia.sound";
let ctx = null;
let on = false;
try { on = localStorage.getItem(KEY) === "1"; } catch { /* ignore */ }

export function soundOn() {
  return on;
}

export function setSound(value) {
  on = !!value;
  try { localStorage.setItem(KEY, on ? "1" : "0"); } catch { /* ignore */ }
  if (on) audio(); // created inside the click that turned it on (autoplay rules)
}

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function tone(ac, { freq, to = freq, start = 0, dur = 0.12, type = "sine", gain = 0.12 }) {
  const t0 = ac.currentTime + start;
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(g).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

function noise(ac, { start = 0, dur = 0.08, gain = 0.15, freq = 1800 }) {
  const t0 = ac.currentTime + start;
  const buffer = ac.createBuffer(1, Math.ceil(ac.sampleRate * dur), ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  const g = ac.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(ac.destination);
  src.start(t0);
}

const SOUNDS = {
  turn: (ac) => { tone(ac, { freq: 660, dur: 0.14, gain: 0.08 }); tone(ac, { freq: 880, start: 0.12, dur: 0.18, gain: 0.08 }); },
  play: (ac) => noise(ac, { dur: 0.07, gain: 0.25, freq: 2400 }),
  pass: (ac) => tone(ac, { freq: 300, to: 220, dur: 0.12, type: "triangle", gain: 0.06 }),
  bomb: (ac) => {
    tone(ac, { freq: 140, to: 40, dur: 0.5, type: "sawtooth", gain: 0.18 });
    noise(ac, { dur: 0.35, gain: 0.3, freq: 400 });
    tone(ac, { freq: 990, to: 1480, start: 0.05, dur: 0.25, type: "square", gain: 0.04 });
  },
};

/** Play one of the table's sounds if sounds are on. */
export function sound(name) {
  if (!on) return;
  const ac = audio();
  if (!ac || !SOUNDS[name]) return;
  try { SOUNDS[name](ac); } catch { /* a sound is never worth an error */ }
}
