// Everything round the board: status, the seat, controls, hands, the move list, the clock, the card and dialogs.

import { image } from "./net.js";
import { pieceStyle } from "./pieces.js";
import { isMuted } from "./sound.js";
import {
  $, SIDE, mySide, otherSide, phone, playerName, seated, sideName, spectator, thinking, ui, watching,
} from "./store.js";

// --- the card: beside the board on a wide screen, under it on a phone (it never covers a square) -------------

export function showCard(shown) {
  ui.cardShown = shown;
  drawCaption();
  placeCard();
}

export function closeCard() {
  // the card goes; the piece stays picked up, its marks on the board
  ui.cardShown = null;
  placeCard();
}

function cardName() {
  const state = ui.state, shown = ui.cardShown;
  const onBoard = state.squares.find((q) => q.piece === shown.piece);
  const inHand = state.hands.white.concat(state.hands.black).find((card) => card.piece === shown.piece);
  return (onBoard && onBoard.piece_name) || (inHand && inHand.name) || shown.piece;
}

export function drawCaption() {
  // the caption follows the piece: it names the square the piece stands on now, or says it has left the board
  const shown = ui.cardShown;
  if (!shown || !ui.state) return;
  const face = $("card-face"), source = `/card/${shown.piece}.svg`;
  if (face.dataset.source !== source) loadFace(face, source, $("card-caption"));
  const name = cardName();
  const owner = shown.side ? `${sideName(shown.side)}'s ` : "";
  let where = shown.hand ? `, in ${sideName(shown.hand)}'s hand` : "";
  if (shown.square) where = ` on ${shown.square}`;
  if (shown.side && !shown.square && !shown.hand) where = " (no longer on the board)";
  $("card-caption").textContent = `${owner}${name}${where}`;
  face.alt = `the card of ${name}`;
}

function loadFace(face, source, caption) {
  // the card face, fetched with the key; a card the server cannot draw says why in its caption
  face.dataset.source = source;
  face.hidden = true;
  image(source).then((found) => {
    if (face.dataset.source !== source) return;
    if (found.url) {
      face.src = found.url;
      face.hidden = false;
    } else if (caption) {
      caption.textContent = `${caption.textContent}: ${found.error}`;
    }
  });
}

export function followCard() {
  // after a move the shown piece may stand elsewhere: from the last move's first square to its second (a
  // promotion shows the new piece's card), or, after an undo, on the one square where such a piece stands
  const shown = ui.cardShown, state = ui.state;
  if (!shown || !shown.square) return;
  const same = (q) => q.piece === shown.piece && q.side === shown.side;
  if (same(state.squares.find((q) => q.name === shown.square))) return;
  const [from, to] = state.last_squares;
  const there = to && state.squares.find((q) => q.name === to);
  let square = null, piece = shown.piece;
  if (from === shown.square && there && there.side === shown.side) {
    [square, piece] = [to, there.piece];
  } else {
    const alike = state.squares.filter(same);
    if (alike.length === 1) square = alike[0].name;
  }
  ui.cardShown = { ...shown, square, piece };
}

function putIn(node, slot) {
  if (node.parentElement !== slot) slot.append(node);
}

export function placeCard() {
  // upright phone: notices, controls and card under the board, in that order; sideways or wide: beside it, and on a
  // short screen the notices and the card at the top of the column beside the board, which scrolls by itself
  const upright = phone(), card = $("card");
  putIn(card, upright ? $("card-under") : $("card-slot"));
  putIn($("controls"), upright ? $("controls-under") : $("controls-side"));
  putIn($("notices"), SIDE.matches ? $("notices-side") : $("notices-under"));
  const header = document.querySelector("header").getBoundingClientRect();
  document.documentElement.style.setProperty("--header-px", `${Math.ceil(header.bottom)}px`);
  card.hidden = upright && !ui.cardShown;
  if (!ui.cardShown) {
    $("card-face").hidden = true;
    $("card-face").removeAttribute("data-source");
    $("card-caption").textContent = "Tap a piece or a card in a hand to see its card.";
  }
}

// --- status, seat and controls --------------------------------------------------------------------------------

