// The board as an SVG: squares, coordinates, pieces, the marks of the piece picked up, battle steps as arrows.

import { pictureOf } from "./pieces.js";
import { $, pieceOn, sideName, targetsOf, ui } from "./store.js";

const SVG = "http://www.w3.org/2000/svg";
export const S = 100; // one square in SVG units
const LABEL_UNITS = 17;    // the coordinates' size inside the squares, in SVG units
const LABEL_MIN_PX = 11;   // coordinates that would be smaller on screen move to a strip beside the board
const TAG_MIN_PX = 9;      // a picture's code is never drawn smaller on screen (a 12x12 board on a phone)
let tagMinUnits = 0;       // TAG_MIN_PX in SVG units, for the board as last drawn

export function svgNode(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function squareAt(index) {
  // squares come from the last rank down, files from a; flipped shows them from Black's side
  const state = ui.state;
  const file = index % state.files, row = Math.floor(index / state.files);
  return ui.flipped ? [state.files - 1 - file, state.ranks - 1 - row] : [file, row];
}

export function squareIndexAt(column, row) {
  return ui.state.squares.findIndex((_, index) => {
    const [c, r] = squareAt(index);
    return c === column && r === row;
  });
}

function shownTargets() {
  // the marks on the board: the piece's moves, or in a battle move the steps of the pawn tapped (none looking back)
  const state = ui.state;
  if (ui.lookBoard) return new Map();
  if (ui.battleSteps) {
    const steps = ui.battleFrom ? state.battle_steps[ui.battleFrom] || [] : [];
    return new Map(steps.map((to) => [to, pieceOn(to) ? "capture" : "move"]));
  }
  return new Map((ui.selected ? targetsOf(ui.selected) : []).map((t) => [t.to, t.kind]));
}

export function shownBoard() {
  // the squares on show: the game as it stands, or the board of an earlier move being looked at
  const shown = ui.lookBoard || ui.state;
  const turn = ui.lookBoard ? ui.lookBoard.turn : ui.state.turn;
  return { squares: shown.squares, last: shown.last_squares, check: shown.check, turn };
}

export function drawBoard() {
  const board = $("board");
  const focused = board.contains(document.activeElement); // a square has the keyboard's focus: it keeps it
  const state = ui.state, shown = shownBoard();
  board.replaceChildren();
  ui.labelStrip = labelStripUnits();
  tagMinUnits = unitsOf(TAG_MIN_PX);
  board.setAttribute("viewBox",
    `${-ui.labelStrip} 0 ${state.files * S + ui.labelStrip} ${state.ranks * S + ui.labelStrip}`);
  board.classList.toggle("looking-back", Boolean(ui.lookBoard));
  drawArrowhead(board);
  const targets = shownTargets();
  const checked = shown.check ? shown.squares.filter((q) => q.royal && q.side === shown.turn).map((q) => q.name) : [];
  shown.squares.forEach((square, index) => {
    const [column, row] = squareAt(index);
    const x = column * S, y = row * S;
    const group = svgNode("g", { "data-square": square.name, class: "square", role: "gridcell",
      "aria-label": describe(square), tabindex: square.name === cursorSquare() ? "0" : "-1" }, board);
    svgNode("title", {}, group).textContent = describe(square); // the piece's name on hover
    const classes = [square.light ? "light" : "dark"];
    if (shown.last.includes(square.name)) classes.push("last");
    if (checked.includes(square.name)) classes.push("checked");
    if (!ui.lookBoard && (square.name === ui.selected || ui.battleFrom === square.name)) classes.push("selected");
    svgNode("rect", { x, y, width: S, height: S, class: classes.join(" ") }, group);
    drawLabels(group, square, column, row, x, y);
    const token = square.piece ? drawPiece(group, square, x, y) : null;
    if (targets.has(square.name)) drawMark(group, square.name, targets.get(square.name), x, y);
    if (token && token.classList.contains("model")) group.append(token); // a picture stands in its capture ring
  });
  if (ui.labelStrip) drawLabelStrip(board);
  drawBattleSteps(board);
  if (focused) focusSquare(cursorSquare());
}

export function labelStripUnits() {
  // on a small screen (a 12x12 board on a phone) the coordinates inside the squares would be a few pixels
  // high: they move to a strip left of and under the board, LABEL_MIN_PX high
  const width = $("board").getBoundingClientRect().width, files = ui.state.files;
  if (!width || LABEL_UNITS * width / (files * S) >= LABEL_MIN_PX) return 0;
  const high = 1.4 * LABEL_MIN_PX; // the strip, in pixels
  return Math.ceil(high * files * S / (width - high));
}

export function drawnForThisSize() {
  // whether the board as drawn still fits its size on screen: its coordinates' strip and the codes' least size
  return labelStripUnits() === ui.labelStrip && unitsOf(TAG_MIN_PX) === tagMinUnits;
}

function unitsOf(pixels) {
  // a length on screen in the board's SVG units (0 before the board has a size)
  const width = $("board").getBoundingClientRect().width;
  return width ? Math.ceil(pixels * (ui.state.files * S + ui.labelStrip) / width) : 0;
}

function drawLabelStrip(board) {
  const state = ui.state, strip = svgNode("g", { class: "label-strip" }, board);
  const size = ui.labelStrip / 1.4;
  for (let column = 0; column < state.files; column++) {
    const square = state.squares[squareIndexAt(column, state.ranks - 1)];
    svgNode("text", { x: column * S + S / 2, y: state.ranks * S + ui.labelStrip / 2, "font-size": size },
      strip).textContent = square.name[0];
  }
  for (let row = 0; row < state.ranks; row++) {
    const square = state.squares[squareIndexAt(0, row)];
    svgNode("text", { x: -ui.labelStrip / 2, y: row * S + S / 2, "font-size": size },
      strip).textContent = square.name.slice(1);
  }
}

export function cursorSquare() {
  // the square the keyboard stands on: kept while it is on the board, else the selected one or the first
  const names = ui.state.squares.map((q) => q.name);
  if (!names.includes(ui.cursor)) ui.cursor = names.includes(ui.selected) ? ui.selected : names[0];
  return ui.cursor;
}

export function focusSquare(name) {
  const group = $("board").querySelector(`[data-square="${name}"]`);
  if (!group) return;
  for (const other of $("board").querySelectorAll("[data-square]")) {
    other.setAttribute("tabindex", other === group ? "0" : "-1");
  }
  group.focus();
}

function drawMark(group, name, kind, x, y) {
  // a dot on a square the piece moves to (orange where the royal castles), a ring round a piece it captures
  const cx = x + S / 2, cy = y + S / 2;
  const data = { "data-target": name, "data-kind": kind };
  if (kind === "capture") {
    svgNode("circle", { cx, cy, r: 44, class: "mark capture", ...data }, group);
    svgNode("circle", { cx, cy, r: 49, class: "mark capture-edge" }, group);
  } else {
    svgNode("circle", { cx, cy, r: 15, class: `mark ${kind}`, ...data }, group);
  }
}

function drawArrowhead(board) {
  const marker = svgNode("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3.2,
    markerHeight: 3.2, orient: "auto-start-reverse" }, svgNode("defs", {}, board));
  svgNode("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead" }, marker);
}

