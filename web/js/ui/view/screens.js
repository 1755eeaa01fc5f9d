// The game, replay and friend screens: app.js loads this module with import() on first use
// (and fetches it once the start screen is idle), so the start screen's page parses only
// the code it draws. The build splits it off into chunks of its own (build.py).

export { GameView } from "./game.js";
export { FriendView } from "./friend.js";
export { ReplayView } from "./replay.js";
export { Guesses } from "./guesses.js";
