// Short sound effects, made with the Web Audio API (no audio files): one at
// the end of each turn, another at the end of each round. The volume is the
// player's preference (GET /api/auth/me/, 0-100; 0 is silent).
//
//   App.sound.turn(), App.sound.round()   play at the player's volume
//   App.sound.test(volume)                play the round sound at a volume not saved yet
//   App.sound.setVolume(volume)           after the settings page saved a new one
//   App.sound.played                      what was asked for: [{kind, volume, audible}]
"use strict";

App.sound = (() => {
  const DEFAULT_VOLUME = 50;
  let volume = DEFAULT_VOLUME;
  let context = null;
  const played = [];

  // Notes as [frequency in Hz, start and length in seconds]. Both stay well under a second.
  const SOUNDS = {
    // A soft two-note "tock": a turn passed.
    turn: { wave: "triangle", notes: [[660, 0, 0.09], [880, 0.07, 0.14]] },
    // A rising arpeggio: a round was scored.
    round: { wave: "sine", notes: [[523.25, 0, 0.16], [659.25, 0.12, 0.16], [783.99, 0.24, 0.16], [1046.5, 0.36, 0.34]] },
  };

  function audio() {
    if (!context) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return null;
      try { context = new Context(); } catch (error) { return null; }
    }
    // Browsers start a context suspended until the page has had a click or a key.
    if (context.state === "suspended") context.resume().catch(() => {});
    return context;
  }

  // The first click or key on a page unlocks audio for the sounds that follow.
  function unlock() {
    audio();
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
  }
  window.addEventListener("pointerdown", unlock, true);
  window.addEventListener("keydown", unlock, true);

  function play(kind, atVolume) {
    const level = Math.max(0, Math.min(100, Number(atVolume)));
    const entry = { kind, volume: level, audible: false };
    played.push(entry);
    if (played.length > 200) played.shift();
    if (!level) return entry;
    const ac = context && context.state === "running" ? context : audio();
    if (!ac || ac.state !== "running") return entry;
    const sound = SOUNDS[kind];
    const master = ac.createGain();
    // Loudness is heard roughly logarithmically: square the slider for an even feel.
    master.gain.value = 0.4 * (level / 100) ** 2;
    master.connect(ac.destination);
    const start = ac.currentTime + 0.01;
    let end = start;
    for (const [frequency, at, length] of sound.notes) {
      const oscillator = ac.createOscillator();
      const envelope = ac.createGain();
      oscillator.type = sound.wave;
      oscillator.frequency.value = frequency;
      // A quick attack and an exponential fade: no clicks at the edges.
      envelope.gain.setValueAtTime(0.0001, start + at);
      envelope.gain.exponentialRampToValueAtTime(1, start + at + 0.012);
      envelope.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      oscillator.connect(envelope).connect(master);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.02);
      end = Math.max(end, start + at + length + 0.02);
    }
    setTimeout(() => master.disconnect(), (end - ac.currentTime) * 1000 + 100);
    entry.audible = true;
    return entry;
  }

  function setVolume(value) {
    const number = Number(value);
    if (Number.isFinite(number)) volume = Math.max(0, Math.min(100, Math.round(number)));
  }

  // Only a signed-in player has preferences to read.
  const ready = document.body.dataset.username
    ? App.api("GET", "/api/auth/me/").then((me) => {
      const preferences = (me && me.preferences) || {};
      if (typeof preferences.volume === "number") setVolume(preferences.volume);
    }).catch(() => {})
    : Promise.resolve();

  return {
    turn: () => play("turn", volume),
    round: () => play("round", volume),
    test: (atVolume) => play("round", atVolume === undefined ? volume : atVolume),
    setVolume,
    get volume() { return volume; },
    ready,
    played,
    DEFAULT_VOLUME,
  };
})();