export function drawStatus() {
  const state = ui.state;
  $("game-name").textContent = state.game_name;
  document.title = `${state.game_name}: Dealer's Chess`;
  const seat = $("seat");
  seat.hidden = !seated();
  seat.textContent = seatWords(state);
  seat.className = state.seat;
  document.body.classList.toggle("spectator", spectator());
  drawPlayers(state);
  const status = $("status"), side = sideName(state.turn);
  if (state.result) {
    status.textContent = `Game over: ${state.ending} (${state.result})`;
    status.className = "over";
  } else if (thinking()) {
    status.textContent = `${side} (the computer) is thinking…${state.check ? " (in check)" : ""}`;
    status.className = "thinking";
  } else {
    const yours = seated() && !watching() ? (state.turn === state.seat ? " (your move)" : " (waiting)") : "";
    status.textContent = `${side} to move${yours}${state.check ? ": check!" : ""}`;
    status.className = state.check ? "check" : "";
  }
  $("last-move").textContent = state.last_move ? `Last move: ${state.last_move}` : "No move yet.";
  const saved = $("saved");
  saved.textContent = state.save_error ? state.save_error : `Every move is saved to ${state.saved_to}`;
  saved.className = state.save_error ? "error" : "";
}

function seatWords(state) {
  if (spectator()) return "You are watching: this page follows the game";
  if (watching()) return `This page follows the game (the computer plays ${sideName(state.seat)})`;
  return `You play ${sideName(state.seat)}`;
}

function drawPlayers(state) {
  // the players' names, when given (--white-name, --black-name, or typed on a side's page)
  const named = state.names.white || state.names.black;
  $("players").hidden = !named;
  $("players").textContent = named ? `${playerName("white")} v ${playerName("black")}` : "";
  const form = $("name-form"), mine = seated() && !watching() ? state.names[state.seat] : null;
  form.hidden = !seated() || watching();
  if (!form.hidden && document.activeElement !== $("name-input")) $("name-input").value = mine || "";
}

export function drawControls() {
  const state = ui.state, playing = !state.result, seat = seated(), side = mySide(), idle = watching();
  const myTurn = !seat || state.turn === state.seat;
  const asks = seat && !state.computer; // a seat's undo asks the other side: never once the game is over
  $("undo").textContent = asks ? "Ask to take back" : "Undo";
  const ownMoves = asks ? state.moves.length - (state.turn === state.seat ? 1 : 0) : 1;
  $("undo").disabled = !state.can_undo || thinking() || idle || Boolean(state.takeback) || ownMoves < 1
    || (asks && !playing);
  $("redo").hidden = seat;
  $("redo").disabled = !state.can_redo || thinking();
  $("battle").hidden = !state.battle || !myTurn || idle;
  $("battle").setAttribute("aria-pressed", String(Boolean(ui.battleSteps)));
  $("battle-bar").hidden = !ui.battleSteps;
  $("battle-steps").textContent = ui.battleSteps && ui.battleSteps.length ? ui.battleSteps.join(" & ") : "none yet";
  $("pieces").textContent = pieceStyle() === "models" ? "Show letters" : "Show pictures";
  drawDrawButtons(state, playing, seat, side, idle);
  $("claim").hidden = !state.claimable || !myTurn || idle;
  $("claim").textContent = state.claimable ? `Claim draw (${state.claimable})` : "Claim draw";
  $("resign").disabled = !playing || idle;
  $("resign").textContent = seat ? "Resign" : `${sideName(side)} resigns`;
  $("sound").setAttribute("aria-pressed", String(!isMuted()));
  $("sound").textContent = isMuted() ? "Sound off" : "Sound on";
  drawTakeback(state, seat, side);
  drawRematch(state, seat, side, idle);
}

function drawRematch(state, seat, side, idle) {
  // once the game is over: a rematch with colours swapped, offered by one side's page and played when the other
  // accepts (the table's page plays it at once)
  const offer = state.rematch_offer;
  $("rematch").hidden = !state.result || idle || (seat && offer !== null);
  const answering = Boolean(state.result) && seat && !idle && offer !== null && offer !== side;
  $("rematch-bar").hidden = !answering;
  if (answering) $("rematch-text").textContent = `${playerName(offer)} offers a rematch with colours swapped.`;
}

