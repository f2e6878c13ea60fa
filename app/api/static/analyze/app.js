// tenpai hand analyzer: reads the form, asks the public API, draws the answer.
// Tiles are ints 0..33 (1-9m, 1-9p, 1-9s, E S W N, White Green Red), as in the engine;
// the API answers in mpsz ("3m"), which is turned into Unicode tiles here.
"use strict";

const SUITS = "mpsz";
const UNICODE = [
  ...Array.from({ length: 9 }, (_, i) => String.fromCodePoint(0x1f007 + i)), // man
  ...Array.from({ length: 9 }, (_, i) => String.fromCodePoint(0x1f019 + i)), // pin
  ...Array.from({ length: 9 }, (_, i) => String.fromCodePoint(0x1f010 + i)), // sou
  ...Array.from({ length: 4 }, (_, i) => String.fromCodePoint(0x1f000 + i)), // winds
  String.fromCodePoint(0x1f006), String.fromCodePoint(0x1f005), String.fromCodePoint(0x1f004), // dragons
];
const UNICODE_TILES = new Map(UNICODE.map((char, tile) => [char, tile]));
// Drawn faces: in Chinese when a CJK font is installed, else in ASCII.
const FACES = {
  cjk: { honors: [..."東南西北白發中"], suits: [..."萬筒索"], numerals: [..."一二三四五六七八九"] },
  ascii: { honors: ["E", "S", "W", "N", "Wh", "Gr", "Rd"], suits: [..."mps"], numerals: [..."123456789"] },
};
let faces = FACES.cjk;
const MELD_KINDS = {
  chi: "chi", pon: "pon", kan: "open_kan", minkan: "open_kan", open_kan: "open_kan",
  ankan: "closed_kan", closed_kan: "closed_kan", kakan: "added_kan", added_kan: "added_kan",
};
const FORM_NAMES = { regular: "four melds + pair", seven_pairs: "seven pairs", thirteen_orphans: "thirteen orphans" };
const SEPARATORS = /[\s,，、;；|]/;

// --- notation (display only: the API is the judge of what is valid) -------------

function tileName(tile) {
  return `${(tile % 9) + 1}${SUITS[Math.floor(tile / 9)]}`;
}

function tileOfName(name) {
  const number = name[0] === "0" ? 5 : Number(name[0]);
  return SUITS.indexOf(name[1]) * 9 + number - 1;
}

// {tiles: [int], red: [bool]} or null when the text is not readable here.
function parseTiles(text) {
  text = text.trim();
  if (!text) return { tiles: [], red: [] };
  const ints = asIntList(text);
  if (ints) return { tiles: ints, red: ints.map(() => false) };
  if (/[\u{1F000}-\u{1F02F}]/u.test(text)) return parseUnicode(text);
  if (/^[0-9mpsz\s,]+$/i.test(text)) return parseMpsz(text);
  return parseChinese(text);
}

