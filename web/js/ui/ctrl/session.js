// A game's session: who plays with the person at this screen, who may act, and where the
// actions go. GameController (game.js) holds one and asks it; it never asks which kind it
// is. Three kinds, each in its own file:
//
//   CpuSession (cpu.js)          against the CPU: the engine plays the other seats
//   LocalSession (hotseat.js)    two players on one device: the curtain between turns, a clock
//   FriendSession (friend.js)    a friend on another device: the fair-play peer in the engine,
//                                the link exchange and the data channel (friendlink.js)
//
// CpuSession and LocalSession share EngineSession (enginesession.js): a game the engine
// keeps by its id, saved after every change. docs/architecture.md says how a session plugs
// into the controller.
//
//   const game = newGame({engine, desc, options: {variant, mode: "cpu", level, human}, store});
//   await game.start();

import { GameController } from "./game.js";
import { CpuSession } from "./cpu.js";
import { LocalSession } from "./hotseat.js";
import { FriendSession } from "./friend.js";
import { TableSession } from "./table.js";

/**
 * What the engine answers (docs/api.md): `{ok: true, ...}` or `{ok: false, error}`. A reply to
 * an action carries the new `view` and its `events`; a session that has already shown them
 * (the friend session shows everything the peer says as it comes) leaves `view` out.
 * @typedef {{ok: boolean, view?: any, events?: any[], error?: {code: string, message: string,
 *   square?: string}, [field: string]: any}} Reply
 */

/**
 * The session interface: what GameController asks, and nothing about which kind it is.
 * @typedef {object} Session
 * @property {"cpu"|"hotseat"|"friend"} mode  its name for the statistics and the page's styles
 * @property {boolean} shared  players share this screen (the hot seat): nobody is "you"
 * @property {number|null} you  the seat of the person at this screen (null when shared or not yet known)
 * @property {string} rivalKey  the words key naming the other side ("side.cpu", "side.friend", "side.other")
 * @property {string} opponent  the statistics' name of the other side ("cpu:easy", "hotseat", "friend")
 * @property {boolean} engineGame  the engine holds the whole game (by `gameId`): the worker
 *   saves it after every change, the marks and notes go with it (a friend game lives in its peer)
 * @property {string|number|null} gameId  the engine's game id once the game is there
 * @property {(game: GameController) => void} attach  the controller it serves (called once)
 * @property {() => Promise<void>} open  start or resume the game; the engine is up
 * @property {(request: object) => Promise<Reply>} submit  where this screen's actions go
 * @property {(action: string) => void} acting  an action is about to go (the hot seat stops its clock for a move)
 * @property {() => Promise<void>} next  the view changed by this screen's action: what comes next
 * @property {(seat: number) => Promise<void>} deployed  `seat` confirmed its layout
 * @property {(seat: number) => number[]} layoutSeats  whose kept layouts "Previous layout" may load
 * @property {boolean} keepsLayouts  a confirmed layout is kept on this device (not where
 *   another player could load it)
 * @property {() => string} title  the game's title: variant and mode
 * @property {() => string|null} statusText  the status line where this kind says its own (null: the shared words)
 * @property {(base: Record<string, {shown: boolean, enabled: boolean}>) => Record<string, {shown: boolean, enabled: boolean}>} controls
 *   the buttons, with this kind's own
 * @property {() => boolean} canResign
 * @property {() => boolean} inProgress  leaving now would abandon a game
 * @property {(rematch?: boolean) => object} nextOptions  the options of the next game ("New game", a rematch)
 * @property {() => Promise<object|null>} rematch  the options of a new game to start, or null
 *   when the rematch is played in this game (a friend's: both ask)
 * @property {() => Promise<object|null>} replaySource  what the replay op needs for the finished game
 * @property {() => void} dispose
 * @property {import("./friendlink.js").FriendLink} [connection]  a game with a connection to
 *   another page (a friend's): its links and channel, which the page draws
 * @property {() => Promise<void>} [openCurtain]  sessions that hand the screen over (ui "curtain")
 * @property {() => Promise<void>} [changeTurn]  sessions that hand the screen over (ui "moved")
 * @property {(seat: number) => string} [seatName]  a seat's own name (games of more than two seats)
 * @property {() => string} [sidesText]  the seats in words, where the session says them
 * @property {() => number} [lookers]  how many people share the screen (more than two: the curtain's words)
 */

/**
 * A GameController with the session its options ask for (`options.mode`).
 * @param {any} deps  GameController's ({engine, desc, options, store, effects, settings,
 *   timers, random}) and the sessions' (cpuMinMs; clockSeconds, setupSeconds; variants,
 *   saves, net, stun, pageURL, wall)
 * @returns {GameController}
 */
export function newGame(deps) {
  const options = deps.options;
  const session = sessionFor(options, deps);
  const desc = deps.desc ?? deps.variants?.[options.variant] ?? null;
  return new GameController({ ...deps, desc, session });
}

/**
 * @param {any} options  {variant, mode, preset, rules, ...} as the start screen gives them
 * @param {any} deps
 * @returns {Session}
 */
export function sessionFor(options, deps = {}) {
  const seconds = { moveSeconds: deps.clockSeconds, setupSeconds: deps.setupSeconds };
  if (options.mode === "friend") {
    return new FriendSession({ ...seconds, options, variants: deps.variants, saves: deps.saves,
      net: deps.net, stun: deps.stun, pageURL: deps.pageURL, wall: deps.wall });
  }
  if (options.people && options.cpus) { // each seat chosen on its own (Siguo's four)
    return new TableSession({ ...seconds, people: options.people, cpus: options.cpus,
      clock: Boolean(options.clock), restored: options.restored, paceMs: deps.cpuPaceMs });
  }
  if (options.mode === "cpu") {
    return new CpuSession({ level: options.level, human: options.human ?? 0,
      restored: options.restored, minMs: deps.cpuMinMs });
  }
  return new LocalSession({ ...seconds, clock: Boolean(options.clock), restored: options.restored });
}