function drawDrawButtons(state, playing, seat, side, idle) {
  // the offer stands for the other side to accept or decline (or to answer by moving): a bar under the board
  // with Accept (which asks first) and Decline, as for a takeback request
  const offer = state.draw_offer;
  const answering = Boolean(offer) && playing && (!seat || offer !== state.seat) && !idle;
  $("draw").textContent = seat ? "Offer a draw" : `${sideName(side)} offers a draw`;
  $("draw").hidden = Boolean(offer) || Boolean(state.computer); // the computer answers an offer by moving
  $("draw").disabled = !playing || idle;
  $("offer").hidden = !answering;
  if (answering) $("offer-text").textContent = `${sideName(offer)} offers a draw.`;
  const answerer = seat ? "" : `${sideName(otherSide(offer))} `; // the table's page says which side answers
  $("accept").textContent = seat ? "Accept draw…" : `${answerer}accepts the draw…`;
  $("decline").textContent = seat ? "Decline draw" : `${answerer}declines`;
}

function drawTakeback(state, seat, side) {
  // the other side's takeback request: a bar under the board with Accept and Decline; this side's own standing
  // request or offer: a line saying it waits for the answer
  const asking = state.takeback;
  const answering = Boolean(asking) && (!seat || asking !== state.seat) && !watching();
  $("request").hidden = !answering;
  if (answering) {
    $("request-text").textContent = `${sideName(asking)} asks to take back a move.`;
    $("takeback-accept").textContent = `Accept: ${sideName(otherSide(asking))} takes it back`;
  }
  const waiting = [];
  if (seat && asking === side) waiting.push("You asked to take back your move");
  if (seat && state.draw_offer === side) waiting.push("You offered a draw");
  if (seat && state.rematch_offer === side) waiting.push("You offered a rematch");
  $("asked").hidden = !waiting.length;
  $("asked").textContent = waiting.length ? `${waiting.join("; ")}: waiting for ${sideName(otherSide(side))}'s answer.`
    : "";
}

export function drawHands(showHandCard) {
  const state = ui.state, hands = $("hands");
  hands.replaceChildren();
  if (!state.hand_promotion && !state.hands.white.length && !state.hands.black.length) return;
  for (const side of ["white", "black"]) {
    const line = document.createElement("p");
    line.textContent = `${sideName(side)}'s hand: `;
    if (!state.hands[side].length) line.append("empty");
    for (const card of state.hands[side]) {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = card.shared ? "chip shared" : "chip";
      chip.textContent = card.code;
      chip.title = card.name + (card.shared ? " (shared extra)" : "");
      chip.addEventListener("click", () => showHandCard({ piece: card.piece, side: null, square: null, hand: side }));
      line.append(chip);
    }
    hands.append(line);
  }
  if (state.draw_stack !== null) {
    const stack = document.createElement("p");
    stack.textContent = `Draw stack: ${state.draw_stack} cards; discarded: ${state.discard.length}`;
    hands.append(stack);
  }
}

function firstPly() {
  // the number of plies before the first move of the list (a game from a FEN may start at move 30, or with Black)
  const state = ui.state;
  if (!state.moves.length) return 0;
  const [, number, dots] = state.last_move.match(/^(\d+)(\.+)/);
  return 2 * (Number(number) - 1) + (dots === "..." ? 1 : 0) - (state.moves.length - 1);
}

export function drawMoveList(lookAt) {
  // one row per move number, White's move then Black's; each move a button that shows the board after it
  const state = ui.state, list = $("move-list");
  list.replaceChildren();
  const first = firstPly();
  let row = null;
  state.moves.forEach((san, index) => {
    const ply = first + index;
    if (!row || ply % 2 === 0) {
      row = document.createElement("li");
      row.value = Math.floor(ply / 2) + 1;
      if (ply % 2 === 1) row.append("… ");
      list.append(row);
    }
    const move = document.createElement("button");
    move.type = "button";
    move.className = ui.lookBack === index + 1 ? "san shown" : "san";
    move.dataset.ply = String(index + 1);
    move.textContent = san;
    move.addEventListener("click", () => lookAt(index + 1));
    row.append(move, " ");
  });
}

