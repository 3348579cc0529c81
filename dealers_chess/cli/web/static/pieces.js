// How the board draws its pieces: small pictures of the printed models (GET /api/piece/ID.png, made by the server
// the first time any page asks), or the lettered discs. The disc stands in until a picture has arrived, so the
// board never waits; the player's choice is remembered in this browser (localStorage), else the server's default
// (dealer serve --pieces).

import { image } from "./net.js";
import { ui } from "./store.js";

const STYLE_STORE = "dealer-pieces";
export const STYLES = ["models", "letters"];
const AT_ONCE = 2; // pictures asked for at a time: the server makes one while the other travels
const pictures = new Map(); // path -> blob: URL, null while on its way, false when the server has none
const waiting = [];
let asking = 0;
let redrawSoon = null;
let whenArrived = () => {};

export function pieceStyle() {
  const chosen = localStorage.getItem(STYLE_STORE);
  if (STYLES.includes(chosen)) return chosen;
  return ui.state && STYLES.includes(ui.state.piece_style) ? ui.state.piece_style : "models";
}

export function togglePieceStyle() {
  localStorage.setItem(STYLE_STORE, pieceStyle() === "models" ? "letters" : "models");
}

export function onPicturesArrived(redraw) {
  whenArrived = redraw;
}

export function picturePath(piece, side) {
  // the picture of `piece` in `side`'s colours, seen from the chair of the side at the bottom of this page's board
  const chair = ui.flipped ? "black" : "white";
  return `/api/piece/${encodeURIComponent(piece)}.png?colour=${side}&seen_from=${chair}`;
}

export function pictureOf(piece, side) {
  // the picture's blob: URL, or null while it is not here (the first time, it is asked for now)
  if (pieceStyle() !== "models") return null;
  const path = picturePath(piece, side);
  if (!pictures.has(path)) {
    pictures.set(path, null);
    waiting.push(path);
    waiting.sort(); // a piece's two colours one after the other: the server builds its model once for both
    askNext();
  }
  return pictures.get(path) || null;
}

function askNext() {
  while (asking < AT_ONCE && waiting.length) {
    const path = waiting.shift();
    asking += 1;
    image(path).then((found) => {
      pictures.set(path, found.url || false); // no picture (a piece that cannot be built): its letters stay
      if (found.url) redrawOnce();
    }).finally(() => {
      asking -= 1;
      askNext();
    });
  }
}

function redrawOnce() {
  // pictures arriving together draw the board once
  if (redrawSoon !== null) return;
  redrawSoon = requestAnimationFrame(() => {
    redrawSoon = null;
    whenArrived();
  });
}