function asIntList(text) {
  if (!/^\[?\s*\d+(\s*[,\s]\s*\d+)*\s*\]?$/.test(text)) return null;
  if (!/[\[,\s]/.test(text) && !/^\d{1,2}$/.test(text)) return null; // "123" is not a list
  const values = text.replace(/[\[\]]/g, "").split(/[,\s]+/).filter(Boolean).map(Number);
  return values.every((v) => v >= 0 && v <= 33) ? values : null;
}

function parseMpsz(text) {
  const tiles = [], red = [];
  let digits = [];
  for (const char of text.toLowerCase()) {
    if (/\d/.test(char)) digits.push(Number(char));
    else if (SUITS.includes(char)) {
      if (!digits.length) return null;
      for (const d of digits) {
        if (d === 0 && char === "z") return null;
        tiles.push(SUITS.indexOf(char) * 9 + (d === 0 ? 5 : d) - 1);
        red.push(d === 0);
      }
      digits = [];
    } else if (!SEPARATORS.test(char)) return null;
  }
  return digits.length ? null : { tiles, red };
}

function parseUnicode(text) {
  const tiles = [];
  for (const char of text) {
    if (UNICODE_TILES.has(char)) tiles.push(UNICODE_TILES.get(char));
    else if (!(char === "\ufe0e" || char === "\ufe0f" || SEPARATORS.test(char))) return null;
  }
  return { tiles, red: tiles.map(() => false) };
}

const CHINESE_NUMBERS = new Map();
[..."一二三四五六七八九"].forEach((c, i) => CHINESE_NUMBERS.set(c, i + 1));
[..."123456789"].forEach((c, i) => CHINESE_NUMBERS.set(c, i + 1));
[..."１２３４５６７８９"].forEach((c, i) => CHINESE_NUMBERS.set(c, i + 1));
const CHINESE_SUITS = new Map([..."万萬"].map((c) => [c, 0])
  .concat([..."筒饼餅"].map((c) => [c, 1]), [..."条條索"].map((c) => [c, 2])));
const CHINESE_WORDS = new Map([
  ["东", 27], ["東", 27], ["南", 28], ["西", 29], ["北", 30], ["白", 31], ["白板", 31],
  ["发", 32], ["發", 32], ["发财", 32], ["發財", 32], ["青发", 32], ["青發", 32],
  ["中", 33], ["红中", 33], ["紅中", 33], ["幺鸡", 18], ["幺雞", 18], ["么鸡", 18],
]);

function parseChinese(text) {
  const tiles = [];
  let numbers = [];
  const chars = [...text];
  for (let i = 0; i < chars.length;) {
    const char = chars[i];
    if (CHINESE_NUMBERS.has(char)) { numbers.push(CHINESE_NUMBERS.get(char)); i += 1; continue; }
    if (CHINESE_SUITS.has(char)) {
      if (!numbers.length) return null;
      for (const n of numbers) tiles.push(CHINESE_SUITS.get(char) * 9 + n - 1);
      numbers = []; i += 1; continue;
    }
    if (numbers.length) return null;
    if (SEPARATORS.test(char)) { i += 1; continue; }
    const word = [chars.slice(i, i + 2).join(""), char].find((w) => CHINESE_WORDS.has(w));
    if (!word) return null;
    tiles.push(CHINESE_WORDS.get(word));
    i += [...word].length;
  }
  return numbers.length ? null : { tiles, red: tiles.map(() => false) };
}

function formatMpsz(tiles, red) {
  const order = tiles.map((tile, i) => [tile, red[i]]).sort((a, b) => a[0] - b[0]);
  let text = "";
  for (let suit = 0; suit < 4; suit++) {
    const digits = order.filter(([t]) => Math.floor(t / 9) === suit)
      .map(([t, r]) => (r ? "0" : String((t % 9) + 1)));
    if (digits.length) text += digits.join("") + SUITS[suit];
  }
  return text;
}

// Request values: integer lists go as JSON arrays, every other notation as text.
function tilesValue(text) {
  return asIntList(text.trim()) ?? text.trim();
}

function parseMelds(text) {
  const melds = [];
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    const match = /^([a-z_]+)[:：](.+)$/i.exec(token);
    const kind = match && MELD_KINDS[match[1].toLowerCase()];
    if (!kind) {
      throw new Error(`cannot read meld '${token}': write kind:tiles, e.g. pon:111z (kinds: chi, pon, kan, ankan, kakan)`);
    }
    melds.push({ kind, tiles: tilesValue(match[2]) });
  }
  return melds;
}

// --- drawing tiles ----------------------------------------------------------------

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

function tileWithCount(name, remaining) {
  const wrap = document.createElement("span");
  wrap.className = "counted";
  wrap.append(tileElement(tileOfName(name)));
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = `×${remaining}`;
  count.title = `${remaining} unseen ${remaining === 1 ? "copy" : "copies"}`;
  wrap.append(count);
  return wrap;
}

// --- the form, the URL and errors -------------------------------------------------

const $ = (id) => document.getElementById(id);
const FIELDS = ["hand", "rules", "melds", "visible"];

function showError(field, message) {
  const target = $(`${FIELDS.includes(field) ? field : "form"}-error`);
  target.textContent = message;
  target.hidden = false;
  const input = $(field);
  if (input) input.setAttribute("aria-invalid", "true");
}

function clearErrors() {
  for (const name of [...FIELDS, "form"]) {
    $(`${name}-error`).hidden = true;
    $(`${name}-error`).textContent = "";
    $(name)?.removeAttribute("aria-invalid");
  }
}

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

