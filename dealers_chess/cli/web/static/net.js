// Talking to `dealer serve`: the seat's key in the X-Dealer-Key header of every request (never in a cookie),
// the event stream that brings each change at once, card faces and pictures fetched with the key, the PGN.

const KEY_STORE = "dealer-key"; // sessionStorage: this tab's key, so a reload at / finds its way back
const RETRY_MS = 1000;

export const KEY = document.querySelector("meta[name=dealer-key]").content;
sessionStorage.setItem(KEY_STORE, KEY);
if (location.search) history.replaceState(null, "", "/"); // the key leaves the address bar

const NO_SERVER = "the server does not answer: is dealer serve still running?";
const images = new Map(); // path -> Promise of { url } or { error }

function headers(extra = {}) {
  return { "X-Dealer-Key": KEY, ...extra };
}

function explained(status, error) {
  if (status === 403 && error.startsWith("no key")) {
    return "this page's key is not the server's: dealer serve was restarted? Open the address it printed now.";
  }
  return error;
}

export async function call(path, body) {
  const options = body === undefined ? { cache: "no-store", headers: headers() }
    : { method: "POST", headers: headers({ "Content-Type": "application/json" }), body: JSON.stringify(body) };
  try {
    const response = await fetch(path, options);
    const answer = await response.json();
    if (answer.error) answer.error = explained(response.status, answer.error);
    return answer;
  } catch (error) {
    return { error: NO_SERVER };
  }
}

export async function follow(onState, onLost) {
  // read the server's event stream for ever: each `data:` line is the game's state; a lost stream is opened again
  for (;;) {
    try {
      const response = await fetch("/api/events", { cache: "no-store", headers: headers() });
      if (!response.ok) throw new Error(explained(response.status, (await response.json()).error));
      await readEvents(response.body.pipeThrough(new TextDecoderStream()).getReader(), onState);
      onLost(NO_SERVER);
    } catch (error) {
      onLost(error.message && !error.message.includes("fetch") ? error.message : NO_SERVER);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

async function readEvents(reader, onState) {
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const data = buffer.slice(0, end).split("\n").filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, "")).join("\n");
      buffer = buffer.slice(end + 2);
      if (data) onState(JSON.parse(data));
    }
  }
}

export function image(path) {
  // a card face or picture as a blob: URL (an <img> cannot send the key), or { error } with the server's reason
  if (!images.has(path)) {
    images.set(path, fetch(path, { headers: headers() }).then(async (response) => {
      if (!response.ok) return { error: (await response.text()).trim() };
      return { url: URL.createObjectURL(await response.blob()) };
    }).catch(() => ({ error: NO_SERVER })));
  }
  return images.get(path);
}

export async function download(path) {
  // the game so far as a PGN file, named as the record on the server's disk
  const response = await fetch(path, { cache: "no-store", headers: headers() });
  if (!response.ok) return explained(response.status, (await response.json()).error);
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") || "");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name ? name[1] : "game.pgn";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  return "";
}
