// The board page of `dealer serve`: draws the state the server sends (at once, through its event stream) and sends
// taps and drags back as moves. Every rule lives in the server; this script only draws, asks and forwards.

import { cursorSquare, drawBoard, drawnForThisSize, focusSquare, squareAt, squareIndexAt } from "./draw.js";
import { wirePointer } from "./drag.js";
import { call, download, follow } from "./net.js";
import { onPicturesArrived, togglePieceStyle } from "./pieces.js";
import {
  closeCard, confirmThen, drawCaption, drawChoice, drawClock, drawControls, drawHands, drawMoveList, drawMoveStrip,
  drawStatus, followCard, placeCard, showCard,
} from "./panel.js";
import { isMuted, play, setMuted, soundOf, wake } from "./sound.js";
import {
  $, mySide, onLayoutChange, otherSide, pieceOn, playerName, say, seated, sideName, targetsOf, thinking, ui, watching,
} from "./store.js";

// --- the state ---------------------------------------------------------------------------------------------

function setState(next) {
  // keep a state newer than the one shown, sound what changed; returns the computer's move when it is new here
  const before = ui.state;
  if (before && next.version < before.version) return "";
  ui.state = next;
  ui.stateAt = performance.now();
  if (before && before.round !== next.round) newGame(); // a rematch: this page may play the other side now
  if (!ui.oriented) [ui.flipped, ui.oriented] = [next.seat === "black", true]; // a Black seat sees Black's side
  const sound = soundOf(before, next);
  if (sound) play(sound);
  if (ui.lookBack !== null && ui.lookBack > next.moves.length) [ui.lookBack, ui.lookBoard] = [null, null];
  if (!next.battle) ui.battleSteps = null;
  followCard();
  const said = next.computer && !thinking() ? next.computer.said.join(" · ") : "";
  const fresh = said && said !== ui.lastSaid ? said : "";
  if (next.computer && !thinking()) ui.lastSaid = said;
  if (fresh) ui.saidAt = next.version;
  return fresh;
}

function newGame() {
  // a rematch began: the board turns to this page's (new) side, and nothing of the last game stays picked up
  [ui.selected, ui.lookBack, ui.lookBoard, ui.battleSteps, ui.cardShown] = [null, null, null, null, null];
  ui.flipped = ui.state.seat === "black";
}

function news(before, after) {
  // what the other player (or tab) just did, in words, for the page that did not do it: a move, a takeback, an
  // offer or request, and the answer to this page's own offer or request
  if (!before || after.version === before.version) return "";
  if (before.round !== after.round) return rematchNews(after);
  return [boardNews(before, after), answerNews(before, after)].filter(Boolean).join(" · ");
}

function rematchNews(after) {
  const you = seated() && !watching() ? ` You play ${sideName(after.seat)} now.` : "";
  return `Rematch, colours swapped: ${playerName("white")} v ${playerName("black")}.${you}`;
}

function boardNews(before, after) {
  // the move (a mate: the status line says who won), else what ended the game or what changed
  if (after.moves.length > before.moves.length && after.last_move) {
    const mover = otherSide(after.turn);
    return seated() && mover === after.seat ? "" : `${sideName(mover)} played ${after.last_move}`;
  }
  if (after.result && !before.result) return ""; // the status line says who won and how, once
  if (after.moves.length < before.moves.length) return `A move was taken back: ${sideName(after.turn)} to move`;
  // an offer or request to answer has its own bar under the board; a spectator's page is told in words
  if (after.takeback && !before.takeback && watching()) return `${sideName(after.takeback)} asks to take back a move`;
  if (after.draw_offer && !before.draw_offer && watching()) return `${sideName(after.draw_offer)} offers a draw`;
  return "";
}

function answerNews(before, after) {
  // a draw offer or takeback request that went away without ending the game or taking a move back: declined, or
  // lapsed when a move was made instead
  if (after.moves.length < before.moves.length) return "";
  if (after.result && !before.result) return "";
  const moved = after.moves.length > before.moves.length, told = [];
  const whose = (side) => (seated() && side === after.seat ? "your" : `${sideName(side)}'s`);
  const offer = before.draw_offer, asker = before.takeback;
  if (offer && !after.draw_offer) {
    told.push(moved ? `${whose(offer)} draw offer lapsed with the move`
      : `${sideName(otherSide(offer))} declines ${whose(offer)} draw offer`);
  }
  if (before.rematch_offer && !after.rematch_offer) {
    told.push(`${sideName(otherSide(before.rematch_offer))} declines ${whose(before.rematch_offer)} rematch offer`);
  }
  if (asker && !after.takeback) {
    told.push(moved ? `${whose(asker)} takeback request lapsed with the move`
      : `${sideName(otherSide(asker))} declines ${whose(asker)} takeback request`);
  }
  return told.map((text) => text[0].toUpperCase() + text.slice(1)).join(" · ");
}

