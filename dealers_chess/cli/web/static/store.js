// What the page's modules share: the last state the server sent and what the player is doing on the page.
// Every rule lives in the server; the page only draws, asks and forwards.

export const ui = {
  state: null,        // the last state the server sent (GET /api/state, the event stream, an action's answer)
  selected: null,     // the square of the piece whose moves are marked
  flipped: false,     // the board seen from Black's side (a Black seat starts so)
  oriented: false,    // the board was turned to the seat's side once; the player's flip wins after that
  battleSteps: null,  // the battle move being put together: ["d3d4", ...], or null
  battleFrom: null,
  stateAt: 0,         // performance.now() when the state arrived (for the running clock)
  busy: false,        // an action is on its way to the server
  cardShown: null,    // the card on show: { piece, side, square, hand }
  lookBack: null,     // looking at the board after this many moves (null: the game as it stands)
  lookBoard: null,    // that board, as /api/board sends it
  labelStrip: 0,      // SVG units of the strip left of and under the board for the coordinates (0: inside)
  cursor: null,       // the square the keyboard stands on
  lastSaid: null,     // the computer's last move as last shown, so each one is shown once
  saidAt: -1,         // the version of the state that brought it
  unreachable: false, // the event stream is down: the page says so until it is back
};

export const $ = (id) => document.getElementById(id);

const NARROW = window.matchMedia("(max-width: 820px)");
export const SIDE = window.matchMedia("(orientation: landscape) and (max-height: 560px)"); // a phone turned sideways

export function phone() {
  // a phone held upright (or a narrow window): the card, the controls and the notices go under the board. A phone
  // turned sideways keeps them beside the board, where they stay in view
  return NARROW.matches && !SIDE.matches;
}

export function onLayoutChange(handler) {
  for (const query of [NARROW, SIDE]) query.addEventListener("change", handler);
}

export function sideName(side) {
  return side === "white" ? "White" : "Black";
}

export function otherSide(side) {
  return side === "white" ? "black" : "white";
}

export function mySide() {
  // the side this page plays: its seat's, else the side to move (or the one the computer does not play); a
  // spectator's page plays none (null)
  const state = ui.state;
  if (state.seat === "watch") return null;
  if (state.seat !== "both") return state.seat;
  if (!state.computer) return state.turn;
  return otherSide(state.computer.side);
}

export function seated() {
  // a page tied to one side (the White or Black link), not the table's own page
  return Boolean(ui.state) && ui.state.seat !== "both";
}

export function watching() {
  // a spectator's page (the Watch: address), or the computer plays this seat's side: the page follows the game
  // and acts for nobody
  const state = ui.state;
  return spectator() || (seated() && Boolean(state.computer) && state.computer.side === state.seat);
}

export function spectator() {
  return Boolean(ui.state) && ui.state.seat === "watch";
}

export function playerName(side) {
  // 'White' or, with a name given, 'Ann (White)'
  const name = ui.state && ui.state.names[side];
  return name ? `${name} (${sideName(side)})` : sideName(side);
}

export function thinking() {
  return Boolean(ui.state && ui.state.computer && ui.state.computer.thinking);
}

export function say(text, isError) {
  const message = $("message");
  message.textContent = text;
  message.className = isError ? "error" : "";
}

export function pieceOn(name) {
  return ui.state.squares.find((q) => q.name === name && q.piece);
}

export function targetsOf(name) {
  // the moves of the piece on `name` that this page may play and marks: on a side's page only its own pieces'
  const square = pieceOn(name);
  if (!square || (seated() && square.side !== ui.state.seat) || watching()) return [];
  return ui.state.targets[name] || [];
}
