// tenpai hand analyzer: reads the form, asks the public API, draws the answer.
// Tiles are ints 0..33 (1-9m, 1-9p, 1-9s, E S W N, White Green Red), as in the engine;
// the API answers in mpsz ("3m"), which is turned into Unicode tiles by shared.js (loaded first).
"use strict";

const UNICODE_TILES = new Map(UNICODE.map((char, tile) => [char, tile]));
const MELD_KINDS = {
  chi: "chi", pon: "pon", kan: "open_kan", minkan: "open_kan", open_kan: "open_kan",
  ankan: "closed_kan", closed_kan: "closed_kan", kakan: "added_kan", added_kan: "added_kan",
};
const FORM_NAMES = {
  regular: "four melds + pair", seven_pairs: "seven pairs", thirteen_orphans: "thirteen orphans",
  knitted_straight: "knitted straight + set + pair", honors_and_knitted: "honours and knitted tiles",
};
const WINDS = ["E", "S", "W", "N"]; // seat and round winds; the dealer sits East (seat 0)
// The API's yaku names, with an English gloss for readers who do not know the Japanese term.
const YAKU_LABELS = {
  riichi: "riichi", double_riichi: "double riichi", ippatsu: "ippatsu (one-shot)",
  menzen_tsumo: "menzen tsumo (closed self-draw)", pinfu: "pinfu (no-points hand)", tanyao: "tanyao (all simples)",
  iipeikou: "iipeikou (pure double run)", haku: "haku (white dragon)", hatsu: "hatsu (green dragon)",
  chun: "chun (red dragon)", seat_wind: "seat wind", round_wind: "round wind", chankan: "chankan (robbing a kong)",
  rinshan: "rinshan (kong replacement)", haitei: "haitei (last draw)", houtei: "houtei (last discard)",
  chiitoitsu: "chiitoitsu (seven pairs)", chanta: "chanta (outside hand)", ittsu: "ittsu (straight)",
  sanshoku: "sanshoku (mixed triple run)", sanshoku_doukou: "sanshoku doukou (triple triplets)",
  sankantsu: "sankantsu (three kongs)", toitoi: "toitoi (all triplets)", sanankou: "sanankou (three concealed triplets)",
  shousangen: "shousangen (little three dragons)", honroutou: "honroutou (all terminals and honors)",
  junchan: "junchan (terminal in each group)", honitsu: "honitsu (half flush)", ryanpeikou: "ryanpeikou (two double runs)",
  chinitsu: "chinitsu (full flush)", dora: "dora", aka_dora: "aka dora (red fives)", ura_dora: "ura dora",
  kokushi: "kokushi musou (thirteen orphans)", kokushi_13: "kokushi musou, 13-sided wait",
  suuankou: "suuankou (four concealed triplets)", suuankou_tanki: "suuankou tanki (four concealed triplets, pair wait)",
  daisangen: "daisangen (big three dragons)", shousuushii: "shousuushii (little four winds)",
  daisuushii: "daisuushii (big four winds)", tsuuiisou: "tsuuiisou (all honors)", ryuuiisou: "ryuuiisou (all green)",
  chinroutou: "chinroutou (all terminals)", chuuren: "chuuren poutou (nine gates)",
  junsei_chuuren: "junsei chuuren poutou (pure nine gates)", suukantsu: "suukantsu (four kongs)",
  tenhou: "tenhou (dealer's first draw)", chiihou: "chiihou (first draw)",
};
const SEPARATORS = /[\s,，、;；|]/;
// A reader's gloss for the presets this page knows; any other preset GET /rules lists is
// offered under its bare name.
const RULE_LABELS = {
  riichi: "riichi", chinese: "chinese", qiqihar: "qiqihar (红中 wild)", sanma: "sanma (three-player riichi)",
  mcr: "mcr (Chinese Official)", sichuan: "sichuan (血战到底)",
};
// Long enough for a busy service, short enough that a person still gets the page's own list.
const RULES_TIMEOUT_MS = 5000;

// --- notation (display only: the API is the judge of what is valid) -------------


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

const FIELDS = ["hand", "rules", "melds", "visible", "void_suit"];
const VOID_SUITS = ["", "m", "p", "s"]; // "": the service takes the best suit to void
const SUIT_WORDS = { m: "characters", p: "dots", s: "bamboo" };
// The presets with a void suit (定缺): GET /rules' void_suit option, or the page's own guess.
let voidRules = new Set(["sichuan"]);
// The situation of a win, for the value panel; in the URL only when not the default.
const VALUE_DEFAULTS = { win: "", by: "ron", seat: "S", round: "E", riichi: "", dora: "" };
const VALUE_FIELDS = Object.keys(VALUE_DEFAULTS);
const VALUE_CHOICES = { by: ["ron", "tsumo"], seat: WINDS, round: WINDS };
// Where a /score request field is shown on the page.
const SCORE_FIELDS = {
  hand: "hand", melds: "melds", win_tile: "win", discarder: "by", winner: "seat", dealer: "seat",
  round_wind: "round", riichi: "riichi", dora_indicators: "dora",
};

function showError(field, message) {
  const known = FIELDS.includes(field) || VALUE_FIELDS.includes(field);
  const target = $(`${known ? field : "form"}-error`);
  target.textContent = message;
  target.hidden = false;
  const input = $(field);
  if (input) input.setAttribute("aria-invalid", "true");
}