function fromStream(next) {
  // the server's event stream: each change of the game, as soon as it happens
  if (ui.unreachable) {
    ui.unreachable = false;
    say("", false);
  }
  if (ui.state && next.version <= ui.state.version) return; // this page's own action already brought it
  const before = ui.state;
  const told = setState(next) || news(before, next);
  if (told) say(told, false);
  const held = ui.selected && pieceOn(ui.selected);
  if (!held || held.side !== mySide()) ui.selected = null; // a piece of this page's side stays picked up
  drawAll();
}

function lost(reason) {
  ui.unreachable = true;
  say(reason, true);
}

let sending = Promise.resolve(); // actions go one after another, each with the version the page shows by then

function send(path, body) {
  sending = sending.then(async () => {
    if (!ui.state) return;
    ui.busy = true;
    const sentAt = ui.state.version;
    try {
      accept(await call(path, { ...body, version: sentAt }), sentAt);
    } finally {
      ui.busy = false;
    }
  });
  return sending;
}

function accept(answer, sentAt) {
  // an action's answer; a change the event stream brought first has been drawn already, and the piece the
  // player picked up since then stays picked up. The computer's reply to the action is said with it, also when
  // the event stream brought (and said) the reply before this answer came.
  const news = Boolean(answer.state) && (!ui.state || answer.state.version > ui.state.version);
  const said = (answer.state ? setState(answer.state) : "") || (ui.saidAt > sentAt ? ui.lastSaid : "");
  if (answer.error) {
    say(answer.error, true);
  } else if (answer.events) {
    say(answer.events.map((event) => event.text).concat(said ? [said] : []).join(" · "), false);
  }
  if (news || answer.error) ui.selected = null;
  drawAll();
}

// --- the board ------------------------------------------------------------------------------------------------

function tapSquare(name) {
  if (!ui.state) return;
  if (ui.lookBack !== null) return backToGame(); // a tap on a board of the past brings the game back
  if (thinking()) return say("The computer is thinking: its move comes first.", false);
  if (ui.battleSteps) return tapBattle(name);
  if (ui.selected && targetsOf(ui.selected).some((t) => t.to === name)) return playFrom(ui.selected, name);
  const square = pieceOn(name);
  ui.selected = square && name !== ui.selected ? name : null;
  if (ui.selected) showCard({ piece: square.piece, side: square.side, square: name });
  say(ui.selected ? tapWords(square) : "", false);
  draw();
}

function playFrom(from, to) {
  ui.selected = null;
  send("/api/play", { move: from + to });
}

function tapWords(square) {
  // what a tapped piece that cannot move now needs explaining: whose turn it is, whose piece, or that it is stuck
  const state = ui.state;
  if (state.result || targetsOf(square.name).length) return "";
  const piece = `${sideName(square.side)}'s ${square.piece_name} on ${square.name}`;
  if (watching()) return `${piece}: this page follows the game.`;
  if (seated() && square.side !== state.seat) return `${piece} is the other player's.`;
  if (square.side !== state.turn) return `It is ${sideName(state.turn)}'s turn: ${piece} moves after that.`;
  if (state.computer && state.computer.side === square.side) return `${piece} is the computer's.`;
  return `${piece} has no legal move now.`;
}

function tapBattle(name) {
  const state = ui.state, steps = ui.battleFrom ? state.battle_steps[ui.battleFrom] || [] : [];
  if (ui.battleFrom !== null && steps.includes(name)) {
    ui.battleSteps = ui.battleSteps.filter((step) => !step.startsWith(ui.battleFrom)).concat([ui.battleFrom + name]);
    ui.battleFrom = null;
  } else if (ui.battleFrom === name) {
    ui.battleFrom = null;
  } else {
    ui.battleFrom = state.battle_steps[name] ? name : null;
    const stuck = !ui.battleFrom && Boolean(pieceOn(name));
    say(stuck ? `the piece on ${name} cannot make a battle step now` : "", stuck);
  }
  draw();
}

function keyOnBoard(event) {
  // arrows move between squares as they are drawn (a flipped board too), Enter or Space taps the square
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (!ui.state) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    tapSquare(cursorSquare());
    return;
  }
  if (!(event.key in steps)) return;
  event.preventDefault();
  const [dx, dy] = steps[event.key];
  const [column, row] = squareAt(ui.state.squares.findIndex((q) => q.name === cursorSquare()));
  const next = squareIndexAt(column + dx, row + dy);
  if (next < 0) return;
  ui.cursor = ui.state.squares[next].name;
  focusSquare(ui.cursor);
}

// --- looking back through the moves -------------------------------------------------------------------------

async function lookAt(ply) {
  // the board after `ply` moves of the list (0: before the first); the last move is the game as it stands
  if (!ui.state || ply >= ui.state.moves.length) return backToGame();
  const board = await call(`/api/board?ply=${Math.max(0, ply)}`);
  if (board.error) return say(board.error, true);
  [ui.lookBack, ui.lookBoard, ui.selected] = [Math.max(0, ply), board, null];
  drawAll();
}

function backToGame() {
  [ui.lookBack, ui.lookBoard] = [null, null];
  drawAll();
}

