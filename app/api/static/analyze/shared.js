// What the analyzer (index.html, app.js) and the play page (play.html, play.js) share: tiles
// drawn as Unicode glyphs or CSS faces, mjai tiles and actions in words, one hand's table read
// off mjai events, and POST to the public API. A classic script loaded first by both pages: its
// top-level names are the pages' globals.
// Tiles are ints 0..33 (1-9m, 1-9p, 1-9s, E S W N, White Green Red), as in the engine;
// the API answers in mpsz ("3m") and mjai ("5mr", "E"), turned into Unicode tiles here.
"use strict";

const SUITS = "mpsz";
const UNICODE = [
  ...Array.from({ length: 9 }, (_, i) => String.fromCodePoint(0x1f007 + i)), // man
  ...Array.from({ length: 9 }, (_, i) => String.fromCodePoint(0x1f019 + i)), // pin
  ...Array.from({ length: 9 }, (_, i) => String.fromCodePoint(0x1f010 + i)), // sou
  ...Array.from({ length: 4 }, (_, i) => String.fromCodePoint(0x1f000 + i)), // winds
  String.fromCodePoint(0x1f006), String.fromCodePoint(0x1f005), String.fromCodePoint(0x1f004), // dragons
];
// Drawn faces: in Chinese when a CJK font is installed, else in ASCII.
const FACES = {
  cjk: { honors: [..."東南西北白發中"], suits: [..."萬筒索"], numerals: [..."一二三四五六七八九"] },
  ascii: { honors: ["E", "S", "W", "N", "Wh", "Gr", "Rd"], suits: [..."mps"], numerals: [..."123456789"] },
};
let faces = FACES.cjk;
const WIND_NAMES = ["East", "South", "West", "North"];
const MJAI_HONORS = { E: 27, S: 28, W: 29, N: 30, P: 31, F: 32, C: 33 };
const ACTION_WORDS = { chi: "chi", pon: "pon", daiminkan: "open kan", ankan: "closed kan", kakan: "added kan", nukidora: "north set aside" };

const $ = (id) => document.getElementById(id);

// --- tiles ------------------------------------------------------------------------

function tileName(tile) {
  return `${(tile % 9) + 1}${SUITS[Math.floor(tile / 9)]}`;
}

function tileOfName(name) {
  const number = name[0] === "0" ? 5 : Number(name[0]);
  return SUITS.indexOf(name[1]) * 9 + number - 1;
}

let glyphsMissing = false;

// With no font holding the mahjong block every tile is the same empty box:
// then the tiles are drawn with CSS faces (number and suit) instead.
function detectGlyphs() {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 48;
  const context = canvas.getContext("2d");
  if (!context) return;
  const draw = (char) => {
    context.clearRect(0, 0, 48, 48);
    context.font = "40px " + getComputedStyle(document.body).getPropertyValue("--tile-font");
    context.fillStyle = "#000";
    context.textBaseline = "top";
    context.fillText(char, 2, 2);
    return context.getImageData(0, 0, 48, 48).data.join(",");
  };
  glyphsMissing = draw(UNICODE[0]) === draw(UNICODE[18]) && draw(UNICODE[9]) === draw(UNICODE[27]);
  if (draw("萬") === draw("筒")) faces = FACES.ascii;
  document.body.classList.toggle("no-glyphs", glyphsMissing);
}

function tileElement(tile, { red = false, tag = "span" } = {}) {
  const element = document.createElement(tag);
  element.className = `tile suit-${SUITS[Math.floor(tile / 9)]}` + (red ? " red-five" : "");
  element.dataset.tile = tileName(tile);
  element.title = red ? `0${SUITS[Math.floor(tile / 9)]} (red five)` : tileName(tile);
  const glyph = document.createElement("span");
  glyph.className = "glyph";
  glyph.textContent = UNICODE[tile];
  glyph.setAttribute("aria-hidden", "true");
  const face = document.createElement("span");
  face.className = "face";
  face.setAttribute("aria-hidden", "true");
  if (tile >= 27) face.textContent = faces.honors[tile - 27];
  else {
    const number = document.createElement("b");
    number.textContent = faces.numerals[tile % 9];
    const suit = document.createElement("i");
    suit.textContent = faces.suits[Math.floor(tile / 9)];
    face.append(number, suit);
  }
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = red ? `0${SUITS[Math.floor(tile / 9)]}` : tileName(tile);
  element.append(glyph, face, label);
  return element;
}

