// The board page of `dealer serve`: draws the state the server sends and sends taps back as moves.
// Every rule lives in the server; this script only draws, asks and forwards.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const S = 100; // one square in SVG units
const POLL_MS = 1500;
const THINKING_POLL_MS = 250; // while the computer thinks, its move is fetched this often
const KEY = document.querySelector("meta[name=dealer-key]").content; // this run's key, sent with every call
const PHONE = window.matchMedia("(max-width: 820px)"); // the card opens over the board here
const LABEL_UNITS = 17;    // the coordinates' size inside the squares, in SVG units
const LABEL_MIN_PX = 11;   // coordinates that would be smaller on screen move to a strip beside the board

let state = null;          // the last state the server sent
let selected = null;       // the square of the piece whose moves are highlighted
let flipped = false;
let showPictures = false;
let battleSteps = null;    // the battle move being put together: ["d3d4", ...], or null
let battleFrom = null;
let stateAt = 0;           // performance.now() when the state arrived (for the running clock)
let busy = false;
let cardShown = null;      // the card on show: { piece, side, square } (square null for a card in hand)
let unreachable = false;   // the last poll failed: the page says so until the server answers again
let pollTimer = null;
let lastSaid = null;       // the computer's last move as last shown, so each one is shown once
let labelStrip = 0;        // SVG units of the strip left of and under the board for the coordinates (0: inside)
let cursor = null;         // the square the keyboard stands on (arrows move it, Enter or Space taps it)

const $ = (id) => document.getElementById(id);