function clearErrors(names = [...FIELDS, "form"]) {
  for (const name of names) {
    $(`${name}-error`).hidden = true;
    $(`${name}-error`).textContent = "";
    $(name)?.removeAttribute("aria-invalid");
  }
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

// The winning tile chosen (mpsz name, "" for the last tile typed): kept apart from the
// <select>, whose options exist only once a complete hand has been drawn.
let winChoice = "";
// The preset a link without `rules` means: GET /rules' default once it has answered.
let defaultRules = "riichi";

function formState() {
  const state = Object.fromEntries(FIELDS.map((name) => [name, $(name).value.trim()]));
  for (const name of ["by", "seat", "round", "dora"]) state[name] = $(name).value.trim();
  state.win = winChoice;
  state.riichi = $("riichi").checked ? "1" : "";
  return state;
}

function writeUrl(state, push) {
  const query = new URLSearchParams();
  for (const name of FIELDS) {
    if (state[name] && !(name === "rules" && state[name] === defaultRules)) query.set(name, state[name]);
  }
  for (const name of VALUE_FIELDS) {
    if (state[name] !== VALUE_DEFAULTS[name]) query.set(name, state[name]);
  }
  const url = `${location.pathname}?${query}`;
  if (push) history.pushState(state, "", url);
  else history.replaceState(state, "", url);
}

// The rule presets offered, from GET /rules (in its order, its default chosen to start), so a
// preset added to the service is offered here unchanged; when the list cannot be had, the
// <select>'s own options in index.html stay. data-source says which list is on show.
async function loadRulePresets() {
  const select = $("rules");
  try {
    const response = await fetch("/rules", { signal: AbortSignal.timeout?.(RULES_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const answer = await response.json();
    // A preset whose wildcards an indicator chooses needs them named in every request; this page
    // has no input for them yet, so it offers only the presets it can ask about as they are.
    const names = (answer?.presets ?? [])
      .filter((preset) => preset?.wildcards_from_indicator !== true)
      .map((preset) => preset?.name)
      .filter((name) => typeof name === "string" && name);
    if (!names.length) throw new Error("GET /rules listed no presets");
    select.replaceChildren(...names.map((name) => option(name, RULE_LABELS[name] ?? name)));
    voidRules = new Set(answer.presets.filter((preset) => preset?.void_suit === true).map((preset) => preset.name));
    defaultRules = names.includes(answer.default) ? answer.default : names[0];
    select.dataset.source = "rules";
  } catch (error) {
    select.dataset.source = "page";
    console.warn(`the rule presets stay the page's own: ${error.message}`);
  }
  select.value = defaultRules;
  showVoidField();
}

// The void suit is asked only under rules that have one.
function showVoidField() {
  $("void-field").hidden = !voidRules.has($("rules").value);
}

function offersRules(name) {
  return [...$("rules").options].some((choice) => choice.value === name);
}

// Told by the rules box at the next analysis: a link naming rules this page does not offer.
let linkNotice = "";

function readUrl() {
  const query = new URLSearchParams(location.search);
  for (const name of FIELDS) if (name !== "rules" && name !== "void_suit") $(name).value = query.get(name) ?? "";
  const suit = (query.get("void_suit") ?? "").toLowerCase();
  $("void_suit").value = VOID_SUITS.includes(suit) ? suit : "";
  // Any preset on offer survives the link; one not on offer falls back, and the page says so.
  const linked = query.get("rules") || defaultRules;
  $("rules").value = offersRules(linked) ? linked : defaultRules;
  showVoidField();
  linkNotice = offersRules(linked)
    ? "" : `the link asks for rules "${linked}", which this service does not offer: showing ${defaultRules}`;
  for (const [name, choices] of Object.entries(VALUE_CHOICES)) {
    const raw = query.get(name) ?? "";
    const value = name === "by" ? raw.toLowerCase() : raw.toUpperCase();
    $(name).value = choices.includes(value) ? value : VALUE_DEFAULTS[name];
  }
  $("riichi").checked = ["1", "true", "on"].includes(query.get("riichi") ?? "");
  $("dora").value = query.get("dora") ?? "";
  winChoice = query.get("win") ?? "";
  return query.has("hand");
}

// --- analysis ---------------------------------------------------------------------

let generation = 0;

async function analyze({ push = false } = {}) {
  clearErrors();
  if (linkNotice) showError("rules", linkNotice);
  linkNotice = "";
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
  if (state.void_suit && voidRules.has(state.rules)) body.void_suit = state.void_suit;
  const mine = ++generation;
  document.body.classList.add("busy");
  try {
    const shanten = await post("/shanten", body);
    // ukeire is given exactly for 3n+1 hands: those have waits; 3n+2 hands have discards.
    const waiting = shanten.ukeire !== null;
    const follow = await post(waiting ? "/ting" : "/discard", body);
    if (mine !== generation) return;
    render(state, melds, shanten, waiting ? follow : null, waiting ? null : follow);
    // A complete riichi hand (3n+2 tiles, shanten -1) has a value: what it pays.
    const complete = !waiting && shanten.shanten === -1 && state.rules === "riichi";
    showValuePanel(complete ? { state, melds, parsed: parseTiles(state.hand) } : null);
    if (complete) {
      if (state.win !== winChoice) writeUrl(formState(), false); // the chosen tile is not in this hand
      await scoreWin();
    }
  } catch (error) {
    if (mine !== generation) return;
    $("result").hidden = true;
    showValuePanel(null);
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
  // Under rules with a void suit the answers name the one they assumed (absent: none lets it win).
  const used = discard?.void_suit ?? ting?.void_suit ?? shanten.void_suit;
  const voidView = $("void-view");
  voidView.hidden = !voidRules.has(state.rules);
  voidView.dataset.suit = used ?? "";
  voidView.textContent = used
    ? `Void suit (定缺): ${used} (${SUIT_WORDS[used]})` + (state.void_suit ? "" : ", the best suit to void")
      + "; its tiles held are thrown first and never wait."
    : "Void suit (定缺): none lets this hand win (it holds all three suits).";

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

// --- the value of a complete hand (riichi) -----------------------------------------

let winning = null; // {state, melds, parsed} of the complete hand on show, or null
let scoring = 0;

function nameOfTile(tile, red) {
  return red ? `0${SUITS[Math.floor(tile / 9)]}` : tileName(tile);
}

function lastTileTyped(parsed) {
  const last = parsed.tiles.length - 1;
  return last < 0 ? null : nameOfTile(parsed.tiles[last], parsed.red[last]);
}

function option(value, text) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = text;
  return element;
}

// The panel for a complete hand (or hidden, for null); the winning tile is offered
// among the hand's own tiles, the last one typed first.
function showValuePanel(win) {
  winning = win && win.parsed ? win : null;
  $("value-block").hidden = !win;
  clearErrors([...VALUE_FIELDS]);
  $("value-answer").hidden = true;
  $("value-message").hidden = true;
  if (!win) return;
  if (!win.parsed) {
    valueMessage("Type the hand in mpsz, Unicode, Chinese or integers to see what it is worth.");
    return;
  }
  const { tiles, red } = win.parsed;
  const names = [...new Set(tiles.map((tile, i) => [tile, red[i]]).sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([tile, isRed]) => nameOfTile(tile, isRed)))];
  if (!names.includes(winChoice)) winChoice = "";
  $("win").replaceChildren(option("", `last typed (${lastTileTyped(win.parsed)})`),
    ...names.map((name) => option(name, name)));
  $("win").value = winChoice;
}

function valueMessage(text) {
  $("value-message").textContent = text;
  $("value-message").hidden = false;
  $("value-answer").hidden = true;
}

function scoreRequest(state, melds, parsed) {
  const winner = WINDS.indexOf(state.seat);
  const body = {
    hand: tilesValue(state.hand),
    melds,
    win_tile: state.win || lastTileTyped(parsed),
    rules: "riichi",
    winner,
    dealer: 0,
    // On a discard the player on the winner's left dealt in: in riichi only the discarder
    // pays, and what they pay does not depend on which seat it is.
    discarder: state.by === "tsumo" ? null : (winner + 3) % 4,
    round_wind: `${WINDS.indexOf(state.round) + 1}z`,
    riichi: state.riichi === "1",
  };
  if (state.dora) body.dora_indicators = tilesValue(state.dora);
  return body;
}

async function scoreWin() {
  if (!winning) return;
  // The hand analysed, not whatever the hand box holds now; the situation as it is now.
  const request = scoreRequest({ ...formState(), hand: winning.state.hand }, winning.melds, winning.parsed);
  const mine = ++scoring;
  clearErrors([...VALUE_FIELDS]);
  $("value-block").classList.add("busy");
  try {
    const answer = await post("/score", request);
    if (mine === scoring) renderValue(answer, request);
  } catch (error) {
    if (mine !== scoring) return;
    const detail = error.detail;
    if (detail?.type === "no_yaku") {
      valueMessage("Complete, but no yaku: cannot be declared a win.");
    } else if (detail) {
      const loc = Array.isArray(detail.loc) ? detail.loc : [];
      const field = loc[0] === "body" ? SCORE_FIELDS[loc[1]] : undefined;
      if (VALUE_FIELDS.includes(field)) {
        showError(field, `${detail.msg} (at ${loc.join(".")})`);
        $("value-answer").hidden = true;
      } else {
        valueMessage(`Cannot score this hand: ${detail.msg}`);
      }
    } else {
      valueMessage(`The service did not score the hand: ${error.message}`);
    }
  } finally {
    if (mine === scoring) $("value-block").classList.remove("busy");
  }
}

function seatName(seat) {
  return WIND_NAMES[seat] + (seat === 0 ? " (dealer)" : "");
}

// What each payer hands over, as players say it: "1000", "500/1000", "2000 all".
function paymentWords(answer, request) {
  const payers = answer.per_payer;
  if (request.discarder !== null) return `${payers[0].pays} from ${WIND_NAMES[request.discarder]}`;
  if (request.winner === request.dealer) return `${payers[0].pays} all`;
  const dealer = payers.find((payer) => payer.seat === request.dealer);
  const other = payers.find((payer) => payer.seat !== request.dealer);
  return `${other.pays}/${dealer.pays}`;
}

// The scoring reading in mpsz: "234m 456m 789s 777z + 66p".
function readingWords(reading) {
  const group = (names) => names.map((name) => name[0]).join("") + names[0][1];
  if (reading.form === "seven_pairs") return "seven pairs " + reading.pairs.map((name) => group([name, name])).join(" ");
  if (reading.form === "thirteen_orphans") return `thirteen orphans, ${reading.pair} doubled`;
  return reading.groups.map(group).join(" ") + ` + ${group([reading.pair, reading.pair])}`;
}

function renderValue(answer, request) {
  $("value-message").hidden = true;
  const points = answer.payments[request.winner];
  const count = answer.yakuman_count;
  const level = answer.limit === "yakuman" && answer.fu === 0
    ? (count > 1 ? `${count}× yakuman` : "yakuman")
    : `${answer.han} han ${answer.fu} fu` + (answer.limit ? ` · ${answer.limit}` : "");
  const summary = $("value-summary");
  summary.textContent = `${level} · ${points} points (${paymentWords(answer, request)})`;
  Object.assign(summary.dataset, {
    han: String(answer.han), fu: String(answer.fu), limit: answer.limit ?? "", points: String(points),
  });

  const reading = answer.reading;
  $("value-reading").hidden = !reading;
  if (reading) {
    $("value-reading").textContent = `Read as ${readingWords(reading)}, ${reading.wait.replaceAll("_", " ")} wait.`;
  }

  const yaku = $("yaku");
  yaku.replaceChildren();
  for (const item of answer.yaku) {
    const row = document.createElement("li");
    row.dataset.yaku = item.name;
    row.dataset.han = String(item.han);
    const name = document.createElement("span");
    name.textContent = YAKU_LABELS[item.name] ?? item.name.replaceAll("_", " ");
    const han = document.createElement("b");
    han.textContent = item.yakuman ? (item.yakuman > 1 ? `${item.yakuman}× yakuman` : "yakuman") : `${item.han} han`;
    row.append(name, " ", han);
    yaku.append(row);
  }

  // Fu do not count for a yakuman: the list would only confuse.
  $("fu-block").hidden = answer.fu === 0;
  const parts = answer.fu_details ?? [];
  const raw = parts.reduce((sum, part) => sum + part.fu, 0);
  $("fu-title").textContent = `Fu: ${answer.fu}` + (raw && raw !== answer.fu ? ` (${raw} rounded up)` : "");
  const fu = $("fu");
  fu.replaceChildren();
  for (const part of parts) {
    const row = document.createElement("li");
    row.dataset.reason = part.reason;
    const value = document.createElement("b");
    value.textContent = `${part.fu}`;
    const reason = document.createElement("span");
    reason.textContent = part.reason.replaceAll("_", " ") + (part.tile ? ` ${part.tile}` : "");
    row.append(value, reason);
    fu.append(row);
  }

  const table = $("payments").tBodies[0];
  table.replaceChildren();
  answer.payments.forEach((net, seat) => {
    const row = table.insertRow();
    row.dataset.seat = String(seat);
    if (seat === request.winner) row.classList.add("winner");
    row.insertCell().textContent = seatName(seat) + (seat === request.winner ? " · winner" : "");
    row.insertCell().textContent = net > 0 ? `+${net}` : net < 0 ? `−${-net}` : "0";
  });
  if (answer.riichi_sticks_won) {
    const row = table.insertRow();
    row.insertCell().textContent = "riichi sticks";
    row.insertCell().textContent = `+${answer.riichi_sticks_won}`;
  }
  $("value-answer").hidden = false;
}

// --- the ranked discards ------------------------------------------------------------
// /discard ranks by one of its models and says which. The table shows that model's own
// figures under their own names, so that no total ever stands beside terms it is not the
// sum of, and its caption names the model.

const MODEL_NAMES = { expected_score: "expected score", linear: "linear score", fan_plan: "fan plan" };

function percent(probability) {
  return `${(probability * 100).toFixed(1)}%`;
}


function signed(value) {
  const shown = Number(value.toFixed(3)) + 0; // + 0: no "-0"
  return `${shown > 0 ? "+" : ""}${shown}`;
}

// The columns after #, discard, shanten and ukeire, and the caption's words, for the
// model that ranked. A column: key, label, note (under the label), value(candidate),
// text(value); `ranks` marks what the ranking reads, `group` a shared heading.
function discardColumns(discard) {
  const candidates = discard.candidates;
  if (discard.model === "expected_score") {
    const horizon = discard.value_search?.horizon ?? candidates[0]?.horizon;
    const by = horizon ? `by turn ${horizon.last_turn}` : "by the last turn";
    // The page names no opponents, so the cost of dealing in is 0 and expected points rank;
    // should it not be, the net (expected points less the cost) is what ranks, shown as such.
    const dealIn = candidates.some((candidate) => candidate.deal_in_cost);
    // Sichuan (an answer naming a void suit) counts base points: a win is worth its multiplier.
    const base = Boolean(discard.void_suit);
    const columns = [
      { key: "expected_score", label: base ? "expected base points" : "expected points",
        note: dealIn ? "" : "ranks", ranks: !dealIn,
        value: (c) => c.expected_score, text: base ? (v) => v.toFixed(2) : points },
      ...(dealIn ? [
        { key: "deal_in_cost", label: "deal-in cost", value: (c) => c.deal_in_cost, text: points },
        { key: "score", label: "net points", note: "ranks", ranks: true, value: (c) => c.score, text: points },
      ] : []),
      { key: "win_probability", label: "win", note: by, value: (c) => c.win_probability, text: percent },
      { key: "tenpai_probability", label: "tenpai", note: by, value: (c) => c.tenpai_probability, text: percent },
    ];
    let words = base
      ? `Ranked by expected base points: what a win is expected to bring ${by}, with best play, each win `
        + "worth its multiplier by the Sichuan scorer (2 to the power of its fans: a flush and 根 double it)"
      : `Ranked by expected points: what a self-drawn win is expected to bring ${by}, with best play`;
    words = words
      + (dealIn ? ", less the expected cost of dealing in (net points)." : ".")
      + ` Win and tenpai are the chances of a self-drawn win and of being ready ${by}.`;
    const search = discard.value_search;
    if (search && !search.complete) {
      words += ` The search stopped early (${search.stopped_by ?? "a bound"}): the chances and expected points`
        + " are lower bounds.";
    }
    return { columns, words };
  }
  if (discard.model === "linear") {
    const terms = Object.keys(candidates[0]?.components ?? discard.weights);
    const columns = terms.map((name) => ({
      key: `term-${name}`, group: "weighted terms", label: name, className: "term",
      note: discard.weights[name] === undefined ? "" : `×${discard.weights[name]}`,
      value: (c) => c.components[name], text: signed,
    }));
    columns.push({ key: "linear_score", label: "linear score", note: "sum · ranks", ranks: true,
      value: (c) => c.linear_score, text: signed });
    return {
      columns,
      words: "Ranked by the linear score: each term is its weight (×) times the candidate's measure, "
        + "and the score is their sum.",
    };
  }
  if (discard.model === "fan_plan") {
    return {
      columns: [
        { key: "need", label: "tiles needed", note: "ranks first", ranks: true,
          value: (c) => c.fan_plan?.need, text: String },
        { key: "helping_tiles", label: "helping tiles", note: "unseen", value: (c) => c.fan_plan?.helping_tiles,
          text: (v) => String(Number(v.toFixed(2))) },
        { key: "target_fan", label: "target fans", value: (c) => c.fan_plan?.target_fan, text: String },
      ],
      words: "Ranked by the fan plan: the fewest tiles needed to reach a pattern worth the minimum fans, "
        + "then the most unseen tiles that help (plus 0.01 per target fan).",
    };
  }
  // A model this page does not know yet: only the number it ranked by, under its own name.
  return {
    columns: [{ key: "score", label: "score", note: "ranks", ranks: true, value: (c) => c.score, text: signed }],
    words: `Ranked by the ${discard.model} model's score.`,
  };
}

function headCell(row, label, note) {
  const cell = document.createElement("th");
  cell.scope = "col";
  cell.append(label);
  if (note) {
    const small = document.createElement("small");
    small.textContent = note;
    cell.append(document.createElement("br"), small);
  }
  row.append(cell);
  return cell;
}

// One header row; two when some columns share a heading (the linear terms), the others
// then spanning both rows.
function renderDiscardHead(table, columns) {
  const head = table.tHead;
  head.replaceChildren();
  const top = head.insertRow();
  const grouped = columns.some((column) => column.group);
  const below = grouped ? head.insertRow() : null;
  const fixed = [{ label: "#", className: "rank" }, ...["discard", "shanten", "ukeire"].map((label) => ({ label }))];
  let group = null;
  for (const column of [...fixed, ...columns]) {
    if (!column.group) {
      group = null;
      const cell = headCell(top, column.label, column.note);
      if (grouped) cell.rowSpan = 2;
      if (column.key) cell.dataset.column = column.key;
      if (column.className) cell.classList.add(column.className);
      if (column.ranks) cell.classList.add("ranks");
      continue;
    }
    if (group?.name !== column.group) {
      const cell = headCell(top, column.group);
      cell.scope = "colgroup";
      cell.className = "group" + (column.className ? ` ${column.className}` : "");
      group = { name: column.group, cell, span: 0 };
    }
    group.span += 1;
    group.cell.colSpan = group.span;
    const cell = headCell(below, column.label, column.note);
    cell.dataset.column = column.key;
    if (column.className) cell.className = column.className;
  }
}

function renderDiscards(discard, parsed) {
  const table = $("discards");
  const { columns, words } = discardColumns(discard);
  table.dataset.model = discard.model;
  const caption = $("discards-caption");
  const model = document.createElement("strong");
  model.textContent = `Model: ${MODEL_NAMES[discard.model] ?? discard.model}`
    + (discard.model_note ? ` (${discard.model_note}).` : ".");
  caption.replaceChildren(model, " ", words);
  renderDiscardHead(table, columns);

  const body = table.tBodies[0];
  body.replaceChildren();
  discard.candidates.forEach((candidate, rank) => {
    const row = body.insertRow();
    row.dataset.tile = candidate.tile;
    if (rank === 0) row.classList.add("best");
    const place = row.insertCell();
    place.className = "rank";
    place.textContent = String(rank + 1);
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
    for (const column of columns) {
      const value = column.value(candidate);
      const figure = row.insertCell();
      figure.dataset.column = column.key;
      figure.dataset.value = String(value);
      figure.className = "figure" + (column.className ? ` ${column.className}` : "") + (column.ranks ? " ranks" : "");
      figure.textContent = value === null || value === undefined ? "–" : column.text(value);
    }
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

// --- a game reviewed (POST /review, each decision's ranking from POST /act) ----------------
// The page needs the game's mjai events: it draws the rivers from them and asks /act for the
// ranking at a decision (a decision's `index` is the event after which the seat decided). An mjai
// log (JSONL or a JSON array) is read here and sent as `events`; any other text (tenhou.net/6
// JSON, mjlog XML) goes to /review as `log`, for the service to detect and read, and the page
// asks /records/convert for the same game in mjai, which the service reads the same way (so
// the indexes agree).

const LOG_FORMATS = { mjai: "mjai", tenhou6: "tenhou.net/6 JSON", mjlog: "Tenhou's mjlog XML" };
// /act answers a busy service's 503 with "retry after 2 s": the page tries that often, that far apart.
const ACT_ATTEMPTS = 4;
const ACT_RETRY_MS = 2000;

const reviewState = {
  events: null, seats: 4, answer: null, request: null, selected: null, act: new Map(), generation: 0,
  // `events` are those of the review on show; the log's text last read has its own events and
  // format and, for a log not in mjai, the service's reading of it (a promise of {events, format},
  // or of null when the service cannot read it).
  text: null, logEvents: null, logFormat: null, converted: null,
};


// The events of an mjai log, or null when the text is not one (then the service reads it).
function readMjai(text) {
  text = text.trim();
  if (!text) return null;
  let events;
  if (text.startsWith("[")) {
    try {
      events = JSON.parse(text);
    } catch {
      return null;
    }
  } else if (text.startsWith("{")) {
    events = [];
    for (const line of text.split(/\r?\n/)) {
      if (!line.trim()) continue;
      try {
        events.push(JSON.parse(line));
      } catch {
        return null;
      }
    }
  } else {
    return null;
  }
  const isEvent = (event) => event && typeof event === "object" && !Array.isArray(event) && typeof event.type === "string";
  return Array.isArray(events) && events.length && events.every(isEvent) ? events : null;
}

function reviewError(field, message) {
  const target = $(`review-${field}-error`) ?? $("review-error");
  target.textContent = message;
  target.hidden = false;
  const control = $(`review-${field}`);
  if (control && target !== $("review-error")) control.setAttribute("aria-invalid", "true");
}

function clearReviewErrors() {
  for (const name of ["log", "seat", "hand", "rules"]) {
    $(`review-${name}-error`).hidden = true;
    $(`review-${name}`).removeAttribute("aria-invalid");
  }
  $("review-error").hidden = true;
}

function handWords(hand) {
  return `${WIND_NAMES[WINDS.indexOf(hand.bakaze)] ?? hand.bakaze} ${hand.kyoku}` + (hand.honba ? `, ${hand.honba} honba` : "");
}

// A log in another format, as mjai events: /records/convert reads it as /review does.
async function convertedLog(text) {
  try {
    const answer = await post("/records/convert", { log: text, to: "mjai", rules: $("review-rules").value });
    const events = readMjai(answer.log);
    return events ? { events, format: answer.source_format } : null;
  } catch (error) {
    return null; // the review itself reports what is wrong with the log
  }
}

// The seats and hands of the pasted log, offered in the seat and hand boxes: read here when it
// is mjai, else by the service. Answers the events (null when they cannot be had).
async function readReviewLog() {
  const text = $("review-log").value.trim();
  if (text === reviewState.text) {
    return reviewState.converted ? (await reviewState.converted)?.events ?? null : reviewState.logEvents;
  }
  reviewState.text = text;
  let events = readMjai(text);
  let format = events ? "mjai" : null;
  reviewState.converted = null;
  if (!events && text) {
    const reading = convertedLog(text);
    reviewState.converted = reading;
    const read = await reading;
    if (reviewState.text !== text) return read?.events ?? null; // another log was pasted meanwhile
    events = read?.events ?? null;
    format = read?.format ?? null;
  }
  reviewState.logEvents = events;
  reviewState.logFormat = format;
  $("review-format").textContent = format ? `Read as ${LOG_FORMATS[format] ?? format}.` : "";
  showLogBoxes(events);
  return events;
}

function showLogBoxes(events) {
  const seatBox = $("review-seat"), handBox = $("review-hand");
  const seat = seatBox.value, hand = handBox.value;
  if (!events) {
    reviewState.seats = 4;
    seatBox.replaceChildren(...[0, 1, 2, 3].map((s) => option(String(s), `${s} · ${WIND_NAMES[s]} at the start`)));
    handBox.replaceChildren(option("", "every hand"));
  } else {
    const starts = events.filter((event) => event.type === "start_kyoku");
    const names = events.find((event) => event.type === "start_game")?.names ?? [];
    reviewState.seats = starts[0]?.tehais?.length === 3 ? 3 : 4;
    if (reviewState.seats === 3) $("review-rules").value = "sanma";
    seatBox.replaceChildren(...Array.from({ length: reviewState.seats }, (_, s) =>
      option(String(s), `${s} · ${WIND_NAMES[s]} at the start` + (names[s] ? ` · ${names[s]}` : ""))));
    handBox.replaceChildren(option("", `every hand (${starts.length})`),
      ...starts.map((start, i) => option(String(i), `${i + 1}: ${handWords(start)}`)));
  }
  if ([...seatBox.options].some((choice) => choice.value === seat)) seatBox.value = seat;
  if ([...handBox.options].some((choice) => choice.value === hand)) handBox.value = hand;
}

async function runReview() {
  clearReviewErrors();
  const text = $("review-log").value.trim();
  if (!text) {
    reviewError("log", "paste a game's log or choose a file");
    return;
  }
  const mine = ++reviewState.generation;
  $("review").classList.add("busy");
  $("review-run").disabled = true;
  const events = await readReviewLog();
  const body = { seat: Number($("review-seat").value), rules: $("review-rules").value };
  if (reviewState.logFormat === "mjai") body.events = events;
  else body.log = text;
  if ($("review-hand").value !== "") body.kyoku = Number($("review-hand").value);
  try {
    const answer = await post("/review", body);
    if (mine !== reviewState.generation) return;
    reviewState.events = events;
    reviewState.answer = answer;
    reviewState.request = body;
    reviewState.act = new Map();
    renderReview(answer);
  } catch (error) {
    if (mine !== reviewState.generation) return;
    const detail = error.detail;
    const loc = Array.isArray(detail?.loc) ? detail.loc : [];
    const field = { events: "log", log: "log", seat: "seat", kyoku: "hand", rules: "rules" }[loc[1]];
    if (detail) {
      const where = loc[1] === "events" && Number.isInteger(loc[2]) ? ` (event ${loc[2]})` : ` (at ${loc.join(".")})`;
      reviewError(field ?? "", `${detail.msg}${where}`);
    } else {
      reviewError("", `the review failed: ${error.message} (${error.status ?? "network error"})`);
    }
  } finally {
    if (mine === reviewState.generation) {
      $("review").classList.remove("busy");
      $("review-run").disabled = false;
    }
  }
}

function lossWords(value) {
  return `${points(value)} ${Math.round(value) === 1 ? "point" : "points"}`;
}



// 0 (no loss) .. 1 (the game's largest): a square root, so that small losses still show.
function lossShade(loss, largest) {
  return loss && largest ? Math.sqrt(Math.min(loss / largest, 1)) : 0;
}

function renderReview(answer) {
  const summary = answer.summary;
  const rate = summary.agreement_rate === null ? "" : ` (${(summary.agreement_rate * 100).toFixed(0)}%)`;
  $("review-summary").textContent = `Seat ${answer.seat}: ${summary.decisions} decisions, ${summary.agreements} as tenpai `
    + `would${rate}; ${lossWords(summary.total_loss)} lost over the ${summary.valued} with a figure`
    + (summary.preempted ? `; ${summary.preempted} claim points left out (another seat's claim came first)` : "")
    + (answer.complete ? "." : `. The time bound stopped the review at event ${answer.reached}: review one hand at a time.`);
  Object.assign($("review-summary").dataset, { decisions: String(summary.decisions), complete: String(answer.complete) });

  const worstRank = new Map(summary.worst.map((item, rank) => [item.index, rank]));
  const largest = summary.worst[0]?.loss ?? 0;
  const timeline = $("review-timeline");
  timeline.replaceChildren();
  const results = new Map(answer.hands.map((hand) => [hand.hand, hand]));
  let group = null, list = null;
  answer.decisions.forEach((decision, position) => {
    if (group?.dataset.hand !== String(decision.hand)) {
      group = document.createElement("section");
      group.className = "hand-group";
      group.dataset.hand = String(decision.hand);
      const title = document.createElement("h4");
      title.id = `review-hand-${decision.hand}`;
      const result = results.get(decision.hand);
      title.textContent = handWords(decision);
      if (result) {
        const small = document.createElement("small");
        const delta = result.deltas?.[answer.seat];
        small.textContent = ` · ${result.result === "hora" ? `won by seat ${result.winners.join(", ")}` : result.result.replaceAll("_", " ")}`
          + (delta === undefined ? "" : ` · ${delta > 0 ? "+" : ""}${delta}`)
          + (result.loss ? ` · lost ${lossWords(result.loss)}` : "");
        title.append(small);
      }
      list = document.createElement("ol");
      list.className = "decisions";
      list.setAttribute("aria-labelledby", title.id);
      group.append(title, list);
      timeline.append(group);
    }
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "decision";
    button.dataset.index = String(decision.index);
    button.dataset.position = String(position);
    button.tabIndex = position === 0 ? 0 : -1;
    button.setAttribute("aria-pressed", "false");
    button.setAttribute("aria-controls", "review-detail");
    const rank = worstRank.get(decision.index);
    const shade = lossShade(decision.loss, largest);
    button.style.setProperty("--shade", shade.toFixed(3));
    if (shade > 0.6) button.classList.add("deep");
    if (decision.loss === null) button.classList.add("unvalued");
    else if (decision.agree) button.classList.add("agree");
    if (rank !== undefined) {
      button.classList.add("worst");
      button.dataset.worst = String(rank + 1);
    }
    if (decision.loss !== null) button.dataset.loss = String(decision.loss);
    button.textContent = (rank !== undefined ? "★" : "") + String(decision.turn);
    const said = `${handWords(decision)}, turn ${decision.turn}: ${actionWords(decision.taken, answer.seat)}`
      + (decision.agree ? ", as tenpai would" : `; tenpai: ${actionWords(decision.pick, answer.seat)}`)
      + (decision.loss === null ? "; no loss in points" + (decision.note ? `: ${decision.note}` : "")
        : decision.loss > 0 ? `; lost ${lossWords(decision.loss)}` : "; nothing lost")
      + (rank !== undefined ? `; largest loss ${rank + 1} of ${summary.worst.length}` : "");
    button.setAttribute("aria-label", said);
    button.title = said;
    button.addEventListener("click", () => selectDecision(position));
    item.append(button);
    list.append(item);
  });
  if (!answer.decisions.length) {
    const none = document.createElement("p");
    none.className = "help";
    none.textContent = "The seat had no decision with more than one legal action here.";
    timeline.append(none);
  }

  const worst = $("review-worst");
  worst.replaceChildren();
  if (summary.worst.length) {
    const title = document.createElement("span");
    title.textContent = "Largest losses: ";
    worst.append(title);
    summary.worst.forEach((item, rank) => {
      const position = answer.decisions.findIndex((decision) => decision.index === item.index);
      const decision = answer.decisions[position];
      const jump = document.createElement("button");
      jump.type = "button";
      jump.className = "jump";
      jump.dataset.index = String(item.index);
      jump.textContent = `★${rank + 1} ${handWords(decision)} turn ${decision.turn}: ${lossWords(item.loss)}`;
      jump.addEventListener("click", () => selectDecision(position, { focus: true }));
      worst.append(jump);
    });
  }
  reviewState.selected = null;
  $("review-detail").hidden = true;
  $("review-result").hidden = false;
}

function timelineButtons() {
  return [...$("review-timeline").querySelectorAll("button.decision")];
}

// Arrow keys move along the timeline (one tab stop for the whole of it); Home and End jump.
function timelineKeys(event) {
  const buttons = timelineButtons();
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  const target = buttons[Math.max(0, Math.min(buttons.length - 1, to))];
  buttons.forEach((button) => { button.tabIndex = button === target ? 0 : -1; });
  target.focus();
}

function selectDecision(position, { focus = false } = {}) {
  const answer = reviewState.answer;
  const decision = answer.decisions[position];
  reviewState.selected = position;
  for (const button of timelineButtons()) {
    const chosen = button.dataset.position === String(position);
    button.setAttribute("aria-pressed", String(chosen));
    button.tabIndex = chosen ? 0 : -1;
    if (chosen && focus) button.focus();
  }
  const seat = answer.seat;
  $("detail-title").textContent = `${handWords(decision)}, turn ${decision.turn} (event ${decision.index})`;
  const loss = $("detail-loss");
  loss.dataset.loss = decision.loss === null ? "" : String(decision.loss);
  loss.className = "detail-loss" + (decision.loss === null ? " unvalued" : decision.loss > 0 ? " lost" : " kept");
  loss.textContent = decision.loss === null
    ? `No loss in points${decision.agree ? " (the action taken is tenpai's pick)" : ""}.`
    : decision.loss > 0 ? `Lost ${lossWords(decision.loss)} against tenpai's pick.`
      : decision.agree ? "The action taken is tenpai's pick." : "Nothing lost: the action taken is worth as much as the pick.";
  $("detail-note").hidden = !decision.note;
  $("detail-note").textContent = decision.note ? `Note: ${decision.note}.` : "";

  const hand = $("detail-hand");
  const parsed = parseMpsz(decision.tiles);
  hand.replaceChildren(...(parsed ? parsed.tiles.map((tile, i) => tileElement(tile, { red: parsed.red[i] })) : []));
  const melds = $("detail-melds");
  melds.replaceChildren(...decision.melds.map((text) => {
    const group = document.createElement("span");
    group.className = "meld tiles small";
    const read = parseMpsz(text);
    if (read) group.append(...read.tiles.map((tile, i) => tileElement(tile, { red: read.red[i] })));
    return group;
  }));

  const valued = (value) => (value === null ? "no figure in points" : lossWords(value));
  $("detail-taken").textContent = `${actionWords(decision.taken, seat)} · ${valued(decision.taken_value)}`;
  $("detail-pick").textContent = `${actionWords(decision.pick, seat)} · ${valued(decision.pick_value)}`;
  const reasons = (id, list) => $(id).replaceChildren(...list.map((reason) => {
    const item = document.createElement("li");
    item.textContent = reason;
    return item;
  }));
  reasons("detail-taken-reasons", decision.taken_reasons);
  reasons("detail-pick-reasons", decision.pick_reasons);

  renderRivers(decision);
  $("review-detail").hidden = false;
  showRanking(position);
}

// The rivers, melds and dora indicators of the hand up to the decision, read off the events.
function renderRivers(decision) {
  const rivers = $("detail-rivers"), message = $("detail-rivers-message");
  rivers.replaceChildren();
  const events = reviewState.events;
  if (!events) {
    message.textContent = "The rivers are drawn from the game's mjai events, which the service did not give for this log: "
      + "they are left out.";
    message.hidden = false;
    return;
  }
  message.hidden = true;
  const { kyoku, seats: table, dora } = handOnTable(events, decision.index, reviewState.seats);
  const seats = table.length;
  const doraRow = document.createElement("div");
  doraRow.className = "river-row dora-row";
  const doraLabel = document.createElement("span");
  doraLabel.className = "river-seat";
  doraLabel.textContent = "dora indicators";
  const doraTiles = document.createElement("div");
  doraTiles.className = "tiles small";
  doraTiles.append(...dora.map((pai) => mjaiTileElement(pai)));
  doraRow.append(doraLabel, doraTiles);
  rivers.append(doraRow);
  table.forEach((state, seat) => {
    const row = document.createElement("div");
    row.className = "river-row" + (seat === reviewState.answer.seat ? " reviewed" : "");
    row.dataset.seat = String(seat);
    const label = document.createElement("span");
    label.className = "river-seat";
    const wind = WIND_NAMES[(seat - kyoku.oya + seats) % seats];
    label.textContent = `seat ${seat} · ${wind}` + (seat === reviewState.answer.seat ? " (reviewed)" : "")
      + (state.riichi ? " · riichi" : "") + (kyoku.scores ? ` · ${kyoku.scores[seat]}` : "");
    row.append(label, riverElement(state.river, seat), ...state.melds.map(meldElement));
    rivers.append(row);
  });
}

// tenpai's ranking at the decision: /act with the events up to the decision's index.
async function showRanking(position) {
  const answer = reviewState.answer;
  const decision = answer.decisions[position];
  const table = $("detail-ranked"), message = $("detail-ranked-message");
  const body = table.tBodies[0];
  body.replaceChildren();
  if (!reviewState.events) {
    message.textContent = "The ranking is asked of /act with the game's mjai events, which the service did not give for "
      + "this log: only the action taken and the pick are shown.";
    message.hidden = false;
    table.hidden = true;
    return;
  }
  message.textContent = "Ranking the actions…";
  message.hidden = false;
  table.hidden = true;
  let ranking = reviewState.act.get(decision.index);
  try {
    const body = { seat: answer.seat, rules: reviewState.request.rules, events: reviewState.events.slice(0, decision.index + 1) };
    // A busy service (503 too_busy: as many heavy requests as it runs at once) asks to come back shortly.
    for (let attempt = 1; !ranking; attempt++) {
      try {
        ranking = await post("/act", body);
      } catch (error) {
        if (error.status !== 503 || attempt >= ACT_ATTEMPTS || reviewState.selected !== position) throw error;
        await new Promise((resume) => setTimeout(resume, ACT_RETRY_MS));
      }
    }
    reviewState.act.set(decision.index, ranking);
  } catch (error) {
    if (reviewState.selected === position) {
      message.textContent = `The ranking could not be had: ${error.detail?.msg ?? error.message}`;
    }
    return;
  }
  if (reviewState.selected !== position) return;
  message.hidden = true;
  table.hidden = false;
  ranking.ranked.forEach((ranked, rank) => {
    const row = body.insertRow();
    row.dataset.type = ranked.action.type;
    const taken = sameAction(ranked.action, decision.taken);
    const pick = sameAction(ranked.action, decision.pick);
    if (taken) row.classList.add("taken");
    if (pick) row.classList.add("pick");
    row.insertCell().textContent = String(rank + 1);
    const what = row.insertCell();
    what.textContent = actionWords(ranked.action, answer.seat);
    for (const [flag, word] of [[pick, "tenpai's pick"], [taken, "taken"]]) {
      if (!flag) continue;
      const badge = document.createElement("span");
      badge.className = `badge ${word === "taken" ? "taken" : "pick"}`;
      badge.textContent = word;
      what.append(" ", badge);
    }
    const value = row.insertCell();
    value.className = "figure";
    value.dataset.value = ranked.value === null ? "" : String(ranked.value);
    value.textContent = ranked.value === null ? "–" : points(ranked.value);
    row.insertCell().textContent = ranked.reasons.join("; ");
  });
}

function loadReviewFile(event) {
  const file = event.target.files?.[0];
  if (!file) return;
  const reader = new FileReader();
  reader.addEventListener("load", () => {
    $("review-log").value = String(reader.result ?? "");
    readReviewLog();
  });
  reader.addEventListener("error", () => reviewError("log", `cannot read ${file.name}: ${reader.error?.message ?? "error"}`));
  reader.readAsText(file);
}

function setUpReview() {
  $("review-form").addEventListener("submit", (event) => {
    event.preventDefault();
    runReview();
  });
  let reading = 0;
  $("review-log").addEventListener("input", () => {
    clearTimeout(reading);
    reading = setTimeout(readReviewLog, 300);
  });
  $("review-file").addEventListener("change", loadReviewFile);
  $("review-timeline").addEventListener("keydown", timelineKeys);
}

// A game played on the play page, opened for review there (/?review_table=ID#review): its record
// with the seat's token that page keeps in this tab, pasted as mjai JSONL and reviewed for the seat.
async function reviewPlayedTable() {
  const table = new URLSearchParams(location.search).get("review_table");
  if (!table) return;
  const stored = storedSeat(table);
  if (!stored) {
    reviewError("log", `table ${table} was not played in this tab: its record is open only to a seat's token`);
    return;
  }
  let record;
  try {
    record = await authorized(tablePath(table, "/record"), stored.token);
  } catch (error) {
    reviewError("log", `the record of table ${table} could not be had: ${error.message}`);
    return;
  }
  $("review-log").value = record.events.map((event) => JSON.stringify(event)).join("\n");
  await readReviewLog();
  $("review-seat").value = String(stored.seat);
  $("review").scrollIntoView();
  await runReview();
}

document.addEventListener("DOMContentLoaded", () => {
  detectGlyphs();
  setUpReview();
  reviewPlayedTable();
  $("form").addEventListener("submit", (event) => {
    event.preventDefault();
    analyze({ push: true });
  });
  $("rules").addEventListener("change", () => {
    showVoidField();
    if ($("hand").value.trim()) analyze({ push: true });
  });
  $("void_suit").addEventListener("change", () => { if ($("hand").value.trim()) analyze({ push: true }); });
  // The situation changes only the value: score again, without analysing again.
  $("value-form").addEventListener("change", (event) => {
    if (event.target.id === "win") winChoice = event.target.value;
    writeUrl(formState(), false);
    scoreWin();
  });
  $("value-form").addEventListener("submit", (event) => {
    event.preventDefault();
    writeUrl(formState(), false);
    scoreWin();
  });
  window.addEventListener("popstate", () => { if (readUrl()) analyze(); });
  // The link is read once the presets are known, so that a link to any of them keeps it.
  loadRulePresets().then(() => { if (readUrl()) analyze(); });
});
