// Drag and drop on the board, with a mouse, a pen or a finger: press a piece that can move, drag it, let go on a
// marked square. A press that does not travel DRAG_PX is left to the click handler (tap a piece, tap a target).

import { S, squareAt, squareIndexAt } from "./draw.js";
import { $, ui } from "./store.js";

const DRAG_PX = 6;
let press = null;   // { id, from, x, y }: a pointer pressed on a piece that can move
let ghost = null;   // the piece following the pointer while it is dragged
let justDropped = false;

export function wireDragging(canDrag, pickUp, drop) {
  // canDrag(square): may the piece there be dragged; pickUp(square): mark its moves; drop(from, to): play or not
  const board = $("board");
  board.addEventListener("pointerdown", (event) => {
    const square = event.target.closest("[data-square]");
    if (!event.isPrimary || event.button !== 0 || !square || !canDrag(square.dataset.square)) return;
    press = { id: event.pointerId, from: square.dataset.square, x: event.clientX, y: event.clientY };
  });
  board.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (!ghost && Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_PX) return;
    if (!ghost) start(board, event, pickUp);
    event.preventDefault();
    follow(board, event);
  });
  board.addEventListener("pointerup", (event) => finish(board, event, drop));
  board.addEventListener("pointercancel", () => finish(board, null, drop));
  // the click that ends a drag is not a tap
  board.addEventListener("click", (event) => {
    if (!justDropped) return;
    justDropped = false;
    event.stopImmediatePropagation();
  }, true);
}

export function dragging() {
  return Boolean(ghost);
}

function start(board, event, pickUp) {
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
  const [x, y] = boardPoint(board, event);
  const [column, row] = squareAt(ui.state.squares.findIndex((q) => q.name === press.from));
  ghost.setAttribute("transform", `translate(${x - (column * S + S / 2)} ${y - (row * S + S / 2)})`);
}

function squareUnder(board, event) {
  const [x, y] = boardPoint(board, event);
  const index = squareIndexAt(Math.floor(x / S), Math.floor(y / S));
  return index >= 0 ? ui.state.squares[index].name : null;
}

function finish(board, event, drop) {
  if (!press) return;
  const from = press.from, dragged = Boolean(ghost);
  const to = dragged && event ? squareUnder(board, event) : null;
  if (ghost) ghost.remove();
  ghost = null;
  press = null;
  if (!dragged) return;
  justDropped = true;
  setTimeout(() => { justDropped = false; }, 0);
  drop(from, to);
}