function reportApiError(error) {
  const detail = error.detail;
  if (!detail) {
    showError("form", `${error.message} (${error.status ?? "network error"})`);
    return;
  }
  const loc = Array.isArray(detail.loc) ? detail.loc : [];
  const field = loc[0] === "body" ? loc[1] : undefined;
  showError(field, `${detail.msg} (at ${loc.join(".")})`);
}

function formState() {
  return Object.fromEntries(FIELDS.map((name) => [name, $(name).value.trim()]));
}

function writeUrl(state, push) {
  const query = new URLSearchParams();
  for (const name of FIELDS) {
    if (state[name] && !(name === "rules" && state[name] === "riichi")) query.set(name, state[name]);
  }
  const url = `${location.pathname}?${query}`;
  if (push) history.pushState(state, "", url);
  else history.replaceState(state, "", url);
}

function readUrl() {
  const query = new URLSearchParams(location.search);
  for (const name of FIELDS) $(name).value = query.get(name) ?? (name === "rules" ? "riichi" : "");
  if (!["riichi", "chinese", "qiqihar"].includes($("rules").value)) $("rules").value = "riichi";
  return query.has("hand");
}

// --- analysis ---------------------------------------------------------------------

let generation = 0;

async function analyze({ push = false } = {}) {
  clearErrors();
  const state = formState();
  writeUrl(state, push);
  if (!state.hand) {
    showError("hand", "type a hand, e.g. 123m456p789s1122z5z");
    return;
  }
  let melds;
  try {
    melds = parseMelds(state.melds);
  } catch (error) {
    showError("melds", error.message);
    return;
  }
  const body = { hand: tilesValue(state.hand), rules: state.rules, melds };
  if (state.visible) body.visible = tilesValue(state.visible);
  const mine = ++generation;
  document.body.classList.add("busy");
  try {
    const shanten = await post("/shanten", body);
    // ukeire is given exactly for 3n+1 hands: those have waits; 3n+2 hands have discards.
    const waiting = shanten.ukeire !== null;
    const follow = await post(waiting ? "/ting" : "/discard", body);
    if (mine !== generation) return;
    render(state, melds, shanten, waiting ? follow : null, waiting ? null : follow);
  } catch (error) {
    if (mine !== generation) return;
    $("result").hidden = true;
    if (error instanceof ApiError) reportApiError(error);
    else showError("form", `the service did not answer: ${error.message}`);
  } finally {
    if (mine === generation) document.body.classList.remove("busy");
  }
}