// --- mjai -------------------------------------------------------------------------

// An mjai tile ("5mr", "E", "?") as {tile, red}; null for a hidden or unknown tile.
function mjaiTile(name) {
  if (typeof name !== "string") return null;
  if (name in MJAI_HONORS) return { tile: MJAI_HONORS[name], red: false };
  const match = /^([1-9])([mps])(r?)$/.exec(name);
  if (!match) return null;
  return { tile: SUITS.indexOf(match[2]) * 9 + Number(match[1]) - 1, red: match[3] === "r" };
}

// An mjai tile in mpsz, as the review's `tiles` writes it ("5mr" -> "0m", "P" -> "5z").
function mjaiName(name) {
  const read = mjaiTile(name);
  if (!read) return String(name);
  return read.red ? `0${SUITS[Math.floor(read.tile / 9)]}` : tileName(read.tile);
}

// An mjai tile drawn (extra classes space-separated); a hidden one ("?") as a labelled blank.
function mjaiTileElement(pai, classes = "", { tag = "span" } = {}) {
  const read = mjaiTile(pai);
  if (!read) {
    const hidden = document.createElement(tag);
    hidden.className = "tile hidden-tile";
    hidden.textContent = "?";
    hidden.title = "a hidden tile";
    return hidden;
  }
  const element = tileElement(read.tile, { red: read.red, tag });
  if (classes) element.classList.add(...classes.split(" ").filter(Boolean));
  return element;
}

// An mjai action in words, its tiles in mpsz ("pon 9p with 9p 9p").
function actionWords(action, seat) {
  const pai = action.pai === undefined ? "" : mjaiName(action.pai);
  const consumed = (action.consumed ?? []).map(mjaiName).join(" ");
  switch (action.type) {
    case "dahai": return `discard ${pai}` + (action.tsumogiri ? " (the tile drawn)" : "");
    case "reach": return action.pai === undefined ? "riichi" : `riichi, discarding ${pai}`;
    case "chi": case "pon": case "daiminkan":
      return `${ACTION_WORDS[action.type]} ${pai} with ${consumed}` + (action.target === undefined ? "" : ` from seat ${action.target}`);
    case "ankan": return `closed kan of ${mjaiName(action.consumed?.[0])}`;
    case "kakan": return `added kan of ${pai}`;
    case "hora": return action.target === undefined || action.target === seat ? "tsumo (self-drawn win)" : `ron on ${pai}`;
    case "ryukyoku": return "abortive draw (nine terminals)";
    case "none": return "pass";
    case "nukidora": return "north set aside (nukidora)";
    default: return action.type;
  }
}

// The same action: kind, tile and the tiles used (a discard's tsumogiri flag aside).
function sameAction(a, b) {
  if (!a || !b || a.type !== b.type) return false;
  const tiles = (x) => [x.pai ?? "", ...[...(x.consumed ?? [])].sort()].join(",");
  return tiles(a) === tiles(b);
}