function svgNode(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

async function call(path, body) {
  const headers = { "X-Dealer-Key": KEY };
  const options = body === undefined ? { cache: "no-store", headers }
    : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  try {
    const response = await fetch(path, options);
    const answer = await response.json();
    if (response.status === 403 && answer.error.startsWith("no key")) {
      answer.error = "this page's key is not the server's: dealer serve was restarted? Open the address it printed now.";
    }
    return answer;
  } catch (error) {
    return { error: "the server does not answer: is dealer serve still running?" };
  }
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  try {
    accept(await call(path, { ...body, version: state ? state.version : null }));
  } finally {
    busy = false;
  }
}

function accept(answer) {
  const said = answer.state ? setState(answer.state) : "";
  if (answer.error) {
    say(answer.error, true);
  } else if (answer.events) {
    say(answer.events.map((event) => event.text).concat(said ? [said] : []).join(" · "), false);
  }
  selected = null;
  closeCard(); // on a phone the board is wanted whole again after an action
  drawAll();
  if (thinking()) schedulePoll(); // the computer's move is fetched soon, not at the next slow poll
}

function setState(next) {
  // returns the computer's move when it is new here (and shows it), else ""
  state = next;
  const said = state.computer && !thinking() ? state.computer.said.join(" · ") : "";
  const fresh = said && said !== lastSaid ? said : "";
  if (state.computer && !thinking()) lastSaid = said;
  if (fresh) say(fresh, false);
  stateAt = performance.now();
  if (!state.battle) battleSteps = null;
  followCard();
  return fresh;
}

function thinking() {
  // the computer is to move: the server is searching for its move
  return Boolean(state && state.computer && state.computer.thinking);
}

function playerSide() {
  // the side the person at the page plays: the side to move, or the one the computer does not play
  if (!state.computer) return state.turn;
  return state.computer.side === "white" ? "black" : "white";
}

function say(text, isError) {
  const message = $("message");
  message.textContent = text;
  message.className = isError ? "error" : "";
}

// --- the board ---------------------------------------------------------------------------------

function squareAt(index) {
  // squares come from the last rank down, files from a; flipped shows them from Black's side
  const file = index % state.files, row = Math.floor(index / state.files);
  return flipped ? [state.files - 1 - file, state.ranks - 1 - row] : [file, row];
}

function shownTargets() {
  // the marks on the board: the tapped piece's moves, or in a battle move the steps of the pawn tapped
  if (battleSteps) {
    const steps = battleFrom ? state.battle_steps[battleFrom] || [] : [];
    return new Map(steps.map((to) => [to, pieceOn(to) ? "capture" : "move"]));
  }
  return new Map((selected && state.targets[selected] || []).map((t) => [t.to, t.kind]));
}

function drawBoard() {
  const board = $("board");
  const focused = board.contains(document.activeElement); // a square has the keyboard's focus: it keeps it
  board.replaceChildren();
  labelStrip = labelStripUnits();
  board.setAttribute("viewBox", `${-labelStrip} 0 ${state.files * S + labelStrip} ${state.ranks * S + labelStrip}`);
  drawArrowhead(board);
  const targets = shownTargets();
  const checked = state.check ? state.squares.filter((q) => q.royal && q.side === state.turn).map((q) => q.name) : [];
  state.squares.forEach((square, index) => {
    const [column, row] = squareAt(index);
    const x = column * S, y = row * S;
    const group = svgNode("g", { "data-square": square.name, class: "square", role: "gridcell",
      "aria-label": describe(square), tabindex: square.name === cursorSquare() ? "0" : "-1" }, board);
    svgNode("title", {}, group).textContent = describe(square); // the piece's name on hover
    const classes = [square.light ? "light" : "dark"];
    if (state.last_squares.includes(square.name)) classes.push("last");
    if (checked.includes(square.name)) classes.push("checked");
    if (square.name === selected || (battleFrom === square.name)) classes.push("selected");
    svgNode("rect", { x, y, width: S, height: S, class: classes.join(" ") }, group);
    drawLabels(group, square, column, row, x, y);
    if (square.piece) drawPiece(group, square, x, y);
    if (targets.has(square.name)) drawMark(group, square.name, targets.get(square.name), x, y);
  });
  if (labelStrip) drawLabelStrip(board);
  drawBattleSteps(board);
  if (focused) focusSquare(cursorSquare());
}

function labelStripUnits() {
  // on a small screen (a 12x12 board on a phone) the coordinates inside the squares would be a few pixels
  // high: they move to a strip left of and under the board, LABEL_MIN_PX high
  const width = $("board").getBoundingClientRect().width;
  if (!width || LABEL_UNITS * width / (state.files * S) >= LABEL_MIN_PX) return 0;
  const high = 1.4 * LABEL_MIN_PX; // the strip, in pixels
  return Math.ceil(high * state.files * S / (width - high));
}

function drawLabelStrip(board) {
  const strip = svgNode("g", { class: "label-strip" }, board);
  const size = labelStrip / 1.4;
  for (let column = 0; column < state.files; column++) {
    const square = state.squares[squareIndexAt(column, state.ranks - 1)];
    svgNode("text", { x: column * S + S / 2, y: state.ranks * S + labelStrip / 2, "font-size": size },
      strip).textContent = square.name[0];
  }
  for (let row = 0; row < state.ranks; row++) {
    const square = state.squares[squareIndexAt(0, row)];
    svgNode("text", { x: -labelStrip / 2, y: row * S + S / 2, "font-size": size },
      strip).textContent = square.name.slice(1);
  }
}

function squareIndexAt(column, row) {
  return state.squares.findIndex((_, index) => {
    const [c, r] = squareAt(index);
    return c === column && r === row;
  });
}

function cursorSquare() {
  // the square the keyboard stands on: kept while it is on the board, else the selected one or the first
  const names = state.squares.map((q) => q.name);
  if (!names.includes(cursor)) cursor = names.includes(selected) ? selected : names[0];
  return cursor;
}

function focusSquare(name) {
  const group = $("board").querySelector(`[data-square="${name}"]`);
  if (!group) return;
  for (const other of $("board").querySelectorAll("[data-square]")) {
    other.setAttribute("tabindex", other === group ? "0" : "-1");
  }
  group.focus();
}

function keyOnBoard(event) {
  // arrows move between squares as they are drawn (a flipped board too), Enter or Space taps the square
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (!state) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    tapSquare(cursorSquare());
    return;
  }
  if (!(event.key in steps)) return;
  event.preventDefault();
  const [dx, dy] = steps[event.key];
  const [column, row] = squareAt(state.squares.findIndex((q) => q.name === cursorSquare()));
  const next = squareIndexAt(column + dx, row + dy);
  if (next < 0) return;
  cursor = state.squares[next].name;
  focusSquare(cursor);
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

function sideName(side) {
  return side === "white" ? "White" : "Black";
}

function drawLabels(group, square, column, row, x, y) {
  if (labelStrip) return; // drawn beside the board instead
  const look = { class: square.light ? "label on-light" : "label on-dark", "font-size": LABEL_UNITS };
  if (column === 0) svgNode("text", { x: x + 4, y: y + 18, ...look }, group).textContent = square.name.slice(1);
  if (row === state.ranks - 1) {
    svgNode("text", { x: x + S - 14, y: y + S - 5, ...look }, group).textContent = square.name[0];
  }
}

function drawPiece(group, square, x, y) {
  // a disc in the side's colour with the card's code; with Pictures on, the card's 3D picture on the disc
  const token = svgNode("g", { class: `token ${square.side}`, "data-piece": square.piece }, group);
  if (square.royal) svgNode("circle", { cx: x + S / 2, cy: y + S / 2, r: 44, class: "royal" }, token);
  svgNode("circle", { cx: x + S / 2, cy: y + S / 2, r: square.royal ? 38 : 41 }, token);
  if (showPictures && state.pictures.includes(square.piece)) {
    svgNode("image", { href: `/picture/${square.piece}.png`, x: x + 22, y: y + 8, width: S - 44, height: S - 16,
      preserveAspectRatio: "xMidYMid meet" }, token);
    svgNode("text", { x: x + S - 4, y: y + 14, class: `code-tag ${square.side}` },
      token).textContent = square.code;
    return;
  }
  const size = square.code.length > 2 ? 30 : square.code.length === 2 ? 40 : 52;
  svgNode("text", { x: x + S / 2, y: y + S / 2 + 1, "font-size": size }, token).textContent = square.code;
}

function drawBattleSteps(board) {
  if (!battleSteps) return;
  const centre = (name) => {
    const index = state.squares.findIndex((q) => q.name === name);
    const [column, row] = squareAt(index);
    return [column * S + S / 2, row * S + S / 2];
  };
  for (const step of battleSteps) {
    const [from, to] = step.match(/[a-p]\d+/g);
    const [x1, y1] = centre(from), [x2, y2] = centre(to);
    const shorten = 0.3; // the arrow stops short of the square's centre so its head sits on the square
    svgNode("line", { x1, y1, x2: x2 - (x2 - x1) * shorten, y2: y2 - (y2 - y1) * shorten, class: "battle-step",
      "marker-end": "url(#arrowhead)", "data-step": step }, board);
  }
}

function pieceOn(name) {
  return state.squares.find((q) => q.name === name && q.piece);
}

function tapSquare(name) {
  if (!state) return;
  if (thinking()) return say("The computer is thinking: its move comes first.", false);
  if (battleSteps) return tapBattle(name);
  const reach = selected && (state.targets[selected] || []).some((t) => t.to === name);
  if (reach) {
    const from = selected;
    selected = null;
    send("/api/play", { move: from + name });
    return;
  }
  const square = pieceOn(name);
  selected = square && name !== selected ? name : null;
  if (selected) showCard({ piece: square.piece, side: square.side, square: name });
  else closeCard();
  say(selected ? tapWords(square) : "", false);
  draw();
}

function tapWords(square) {
  // what a tapped piece that cannot move now needs explaining: whose turn it is, or that it is stuck
  if (state.result || (state.targets[square.name] || []).length) return "";
  const piece = `${sideName(square.side)}'s ${square.piece_name} on ${square.name}`;
  if (square.side !== state.turn) return `It is ${sideName(state.turn)}'s turn: ${piece} moves after that.`;
  if (state.computer && state.computer.side === square.side) return `${piece} is the computer's.`;
  return `${piece} has no legal move now.`;
}

function tapBattle(name) {
  const steps = battleFrom ? state.battle_steps[battleFrom] || [] : [];
  if (battleFrom !== null && steps.includes(name)) {
    battleSteps = battleSteps.filter((step) => !step.startsWith(battleFrom)).concat([battleFrom + name]);
    battleFrom = null;
  } else if (battleFrom === name) {
    battleFrom = null;
  } else {
    battleFrom = state.battle_steps[name] ? name : null;
    say(battleFrom || !pieceOn(name) ? "" : `the piece on ${name} cannot make a battle step now`, !battleFrom && Boolean(pieceOn(name)));
  }
  draw();
}

// --- the panel ---------------------------------------------------------------------------------

function showCard(shown) {
  cardShown = shown;
  $("card-face").hidden = false;
  drawCaption();
  placeCard();
}

function closeCard() {
  if (PHONE.matches) {
    cardShown = null;
    $("card").classList.remove("large");
    placeCard();
  }
}

function cardName() {
  const onBoard = state.squares.find((q) => q.piece === cardShown.piece);
  const inHand = state.hands.white.concat(state.hands.black).find((card) => card.piece === cardShown.piece);
  return (onBoard && onBoard.piece_name) || (inHand && inHand.name) || cardShown.piece;
}

function drawCaption() {
  // the caption follows the piece: it names the square the piece stands on now, or says it has left the board
  if (!cardShown || !state) return;
  const source = `/card/${cardShown.piece}.svg`;
  if ($("card-face").getAttribute("src") !== source) $("card-face").src = source;
  const name = cardName();
  const owner = cardShown.side ? `${sideName(cardShown.side)}'s ` : "";
  let where = cardShown.hand ? `, in ${sideName(cardShown.hand)}'s hand` : "";
  if (cardShown.square) where = ` on ${cardShown.square}`;
  if (cardShown.side && !cardShown.square && !cardShown.hand) where = " (no longer on the board)";
  $("card-caption").textContent = `${owner}${name}${where}`;
  $("card-face").alt = `the card of ${name}`;
}

function followCard() {
  // after a move the shown piece may stand elsewhere: from the last move's first square to its second (a
  // promotion shows the new piece's card), or, after an undo, on the one square where such a piece stands
  if (!cardShown || !cardShown.square) return;
  const same = (q) => q.piece === cardShown.piece && q.side === cardShown.side;
  if (same(state.squares.find((q) => q.name === cardShown.square))) return;
  const [from, to] = state.last_squares;
  const there = to && state.squares.find((q) => q.name === to);
  let square = null, piece = cardShown.piece;
  if (from === cardShown.square && there && there.side === cardShown.side) {
    [square, piece] = [to, there.piece];
  } else {
    const alike = state.squares.filter(same);
    if (alike.length === 1) square = alike[0].name;
  }
  cardShown = { ...cardShown, square, piece };
}

function placeCard() {
  // beside the board on a wide screen; on a phone over the board, on the half away from the piece tapped,
  // small enough to leave that half in view (a tap on the card enlarges it to the board's width)
  const card = $("card");
  const slot = PHONE.matches && cardShown ? $("board-wrap") : $("card-slot");
  if (card.parentElement !== slot) slot.append(card);
  card.hidden = PHONE.matches && !cardShown;
  if (!PHONE.matches || !cardShown) {
    card.className = "";
    $("card-face").style.maxHeight = "";
    return;
  }
  const index = cardShown.square ? state.squares.findIndex((q) => q.name === cardShown.square) : 0;
  const row = index >= 0 ? squareAt(index)[1] : 0;
  const large = card.classList.contains("large");
  card.className = `${row < state.ranks / 2 ? "bottom" : "top"}${large ? " large" : ""}`;
  const boardHeight = $("board").getBoundingClientRect().height;
  $("card-face").style.maxHeight = large ? "" : `${Math.round(boardHeight * 0.55) - 52}px`;
}

function drawStatus() {
  $("game-name").textContent = state.game_name;
  document.title = `${state.game_name}: Dealer's Chess`;
  const status = $("status");
  const side = state.turn === "white" ? "White" : "Black";
  if (state.result) {
    status.textContent = `Game over: ${state.result} (${state.reason})`;
    status.className = "over";
  } else if (thinking()) {
    status.textContent = `${side} (the computer) is thinking…${state.check ? " (in check)" : ""}`;
    status.className = "thinking";
  } else {
    status.textContent = `${side} to move${state.check ? ": check!" : ""}`;
    status.className = state.check ? "check" : "";
  }
  $("last-move").textContent = state.last_move ? `Last move: ${state.last_move}` : "No move yet.";
  const saved = $("saved");
  saved.textContent = state.save_error ? state.save_error : `Every move is saved to ${state.saved_to}`;
  saved.className = state.save_error ? "error" : "";
}

function drawControls() {
  const playing = !state.result;
  $("undo").disabled = !state.can_undo || thinking();
  $("redo").disabled = !state.can_redo || thinking();
  $("battle").hidden = !state.battle;
  $("battle").setAttribute("aria-pressed", String(Boolean(battleSteps)));
  $("battle-bar").hidden = !battleSteps;
  $("battle-steps").textContent = battleSteps && battleSteps.length ? battleSteps.join(" & ") : "none yet";
  $("pictures").hidden = !state.pictures.length;
  // the side to move offers; the offer stands for the other side to accept or decline (or to answer by moving)
  // an offer is answered by the other buttons, Accept (which asks first) and Decline, never by the offer button
  const offer = state.draw_offer;
  $("draw").textContent = `${sideName(playerSide())} offers a draw`;
  $("draw").hidden = Boolean(offer) || Boolean(state.computer); // the computer plays on: it answers an offer by moving
  $("draw").disabled = !playing;
  $("accept").hidden = !offer || !playing;
  $("accept").textContent = offer ? `${sideName(offer === "white" ? "black" : "white")} accepts the draw…` : "Accept draw";
  $("decline").hidden = !offer || !playing;
  $("claim").hidden = !state.claimable;
  $("claim").textContent = state.claimable ? `Claim draw (${state.claimable})` : "Claim draw";
  $("resign").disabled = !playing;
}

function drawHands() {
  const hands = $("hands");
  hands.replaceChildren();
  if (!state.hand_promotion && !state.hands.white.length && !state.hands.black.length) return;
  for (const side of ["white", "black"]) {
    const line = document.createElement("p");
    line.textContent = `${side === "white" ? "White" : "Black"}'s hand: `;
    if (!state.hands[side].length) line.append("empty");
    for (const card of state.hands[side]) {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = card.shared ? "chip shared" : "chip";
      chip.textContent = card.code;
      chip.title = card.name + (card.shared ? " (shared extra)" : "");
      chip.addEventListener("click", () => showCard({ piece: card.piece, side: null, square: null, hand: side }));
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

function drawMoveList() {
  // one row per move number, White's move then Black's; the numbers follow the last move's ('12... Nf6')
  const list = $("move-list");
  list.replaceChildren();
  const count = state.moves.length;
  if (!count) return;
  const [, number, dots] = state.last_move.match(/^(\d+)(\.+)/);
  const lastPly = 2 * (Number(number) - 1) + (dots === "..." ? 1 : 0);
  let row = null;
  state.moves.forEach((san, index) => {
    const ply = lastPly - (count - 1 - index);
    if (!row || ply % 2 === 0) {
      row = document.createElement("li");
      row.value = Math.floor(ply / 2) + 1;
      if (ply % 2 === 1) row.append("… ");
      list.append(row);
    }
    const move = document.createElement("span");
    move.className = "san";
    move.textContent = san;
    row.append(move, " ");
  });
}

function drawClock() {
  const clock = state.clock;
  $("clock").hidden = !clock;
  if (!clock) return;
  const passed = (performance.now() - stateAt) / 1000;
  for (const side of ["white", "black"]) {
    const running = clock.running === side && !state.result;
    const left = Math.max(0, clock[`${side}_s`] - (running ? passed : 0));
    const span = $(`clock-${side}`);
    span.textContent = `${side === "white" ? "White" : "Black"} ${formatSeconds(left)}`;
    span.className = running ? "running" : "";
  }
}

function formatSeconds(seconds) {
  const whole = Math.floor(seconds);
  const minutes = Math.floor(whole / 60), rest = String(whole % 60).padStart(2, "0");
  return seconds < 10 ? `${minutes}:${rest}.${Math.floor((seconds - whole) * 10)}` : `${minutes}:${rest}`;
}

function drawChoice() {
  const dialog = $("choice");
  const choice = state.pending;
  if (!choice) {
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
    button.addEventListener("click", () => { dialog.close(); send("/api/play", { move: option.key }); });
    for (const event of ["focus", "mouseenter"]) button.addEventListener(event, () => previewChoice(option));
    options.append(button);
  }
  previewChoice(choice.options.find((option) => option.piece) || null);
  if (!dialog.open) dialog.showModal();
}

function previewChoice(option) {
  // a promotion's options show the card of the piece each makes, so a player can check what it does
  const card = $("choice-card");
  card.hidden = !(option && option.piece);
  if (card.hidden) return;
  const source = `/card/${option.piece}.svg`;
  if (card.getAttribute("src") !== source) card.src = source;
  card.alt = `the card of ${option.key}: ${option.text}`;
}

function drawAll() {
  draw();
  placeCard();
}

function draw() {
  if (!state) return;
  drawCaption();
  drawStatus();
  drawBoard();
  drawControls();
  drawHands();
  drawMoveList();
  drawClock();
  drawChoice();
}

// --- wiring --------------------------------------------------------------------------------------

function command(name, extra = {}) {
  return () => send("/api/command", { command: name, ...extra });
}

function confirmThen(text, action) {
  // a result the players decide cannot be taken back: ask first, with No in front (and focused)
  $("confirm-text").textContent = text;
  const dialog = $("confirm");
  dialog.onclose = () => { if (dialog.returnValue === "yes") action(); };
  dialog.returnValue = "";
  dialog.showModal();
  $("confirm-no").focus();
}

function schedulePoll() {
  // the next look at the server: soon while the computer thinks, else at the usual pace
  clearTimeout(pollTimer);
  pollTimer = setTimeout(async () => { await poll(); schedulePoll(); }, thinking() ? THINKING_POLL_MS : POLL_MS);
}

async function poll() {
  if (document.hidden || busy) return;
  const answer = await call("/api/state");
  if (busy) return;
  if (answer.error) {
    unreachable = true;
    return say(answer.error, true);
  }
  if (unreachable) {
    unreachable = false;
    say("", false);
  }
  if (state && answer.version < state.version) return; // asked before our own action was answered: already out of date
  if (!state || answer.version !== state.version) {
    setState(answer);
    selected = null;
    drawAll();
  } else {
    setState(answer);
    drawClock();
  }
}

function start() {
  $("board").addEventListener("click", (event) => {
    const square = event.target.closest("[data-square]");
    if (square) {
      cursor = square.dataset.square;
      tapSquare(square.dataset.square);
    }
  });
  $("board").addEventListener("keydown", keyOnBoard);
  $("undo").addEventListener("click", command("undo"));
  $("redo").addEventListener("click", command("redo"));
  $("draw").addEventListener("click", command("draw"));
  $("accept").addEventListener("click", () => {
    const other = sideName(state.draw_offer === "white" ? "black" : "white");
    confirmThen(`${other} accepts ${sideName(state.draw_offer)}'s draw offer: the game ends 1/2-1/2. Accept?`, command("accept"));
  });
  $("decline").addEventListener("click", command("decline"));
  $("claim").addEventListener("click", () => confirmThen(
    `${sideName(state.turn)} claims a draw (${state.claimable}): the game ends 1/2-1/2. Claim?`, command("claim")));
  $("resign").addEventListener("click", () => confirmThen(`${sideName(playerSide())} resigns and loses the game. Resign?`,
    command("resign")));
  $("card-close").addEventListener("click", (event) => {
    event.stopPropagation();
    cardShown = null;
    selected = null;
    $("card").classList.remove("large");
    drawAll();
  });
  $("card-face").addEventListener("click", () => {
    if (!PHONE.matches) return;
    $("card").classList.toggle("large");
    placeCard();
  });
  PHONE.addEventListener("change", placeCard);
  window.addEventListener("resize", placeCard);
  window.addEventListener("resize", () => { if (state && labelStripUnits() !== labelStrip) drawBoard(); });
  $("flip").addEventListener("click", () => { flipped = !flipped; drawAll(); });
  $("pictures").addEventListener("click", () => {
    showPictures = !showPictures;
    $("pictures").setAttribute("aria-pressed", String(showPictures));
    draw();
  });
  $("battle").addEventListener("click", () => {
    battleSteps = battleSteps ? null : [];
    battleFrom = null;
    selected = null;
    draw();
  });
  $("battle-cancel").addEventListener("click", () => { battleSteps = null; battleFrom = null; draw(); });
  $("battle-play").addEventListener("click", () => {
    if (!battleSteps || battleSteps.length < 2) return say("a battle move needs at least two steps", true);
    const move = battleSteps.join("&");
    battleSteps = null;
    send("/api/play", { move });
  });
  $("choice-cancel").addEventListener("click", () => { $("choice").close(); send("/api/cancel", {}); });
  $("choice").addEventListener("cancel", (event) => { event.preventDefault(); send("/api/cancel", {}); });
  setInterval(() => { if (state && state.clock) drawClock(); }, 200);
  poll().then(schedulePoll);
}

start();