function describe(square) {
  return square.piece ? `${square.name}: ${sideName(square.side)}'s ${square.piece_name}` : `${square.name}: empty`;
}

function drawLabels(group, square, column, row, x, y) {
  if (ui.labelStrip) return; // drawn beside the board instead
  const look = { class: square.light ? "label on-light" : "label on-dark", "font-size": LABEL_UNITS };
  if (column === 0) svgNode("text", { x: x + 4, y: y + 18, ...look }, group).textContent = square.name.slice(1);
  if (row === ui.state.ranks - 1) {
    svgNode("text", { x: x + S - 14, y: y + S - 5, ...look }, group).textContent = square.name[0];
  }
}

export function drawPiece(group, square, x, y) {
  // the printed piece's picture with its card's code, or (letters, or until the picture arrives) a disc in the
  // side's colour with the code
  const token = svgNode("g", { class: `token ${square.side}`, "data-piece": square.piece }, group);
  const picture = pictureOf(square.piece, square.side);
  if (picture) {
    token.classList.add("model");
    svgNode("image", { href: picture, "data-picture": square.piece, x, y, width: S, height: S }, token);
    const size = Math.max(square.code.length > 2 ? 18 : 22, tagMinUnits);
    const tag = { x: x + S - 4, y: y + 2 + size / 2, "font-size": size,
      class: `code-tag ${square.side}${square.royal ? " royal" : ""}` };
    svgNode("text", tag, token).textContent = square.code;
    return token;
  }
  if (square.royal) svgNode("circle", { cx: x + S / 2, cy: y + S / 2, r: 44, class: "royal" }, token);
  svgNode("circle", { cx: x + S / 2, cy: y + S / 2, r: square.royal ? 38 : 41 }, token);
  const size = square.code.length > 2 ? 30 : square.code.length === 2 ? 40 : 52;
  svgNode("text", { x: x + S / 2, y: y + S / 2 + 1, "font-size": size }, token).textContent = square.code;
  return token;
}

function drawBattleSteps(board) {
  if (!ui.battleSteps) return;
  const centre = (name) => {
    const [column, row] = squareAt(ui.state.squares.findIndex((q) => q.name === name));
    return [column * S + S / 2, row * S + S / 2];
  };
  for (const step of ui.battleSteps) {
    const [from, to] = step.match(/[a-p]\d+/g);
    const [x1, y1] = centre(from), [x2, y2] = centre(to);
    const shorten = 0.3; // the arrow stops short of the square's centre so its head sits on the square
    svgNode("line", { x1, y1, x2: x2 - (x2 - x1) * shorten, y2: y2 - (y2 - y1) * shorten, class: "battle-step",
      "marker-end": "url(#arrowhead)", "data-step": step }, board);
  }
}
