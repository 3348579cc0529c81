// Taps and drags on the board, with a mouse, a pen or a finger. A press on a piece that can move and travels
// DRAG_PX drags it, and letting go on a marked square plays there; any other press lifted on the square it began
// on is a tap, handled when the pointer lifts (a phone's browser does not always follow a touch with a click, and
// a finger wanders a little). The click a browser may send after that is not a second tap; a click that no press
// came before (assistive technology) is a tap.

import { S, squareAt, squareIndexAt } from "./draw.js";
import { $, ui } from "./store.js";

const DRAG_PX = 6;
const CLICK_AFTER_TAP_MS = 800; // the click a browser may send after a tap already handled
let press = null;   // { id, from, x, y, movable }: a pointer pressed on a square
let ghost = null;   // the piece following the pointer while it is dragged
let tappedAt = -Infinity;

export function wirePointer(tap, canDrag, pickUp, drop) {
  // tap(square); canDrag(square): may the piece there be dragged; pickUp(square): mark its moves;
  // drop(from, to): play there or put it back
  const board = $("board");
  board.addEventListener("pointerdown", (event) => {
    const square = event.target.closest("[data-square]");
    if (!event.isPrimary || event.button !== 0 || !square) return;
    const from = square.dataset.square;
    press = { id: event.pointerId, from, x: event.clientX, y: event.clientY, movable: canDrag(from) };
  });
  board.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id || !press.movable) return;
    if (!ghost && Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_PX) return;
    if (!ghost) start(board, pickUp);
    event.preventDefault();
    follow(board, event);
  });
  board.addEventListener("pointerup", (event) => lift(board, event, tap, drop));
  board.addEventListener("pointercancel", () => lift(board, null, tap, drop));
  board.addEventListener("click", (event) => {
    const square = event.target.closest("[data-square]");
    if (performance.now() - tappedAt < CLICK_AFTER_TAP_MS || !square) return;
    tap(square.dataset.square);
  });
}

function start(board, pickUp) {
  board.setPointerCapture(press.id);
  pickUp(press.from);
  const token = board.querySelector(`[data-square="${press.from}"] .token`);
  if (!token) return;
  token.classList.add("lifted");
  ghost = token.cloneNode(true);
  ghost.classList.remove("lifted");
  ghost.classList.add("ghost");
  ghost.dataset.ghost = press.from;
  board.append(ghost);
}

function boardPoint(board, event) {
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(board.getScreenCTM().inverse());
  return [point.x, point.y];
}

function follow(board, event) {
  if (!ghost) return;
  if (!ghost.isConnected) { // the board was drawn again while the piece was in the air (news from the server)
    board.append(ghost);
    const token = board.querySelector(`[data-square="${press.from}"] .token`);
    if (token) token.classList.add("lifted");
  }
  const [x, y] = boardPoint(board, event);
  const [column, row] = squareAt(ui.state.squares.findIndex((q) => q.name === press.from));
  ghost.setAttribute("transform", `translate(${x - (column * S + S / 2)} ${y - (row * S + S / 2)})`);
}

function squareUnder(board, event) {
  const [x, y] = boardPoint(board, event);
  const index = squareIndexAt(Math.floor(x / S), Math.floor(y / S));
  return index >= 0 ? ui.state.squares[index].name : null;
}

function lift(board, event, tap, drop) {
  if (!press || (event && event.pointerId !== press.id)) return;
  const { from } = press, dragged = Boolean(ghost);
  press = null;
  if (ghost) ghost.remove();
  ghost = null;
  if (dragged) {
    tappedAt = performance.now(); // the click that may follow a drag is no tap either
    drop(from, event ? squareUnder(board, event) : null);
  } else if (event && squareUnder(board, event) === from) {
    tappedAt = performance.now();
    tap(from);
  }
}