function render(state, melds, shanten, ting, discard) {
  const parsed = parseTiles(state.hand);
  const handView = $("hand-view");
  handView.replaceChildren();
  if (parsed) {
    const order = parsed.tiles.map((tile, i) => [tile, parsed.red[i]]).sort((a, b) => a[0] - b[0]);
    for (const [tile, red] of order) handView.append(tileElement(tile, { red }));
  } else {
    handView.textContent = state.hand;
  }
  const meldView = $("meld-view");
  meldView.replaceChildren();
  for (const meld of melds) {
    const group = document.createElement("span");
    group.className = "tiles small meld";
    group.title = meld.kind;
    const tiles = parseTiles(Array.isArray(meld.tiles) ? meld.tiles.join(",") : meld.tiles);
    if (tiles) tiles.tiles.forEach((tile, i) => group.append(tileElement(tile, { red: tiles.red[i] })));
    else group.textContent = meld.tiles;
    const kind = document.createElement("span");
    kind.className = "meld-kind";
    kind.textContent = meld.kind.replace("_", " ");
    group.append(kind);
    meldView.append(group);
  }

  const value = shanten.shanten;
  let verdict = value === -1 ? "Complete hand (shanten -1)"
    : value === 0 ? "Tenpai (shanten 0)" : `${value}-shanten`;
  if (discard) verdict += ` · best discard ${discard.best ?? "none"}`;
  if (shanten.reason) verdict += ` · ${shanten.reason.replaceAll("_", " ")}`;
  $("verdict").textContent = verdict;
  $("verdict").dataset.shanten = String(value);

  const forms = $("forms").tBodies[0];
  forms.replaceChildren();
  for (const [form, distance] of Object.entries(shanten.forms)) {
    const row = forms.insertRow();
    row.dataset.form = form;
    row.insertCell().textContent = FORM_NAMES[form] ?? form;
    row.insertCell().textContent = distance === null ? "not allowed" : String(distance);
    if (distance === value) row.classList.add("best");
  }

  $("waits-block").hidden = !ting;
  $("ukeire-block").hidden = !ting || !shanten.ukeire?.length || ting.tenpai;
  if (ting) {
    const waits = $("waits");
    waits.replaceChildren();
    const copies = ting.waits.reduce((sum, w) => sum + w.remaining, 0);
    $("waits-title").textContent = ting.tenpai
      ? `Waits: ${ting.waits.length} ${ting.waits.length === 1 ? "tile" : "tiles"}, ${copies} unseen` + (ting.karaten ? " (karaten: none left)" : "")
      : "Waits: not tenpai" + (ting.reason ? ` (${ting.reason.replaceAll("_", " ")})` : "");
    for (const wait of ting.waits) waits.append(tileWithCount(wait.tile, wait.remaining));
    const ukeire = $("ukeire");
    ukeire.replaceChildren();
    $("ukeire-title").textContent = `Ukeire: ${shanten.ukeire_count} copies over ${shanten.ukeire?.length ?? 0} kinds`;
    for (const draw of shanten.ukeire ?? []) ukeire.append(tileWithCount(draw.tile, draw.remaining));
  }

  $("discards-block").hidden = !discard;
  if (discard) renderDiscards(discard, parsed);
  $("result").hidden = false;
}

function renderDiscards(discard, parsed) {
  const body = $("discards").tBodies[0];
  body.replaceChildren();
  discard.candidates.forEach((candidate, rank) => {
    const row = body.insertRow();
    row.dataset.tile = candidate.tile;
    if (rank === 0) row.classList.add("best");
    row.insertCell().textContent = String(rank + 1);
    const cell = row.insertCell();
    const tile = tileOfName(candidate.tile);
    const button = tileElement(tile, { red: candidate.tile[0] === "0", tag: "button" });
    button.type = "button";
    button.classList.add("discard");
    button.title = `discard ${candidate.tile}`;
    button.disabled = !parsed;
    button.addEventListener("click", () => discardAndAnalyze(parsed, candidate.tile));
    cell.append(button);
    row.insertCell().textContent = String(candidate.shanten);
    const ukeire = row.insertCell();
    ukeire.className = "ukeire";
    const count = document.createElement("b");
    count.textContent = String(candidate.ukeire_count);
    ukeire.append(count, " ");
    for (const draw of candidate.ukeire) {
      const small = document.createElement("span");
      small.className = "mini";
      small.textContent = `${draw.tile}×${draw.remaining}`;
      ukeire.append(small, " ");
    }
    row.insertCell().textContent = candidate.score.toFixed(3);
    const components = row.insertCell();
    components.className = "components";
    components.textContent = Object.entries(candidate.components)
      .map(([name, value]) => `${name} ${value >= 0 ? "+" : ""}${Number(value.toFixed(3))}`).join(" · ");
  });
}

function discardAndAnalyze(parsed, name) {
  const tile = tileOfName(name);
  const red = name[0] === "0";
  let index = parsed.tiles.findIndex((t, i) => t === tile && parsed.red[i] === red);
  if (index < 0) index = parsed.tiles.indexOf(tile);
  if (index < 0) return;
  const tiles = parsed.tiles.filter((_, i) => i !== index);
  const reds = parsed.red.filter((_, i) => i !== index);
  $("hand").value = formatMpsz(tiles, reds);
  analyze({ push: true });
  window.scrollTo({ top: 0 });
}

document.addEventListener("DOMContentLoaded", () => {
  detectGlyphs();
  $("form").addEventListener("submit", (event) => {
    event.preventDefault();
    analyze({ push: true });
  });
  $("rules").addEventListener("change", () => { if ($("hand").value.trim()) analyze({ push: true }); });
  window.addEventListener("popstate", () => { if (readUrl()) analyze(); });
  if (readUrl()) analyze();
});
