// Short sounds made with the Web Audio API (no audio files): a move, a combat (brighter
// when you win it, darker when you lose it), a flip, the end of a game. Off when muted
// (remembered in the settings) and while the tab is hidden. Browsers start audio only
// after a user gesture, so the AudioContext is made at the first tap or key press.
//
// `log` keeps the names of the last sounds played (tests and the curious).

const NOTE = (n) => 440 * 2 ** ((n - 69) / 12); // MIDI note number -> Hz

export class Sound {
  constructor(settings) {
    this.settings = settings;
    this.ctx = null;
    this.log = [];
    this.noise = null;
    const unlock = () => this.unlock();
    document.addEventListener("pointerdown", unlock, { capture: true, passive: true });
    document.addEventListener("keydown", unlock, { capture: true, passive: true });
    document.addEventListener("visibilitychange", () => {
      if (!this.ctx) return;
      if (document.hidden) this.ctx.suspend().catch(() => {});
      else if (this.settings.sound) this.ctx.resume().catch(() => {});
    });
    settings.subscribe((name) => {
      if (name === "sound" && this.ctx) {
        (settings.sound ? this.ctx.resume() : this.ctx.suspend()).catch(() => {});
      }
    });
  }

  get enabled() {
    return this.settings.sound && !document.hidden;
  }

  /** Make (or wake) the audio context: only a user gesture may. */
  unlock() {
    if (!this.settings.sound) return;
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context) return;
    if (!this.ctx) {
      try {
        this.ctx = new Context({ latencyHint: "interactive" });
      } catch {
        return;
      }
      this.master = this.ctx.createGain();
      this.master.gain.value = 0.55;
      this.master.connect(this.ctx.destination);
    }
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
  }

  /** name: "move" | "combat" | "flip"; outcome (combat): "win" | "lose" | "both" | null */
  play(name, outcome = null) {
    if (!this.enabled) return;
    this.log.push(outcome ? `${name}:${outcome}` : name);
    if (this.log.length > 50) this.log.shift();
    if (!this.ctx) return; // no gesture yet: nothing may sound
    const at = this.ctx.currentTime + 0.01;
    if (name === "move") this.knock(at, 0.22);
    else if (name === "flip") this.flip(at);
    else if (name === "combat") this.combat(at, outcome);
  }

  /** The game ended: result {winner, reason}; you: the seat at this screen (null: two players). */
  end(result, you) {
    if (!result) return;
    let name = "win";
    if (result.winner === null) name = "draw";
    else if (you !== null && you !== undefined && result.winner !== you) name = "lose";
    if (!this.enabled) return;
    this.log.push(name);
    if (!this.ctx) return;
    const at = this.ctx.currentTime + 0.05;
    const tunes = {
      win: [[72, 0], [76, 0.11], [79, 0.22], [84, 0.33]],
      lose: [[69, 0], [65, 0.18], [62, 0.36], [57, 0.6]],
      draw: [[67, 0], [67, 0.2]],
    };
    for (const [note, delay] of tunes[name]) {
      this.tone(at + delay, NOTE(note), name === "lose" ? 0.34 : 0.26, "triangle", 0.22);
    }
  }

  // --- instruments ----------------------------------------------------------------------

  whiteNoise() {
    if (!this.noise) {
      const length = Math.floor(this.ctx.sampleRate * 0.5);
      this.noise = this.ctx.createBuffer(1, length, this.ctx.sampleRate);
      const data = this.noise.getChannelData(0);
      for (let i = 0; i < length; i++) data[i] = Math.random() * 2 - 1;
    }
    const source = this.ctx.createBufferSource();
    source.buffer = this.noise;
    return source;
  }

  envelope(at, peak, decay) {
    const gain = this.ctx.createGain();
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(peak, at + 0.005);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + decay);
    gain.connect(this.master);
    return gain;
  }

  tone(at, freq, decay, type = "sine", peak = 0.3, endFreq = null) {
    const osc = this.ctx.createOscillator();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, at);
    if (endFreq) osc.frequency.exponentialRampToValueAtTime(endFreq, at + decay);
    osc.connect(this.envelope(at, peak, decay));
    osc.start(at);
    osc.stop(at + decay + 0.05);
  }

  /** A wooden piece set down. */
  knock(at, peak) {
    const noise = this.whiteNoise();
    const band = this.ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = 1900;
    band.Q.value = 2.5;
    noise.connect(band).connect(this.envelope(at, peak, 0.07));
    noise.start(at);
    noise.stop(at + 0.1);
    this.tone(at, 220, 0.09, "sine", peak * 0.9, 130);
  }

  flip(at) {
    this.tone(at, 380, 0.13, "sine", 0.18, 1250);
    this.knock(at + 0.09, 0.16);
  }

  /** A clash: a thump, a burst of noise, and a ring that is bright for a win, low for a loss. */
  combat(at, outcome) {
    this.tone(at, 110, 0.32, "sine", 0.5, 42);
    const noise = this.whiteNoise();
    const low = this.ctx.createBiquadFilter();
    low.type = "lowpass";
    low.frequency.setValueAtTime(3200, at);
    low.frequency.exponentialRampToValueAtTime(300, at + 0.3);
    noise.connect(low).connect(this.envelope(at, 0.45, 0.3));
    noise.start(at);
    noise.stop(at + 0.35);
    const ring = { win: [76, 83], lose: [52, 55], both: [64, 64] }[outcome] || [64, 71];
    this.tone(at + 0.04, NOTE(ring[0]), 0.35, "triangle", 0.16);
    this.tone(at + 0.1, NOTE(ring[1]), 0.3, "triangle", 0.12);
  }
}