function drawLook() {
  const bar = $("look-back");
  bar.hidden = ui.lookBack === null;
  if (bar.hidden) return;
  const ply = ui.lookBack, buttons = document.querySelectorAll("#move-list .san");
  $("look-text").textContent = ply === 0 ? "The board before the first move"
    : `The board after ${buttons[ply - 1].textContent} (move ${ply} of ${ui.state.moves.length})`;
  $("look-prev").disabled = ply === 0;
}

// --- drawing it all ---------------------------------------------------------------------------------------------

function drawAll() {
  draw();
  placeCard();
}

function draw() {
  if (!ui.state) return;
  drawCaption();
  drawStatus();
  drawBoard();
  drawControls();
  drawHands(showCard);
  drawMoveList(lookAt);
  drawMoveStrip();
  drawClock();
  drawChoice((key) => send("/api/play", { move: key }));
  drawLook();
}

// --- wiring ----------------------------------------------------------------------------------------------------

function command(name) {
  return () => send("/api/command", { command: name });
}

function wireButtons() {
  $("undo").addEventListener("click", command("undo"));
  $("redo").addEventListener("click", command("redo"));
  $("draw").addEventListener("click", command("draw"));
  $("accept").addEventListener("click", () => {
    const offer = ui.state.draw_offer;
    confirmThen(`${sideName(otherSide(offer))} accepts ${sideName(offer)}'s draw offer: the game ends 1/2-1/2. `
      + "Accept?", command("accept"));
  });
  $("decline").addEventListener("click", command("decline"));
  $("claim").addEventListener("click", () => confirmThen(
    `${sideName(ui.state.turn)} claims a draw (${ui.state.claimable}): the game ends 1/2-1/2. Claim?`, command("claim")));
  $("resign").addEventListener("click", () => confirmThen(`${sideName(mySide())} resigns and loses the game. Resign?`,
    command("resign")));
  $("takeback-accept").addEventListener("click", command("accept undo"));
  $("rematch").addEventListener("click", command("rematch"));
  $("rematch-accept").addEventListener("click", command("rematch"));
  $("rematch-decline").addEventListener("click", command("decline rematch"));
  $("takeback-decline").addEventListener("click", command("decline undo"));
  $("flip").addEventListener("click", () => { ui.flipped = !ui.flipped; drawAll(); });
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("name-input").blur();
    send("/api/name", { name: $("name-input").value });
  });
  $("pieces").addEventListener("click", () => { togglePieceStyle(); draw(); });
  $("sound").addEventListener("click", () => { setMuted(!isMuted()); drawControls(); });
  $("pgn").addEventListener("click", async () => { const error = await download("/api/pgn"); if (error) say(error, true); });
  $("look-prev").addEventListener("click", () => lookAt(ui.lookBack - 1));
  $("look-next").addEventListener("click", () => lookAt(ui.lookBack + 1));
  $("look-live").addEventListener("click", backToGame);
  $("card-close").addEventListener("click", (event) => { event.stopPropagation(); closeCard(); });
  wireBattle();
  $("choice-cancel").addEventListener("click", () => { $("choice").close(); send("/api/cancel", {}); });
  $("choice").addEventListener("cancel", (event) => { event.preventDefault(); send("/api/cancel", {}); });
}

function wireBattle() {
  $("battle").addEventListener("click", () => {
    [ui.battleSteps, ui.battleFrom, ui.selected] = [ui.battleSteps ? null : [], null, null];
    draw();
  });
  $("battle-cancel").addEventListener("click", () => { [ui.battleSteps, ui.battleFrom] = [null, null]; draw(); });
  $("battle-play").addEventListener("click", () => {
    if (!ui.battleSteps || ui.battleSteps.length < 2) return say("a battle move needs at least two steps", true);
    const move = ui.battleSteps.join("&");
    ui.battleSteps = null;
    send("/api/play", { move });
  });
}

function wireBoard() {
  $("board").addEventListener("keydown", keyOnBoard);
  wirePointer(
    (name) => {
      ui.cursor = name;
      tapSquare(name);
    },
    (name) => ui.state && ui.lookBack === null && !ui.busy && !thinking() && !ui.battleSteps
      && targetsOf(name).length > 0,
    (name) => {
      ui.selected = name;
      showCard({ piece: pieceOn(name).piece, side: pieceOn(name).side, square: name });
      say("", false);
      draw();
    },
    (from, to) => (to && targetsOf(from).some((t) => t.to === to) ? playFrom(from, to) : draw()));
}

async function start() {
  wireBoard();
  wireButtons();
  onPicturesArrived(drawBoard);
  for (const event of ["pointerdown", "keydown"]) document.addEventListener(event, wake, { capture: true });
  onLayoutChange(placeCard);
  window.addEventListener("resize", () => {
    if (ui.state) placeCard();
    if (ui.state && !drawnForThisSize()) drawBoard();
  });
  setInterval(() => { if (ui.state && ui.state.clock) drawClock(); }, 200);
  const first = await call("/api/state"); // a resumed game's clock runs again when a page first loads
  if (first.error) lost(first.error);
  else say(setState(first), false); // the computer's move, when it moved before the page asked
  drawAll();
  follow(fromStream, lost);
}

start();