export function drawMoveStrip() {
  // one line above the board with the last moves (a phone's move list is far below): the newest on the right
  const state = ui.state, strip = $("move-strip"), first = firstPly();
  strip.replaceChildren();
  const shown = Math.max(0, state.moves.length - STRIP_PLIES);
  state.moves.slice(shown).forEach((san, offset) => {
    const index = shown + offset, ply = first + index, number = Math.floor(ply / 2) + 1;
    const item = document.createElement("li");
    if (ply % 2 === 0) item.textContent = `${number}. ${san}`;
    else item.textContent = offset === 0 ? `${number}… ${san}` : san;
    if (index === state.moves.length - 1) item.className = "last";
    strip.append(item);
  });
  if (!state.moves.length) strip.append(Object.assign(document.createElement("li"), { textContent: "No move yet" }));
}

const STRIP_PLIES = 12;

export function drawClock() {
  const clock = ui.state.clock;
  $("clock").hidden = !clock;
  if (!clock) return;
  const passed = (performance.now() - ui.stateAt) / 1000;
  for (const side of ["white", "black"]) {
    const running = clock.running === side && !ui.state.result;
    const left = Math.max(0, clock[`${side}_s`] - (running ? passed : 0));
    const span = $(`clock-${side}`);
    span.textContent = `${sideName(side)} ${formatSeconds(left)}`;
    span.className = running ? "running" : "";
  }
}

function formatSeconds(seconds) {
  const whole = Math.floor(seconds);
  const minutes = Math.floor(whole / 60), rest = String(whole % 60).padStart(2, "0");
  return seconds < 10 ? `${minutes}:${rest}.${Math.floor((seconds - whole) * 10)}` : `${minutes}:${rest}`;
}

// --- dialogs --------------------------------------------------------------------------------------------------

export function drawChoice(answer) {
  // the referee's question (promotion piece, castling partner), for the side to move's page
  const dialog = $("choice"), choice = ui.state.pending;
  const mine = !seated() || ui.state.turn === ui.state.seat;
  if (!choice || !mine) {
    if (dialog.open) dialog.close();
    return;
  }
  $("choice-prompt").textContent = choice.prompt;
  const options = $("choice-options");
  options.replaceChildren();
  for (const option of choice.options) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.key = option.key;
    button.innerHTML = "<b></b> ";
    button.firstChild.textContent = option.key;
    button.append(option.text);
    button.addEventListener("click", () => { dialog.close(); answer(option.key); });
    for (const event of ["focus", "mouseenter"]) button.addEventListener(event, () => previewChoice(option));
    options.append(button);
  }
  const card = $("choice-card");
  if (!dialog.open) ["src", "data-source"].forEach((name) => card.removeAttribute(name)); // no card of the last one
  card.hidden = !choice.options.some((option) => option.piece);
  previewChoice(choice.options.find((option) => option.piece) || null);
  if (!dialog.open) dialog.showModal();
}

function previewChoice(option) {
  // a promotion's options show the card of the piece each makes, so a player can check what it does. The card's
  // box keeps its size (board.css) and the card shown stays until the next one has come, so no option ever moves
  // under a finger: a tap on a phone sends mouseenter just before its click
  const card = $("choice-card");
  if (!(option && option.piece)) return;
  card.alt = `the card of ${option.key}: ${option.text}`;
  const source = `/card/${option.piece}.svg`;
  if (card.dataset.source === source) return;
  card.dataset.source = source;
  image(source).then((found) => {
    if (card.dataset.source === source && found.url) card.src = found.url;
  });
}

export function confirmThen(text, action) {
  // a result the players decide cannot be taken back: ask first, with No in front (and focused)
  $("confirm-text").textContent = text;
  const dialog = $("confirm");
  dialog.onclose = () => { if (dialog.returnValue === "yes") action(); };
  dialog.returnValue = "";
  dialog.showModal();
  $("confirm-no").focus();
}