// The hand in play at event `end` (its last start_kyoku at or before it), read off the events
// up to `end`: each seat's concealed tiles (as shown: "?" for a seat that cannot be seen), the
// tile it just drew while it holds it, its river (each discard: drawn and thrown at once, the
// riichi declaration, called away) and melds, whether it declared riichi; the dora indicators.
function handOnTable(events, end, seatCount = 4) {
  let start = 0;
  for (let i = Math.min(end, events.length - 1); i >= 0; i--) if (events[i]?.type === "start_kyoku") { start = i; break; }
  const kyoku = events[start] ?? {};
  const count = kyoku.tehais?.length ?? seatCount;
  const seats = Array.from({ length: count }, (_, seat) => ({
    hand: [...(kyoku.tehais?.[seat] ?? [])], drawn: null, river: [], melds: [], riichi: false,
  }));
  const dora = kyoku.dora_marker ? [kyoku.dora_marker] : [];
  // A hidden hand is all "?": the tile taken out of it is any of them.
  const takeOut = (hand, pai) => {
    let at = hand.indexOf(pai);
    if (at < 0) at = hand.indexOf("?");
    if (at >= 0) hand.splice(at, 1);
  };
  let declaring = null;
  for (let i = start + 1; i <= end && i < events.length; i++) {
    const event = events[i];
    const seat = seats[event.actor];
    if (event.type === "tsumo" && seat) {
      seat.hand.push(event.pai);
      seat.drawn = event.pai;
      continue;
    }
    if (seat) seat.drawn = null; // whatever the seat does next, the tile drawn is no longer apart
    if (event.type === "dahai" && seat) {
      takeOut(seat.hand, event.pai);
      seat.river.push({ pai: event.pai, tsumogiri: Boolean(event.tsumogiri), riichi: declaring === event.actor, called: false });
      if (declaring === event.actor) declaring = null;
    } else if (event.type === "reach" && seat) {
      declaring = event.actor;
      seat.riichi = true;
    } else if (["chi", "pon", "daiminkan"].includes(event.type) && seat) {
      const thrown = seats[event.target]?.river.at(-1);
      if (thrown) thrown.called = true;
      for (const pai of event.consumed) takeOut(seat.hand, pai);
      seat.melds.push({ kind: event.type, tiles: [event.pai, ...event.consumed], from: event.target });
    } else if (event.type === "ankan" && seat) {
      for (const pai of event.consumed) takeOut(seat.hand, pai);
      seat.melds.push({ kind: "ankan", tiles: [...event.consumed] });
    } else if (event.type === "kakan" && seat) {
      takeOut(seat.hand, event.pai);
      const pon = seat.melds.find((meld) => meld.kind === "pon" && mjaiTile(meld.tiles[0])?.tile === mjaiTile(event.pai)?.tile);
      if (pon) { pon.kind = "kakan"; pon.tiles.push(event.pai); } else seat.melds.push({ kind: "kakan", tiles: [...event.consumed, event.pai] });
    } else if (event.type === "nukidora" && seat) {
      takeOut(seat.hand, event.pai);
      seat.melds.push({ kind: "nukidora", tiles: [event.pai] });
    } else if (event.type === "dora" && event.dora_marker) {
      dora.push(event.dora_marker);
    }
  }
  return { kyoku, start, seats, dora };
}

// A seat's river as handOnTable reads it: faded, the tile just drawn; ringed, the discard that
// declared riichi; pale, a tile another seat called.
function riverElement(river, seat) {
  const element = document.createElement("div");
  element.className = "tiles small river";
  element.setAttribute("aria-label", `seat ${seat}'s discards`);
  element.append(...river.map((thrown) => {
    const tile = mjaiTileElement(thrown.pai, [thrown.tsumogiri ? "tsumogiri" : "", thrown.riichi ? "riichi-tile" : "",
      thrown.called ? "called" : ""].join(" "));
    tile.title += (thrown.tsumogiri ? ", the tile drawn" : "") + (thrown.riichi ? ", declaring riichi" : "")
      + (thrown.called ? ", called" : "");
    return tile;
  }));
  return element;
}

// A meld as handOnTable reads it, titled with its kind and the seat it was called from.
function meldElement(meld) {
  const group = document.createElement("span");
  group.className = "meld tiles small";
  group.title = ACTION_WORDS[meld.kind] + (meld.from === undefined ? "" : ` from seat ${meld.from}`);
  group.append(...meld.tiles.map((pai) => mjaiTileElement(pai)));
  return group;
}

// --- the API --------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, detail) {
    super(detail?.msg ?? `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, answer?.detail?.[0]);
  return answer;
}

// A hosted table's route: tablePath("t_1", "/record") is "/tables/t_1/record".
function tablePath(table, tail = "") {
  return `/tables/${encodeURIComponent(table)}${tail}`;
}

// A request with a table seat's bearer token (GET unless `body` is given): its JSON answer,
// or an ApiError carrying the error code (`not_your_table`, `stale_version`, ...) and detail.
async function authorized(path, token, { method, body } = {}) {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, {
    method: method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new ApiError(response.status, answer?.detail?.[0]);
    error.code = answer?.error ?? answer?.detail?.[0]?.type;
    throw error;
  }
  return answer;
}

// Where the play page keeps its seats' tokens (sessionStorage: this tab only, gone with it), and
// which table it shows; the analyzer reads a table's token here to fetch its record for review.
const PLAY_STORAGE = {
  current: "tenpai.play.current",
  seat: (table) => `tenpai.play.table.${table}`,
};

function storedSeat(table) {
  try {
    const stored = JSON.parse(sessionStorage.getItem(PLAY_STORAGE.seat(table)) ?? "null");
    return stored && typeof stored.token === "string" && Number.isInteger(stored.seat) ? stored : null;
  } catch {
    return null;
  }
}

function points(value) {
  return value.toLocaleString("en", { maximumFractionDigits: Math.abs(value) < 100 ? 1 : 0 });
}
