// tenpai play page: opens a hosted table (POST /tables, one client seat and three bots), shows
// the seat's view (GET /tables/{table}), takes its actions and hears every event over the
// table's WebSocket, asks /act for advice, and links the finished game to the analyzer's review.
// The view is the truth: the page keeps its events and redraws everything from them
// (handOnTable in shared.js, loaded first). The seat's token stays in sessionStorage, so a
// reload of this tab resumes the same table from its view.
"use strict";

// Reconnection delays after the socket closes mid-game (the last one repeats).
const RECONNECT_MS = [300, 1000, 2000, 4000];
// An action the socket has not answered in this long: the page asks the view itself.
const RESYNC_MS = 4000;
const CLOCK_TICK_MS = 250;
// /act answers a busy service's 503 with "retry after 2 s": the page tries that often, that far apart.
const ADVICE_ATTEMPTS = 4;
const ADVICE_RETRY_MS = 2000;
const CLAIMS = new Set(["chi", "pon", "daiminkan"]);

const play = {
  table: null, token: null, seat: 0, rules: "riichi", commitment: null,
  // The seat's view: {version, events, legal, deadline, autoplay, bank_seconds, scores, status, seed}.
  view: null,
  socket: null, socketGeneration: 0, reconnects: 0, fresh: false,
  // The version an action was sent at, until the table moves or answers; then null.
  pending: null, resyncTimer: 0,
  // The tile chosen in the hand (an index into it), back on the tile drawn at each new turn.
  selected: null, asked: false, advice: null, record: null,
};

// --- the table's routes -------------------------------------------------------------

function remember(table, token, seat, commitment) {
  sessionStorage.setItem(PLAY_STORAGE.seat(table), JSON.stringify({ token, seat, commitment }));
  sessionStorage.setItem(PLAY_STORAGE.current, table);
}

function forget(table) {
  sessionStorage.removeItem(PLAY_STORAGE.seat(table));
  if (sessionStorage.getItem(PLAY_STORAGE.current) === table) sessionStorage.removeItem(PLAY_STORAGE.current);
}

const FORM_FIELDS = ["decision_seconds", "bank_seconds", "seed"];

function formError(field, message) {
  const target = $(FORM_FIELDS.includes(field) ? `${field}-error` : "form-error");
  target.textContent = message;
  target.hidden = false;
  $(field)?.setAttribute("aria-invalid", "true");
}

function clearFormErrors() {
  for (const name of [...FORM_FIELDS, "form"]) {
    $(`${name}-error`).hidden = true;
    $(name)?.removeAttribute("aria-invalid");
  }
}

function wholeSeconds(field) {
  const value = Number($(field).value);
  if ($(field).value.trim() === "" || !Number.isInteger(value) || value < 0) {
    formError(field, "a whole number of seconds");
    return null;
  }
  return value;
}

async function openTable() {
  clearFormErrors();
  const decision = wholeSeconds("decision_seconds"), bank = wholeSeconds("bank_seconds");
  if (decision === null || bank === null) return;
  const seat = Number($("seat").value);
  const seats = [0, 1, 2, 3].map((s) => (s === seat ? "client" : "bot"));
  const clock = { decision_seconds: decision, bank_seconds: bank };
  const body = { rules: $("rules").value, length: $("length").value, seats, clock, seed: $("seed").value.trim() || null };
  $("new-table-run").disabled = true;
  try {
    const answer = await post("/tables", body);
    const client = answer.seats.find((entry) => entry.kind === "client");
    remember(answer.table, client.token, client.seat, answer.commitment);
    await resume(answer.table);
  } catch (error) {
    const detail = error.detail;
    const loc = Array.isArray(detail?.loc) ? detail.loc : [];
    const field = loc[0] === "body" ? (loc[1] === "clock" ? loc[2] : loc[1]) : undefined;
    if (detail) formError(field, `${detail.msg} (at ${loc.join(".")})`);
    else formError("form", `the table could not be opened: ${error.message}`);
  } finally {
    $("new-table-run").disabled = false;
  }
}

// The table this tab plays, from its view: what a reload does, and what follows POST /tables.
async function resume(table) {
  const stored = storedSeat(table);
  if (!stored) return;
  closeSocket();
  Object.assign(play, {
    table, token: stored.token, seat: stored.seat, commitment: stored.commitment ?? null,
    view: null, pending: null, selected: null, advice: null, record: null, reconnects: 0,
  });
  try {
    applyView(await authorized(tablePath(table), stored.token));
  } catch (error) {
    if ([401, 403, 404].includes(error.status)) {
      forget(table);
      formError("form", `table ${table} is no longer open to this tab (${error.code ?? error.status}): open a new one`);
    } else {
      formError("form", `the table's view could not be had: ${error.message}`);
    }
    return;
  }
  render();
  connect();
}

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${tablePath(play.table, "/ws")}?token=${encodeURIComponent(play.token)}`;
}

function connect() {
  if (!play.table || play.view?.status === "over") return;
  const generation = ++play.socketGeneration;
  const socket = new WebSocket(socketUrl());
  play.socket = socket;
  play.fresh = true; // its first message is the whole view
  showConnection("connecting…");
  socket.addEventListener("open", () => {
    if (generation !== play.socketGeneration) return;
    play.reconnects = 0;
    showConnection("live over the WebSocket");
  });
  socket.addEventListener("message", (message) => {
    if (generation !== play.socketGeneration) return;
    let data;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    receive(data);
  });
  socket.addEventListener("close", (event) => {
    if (generation !== play.socketGeneration) return;
    play.socket = null;
    if (play.view?.status === "over") {
      showConnection("the game is over");
      return;
    }
    // The service closes with 4000 + the HTTP status when it refuses the seat (4401, 4403, 4404).
    if ([4401, 4403, 4404].includes(event.code)) {
      showConnection(`the table refused this seat's token (${event.reason || event.code}): open a new table`);
      return;
    }
    resync(); // what happened while the socket was down, should the next one be slow to come
    const delay = RECONNECT_MS[Math.min(play.reconnects, RECONNECT_MS.length - 1)];
    play.reconnects += 1;
    showConnection("connection lost: reconnecting…");
    setTimeout(() => { if (generation === play.socketGeneration) connect(); }, delay);
  });
}

function closeSocket() {
  play.socketGeneration += 1;
  play.socket?.close();
  play.socket = null;
}

function showConnection(text) {
  $("connection").textContent = text;
}

// --- the view, kept up to date --------------------------------------------------------

// What a view or a pushed change may update besides the events.
const VIEW_FIELDS = ["legal", "deadline", "autoplay", "bank_seconds", "scores", "status", "seed"];

function applyView(view) {
  play.view = {
    version: view.version, events: [...view.events], legal: view.legal ?? [], deadline: view.deadline ?? null,
    autoplay: Boolean(view.autoplay), bank_seconds: view.bank_seconds ?? null, scores: view.scores ?? null,
    status: view.status ?? "playing", seed: view.seed ?? null,
  };
  if (view.commitment) play.commitment = view.commitment;
}

function updateView(message) {
  for (const key of VIEW_FIELDS) if (key in message) play.view[key] = message[key];
}

// Events that follow the first `after` of the table's (a view's `after`; else they end at
// `version`, the table's count), placed by position: those the page holds already are skipped,
// and a gap before them is filled from the view.
function mergeEvents(events, version, after) {
  const view = play.view;
  const first = Number.isInteger(after) ? after : version - events.length;
  if (first > view.events.length) {
    resync();
    return false;
  }
  view.events.push(...events.slice(view.events.length - first));
  view.version = Math.max(view.version, version);
  return true;
}

// A message from the socket: the view first, then new events, a change of what the seat may
// do, or the answer to an action the page sent (an error carries its code).
function receive(message) {
  if (message.error) {
    actionRefused(message.error, message.detail?.[0]?.msg ?? message.error);
    return;
  }
  if (play.fresh && Array.isArray(message.events)) {
    play.fresh = false;
    applyView(message);
  } else {
    play.fresh = false;
    const events = Array.isArray(message.events) ? message.events : message.event ? [message.event] : [];
    if (Number.isInteger(message.version)) {
      if (events.length) {
        if (!mergeEvents(events, message.version, message.after)) return;
      } else if (message.version > play.view.version) {
        resync(); // told of events the page does not hold (an action's answer before its event)
      }
    }
    updateView(message);
  }
  settle();
}

// The view's own events after the page's last, when a message left a gap.
async function resync() {
  if (!play.table) return;
  const table = play.table, after = play.view?.version ?? 0;
  try {
    const view = await authorized(`${tablePath(table)}?after=${after}`, play.token);
    if (table !== play.table) return;
    if (mergeEvents(view.events, view.version, view.after)) updateView(view);
    settle();
  } catch (error) {
    showConnection(`the view could not be had: ${error.message}`);
  }
}

// After any change: an action sent is settled once the table moved or the seat is asked anew.
function settle() {
  const asked = play.view.legal.some((action) => action.type === "dahai");
  if (asked && !play.asked) play.selected = null;
  play.asked = asked;
  if (play.pending !== null && (play.view.version !== play.pending || play.view.legal.length === 0)) {
    play.pending = null;
    clearTimeout(play.resyncTimer);
  }
  if (play.advice && play.advice.version !== play.view.version) play.advice = null;
  if (play.view.status === "over") {
    closeSocket();
    showConnection("the game is over");
  }
  render();
}

function act(action) {
  if (play.pending !== null || !play.view || play.view.status === "over") return;
  $("action-error").hidden = true;
  const message = { version: play.view.version, action };
  play.pending = play.view.version;
  render();
  if (play.socket?.readyState === WebSocket.OPEN) {
    play.socket.send(JSON.stringify(message));
  } else {
    // The socket is down: the same action over HTTP; the reconnected socket brings the events.
    authorized(tablePath(play.table, "/actions"), play.token, { body: message })
      .then(() => resync())
      .catch((error) => actionRefused(error.code ?? "error", error.message));
  }
  clearTimeout(play.resyncTimer);
  play.resyncTimer = setTimeout(() => { if (play.pending !== null) resync(); }, RESYNC_MS);
}

function actionRefused(code, text) {
  play.pending = null;
  clearTimeout(play.resyncTimer);
  const error = $("action-error");
  error.textContent = code === "stale_version"
    ? "The table moved on before your action arrived: here is where it stands now."
    : `Not taken: ${text}`;
  error.hidden = false;
  resync();
}

// --- drawing the table ------------------------------------------------------------

const TURN_TAKERS = new Set(["tsumo", "chi", "pon", "daiminkan", "ankan", "kakan", "reach", "nukidora"]);

// Whose move it is, from the last event: the seat that drew or called plays; after a discard the
// next seat draws unless a claim comes first.
function turnOf(events, seats) {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (TURN_TAKERS.has(event.type)) return { seat: event.actor, claims: false };
    if (event.type === "dahai") return { seat: (event.actor + 1) % seats, claims: true };
    if (["hora", "ryukyoku", "end_kyoku", "end_game", "start_kyoku"].includes(event.type)) {
      return event.type === "start_kyoku" ? { seat: event.oya, claims: false } : null;
    }
  }
  return null;
}

function seatWords(seat, kyoku, seats) {
  const wind = kyoku?.oya === undefined ? "" : ` · ${WIND_NAMES[(seat - kyoku.oya + seats) % seats]}`;
  return `seat ${seat}${wind}` + (seat === play.seat ? " (you)" : " · bot");
}

function render() {
  const view = play.view;
  if (!view) return;
  const section = $("table");
  section.hidden = false;
  Object.assign(section.dataset, {
    table: play.table, version: String(view.version), status: view.status, seat: String(play.seat),
    legal: String(view.legal.length), pending: String(play.pending !== null),
  });
  $("table-id").textContent = play.table;
  $("commitment").textContent = play.commitment ? `Wall commitment (SHA-256 of the seed): ${play.commitment}` : "";
  const state = handOnTable(view.events, view.events.length - 1);
  const seats = state.seats.length || 4;
  const kyoku = state.kyoku;
  const turn = turnOf(view.events, seats);
  renderState(state, turn, seats);
  renderResult(view.events.slice(state.start), kyoku, seats);
  $("dora").replaceChildren(...state.dora.map((pai) => mjaiTileElement(pai)));
  renderSeats(state, turn, seats);
  renderHand(state.seats[play.seat] ?? { hand: [], drawn: null, melds: [] });
  renderActions();
  renderAdvice();
  renderOver(kyoku, seats);
  tickClock();
}

function renderState(state, turn, seats) {
  const view = play.view, kyoku = state.kyoku;
  let where = "";
  if (kyoku.bakaze) {
    where = `${WIND_NAMES[["E", "S", "W", "N"].indexOf(kyoku.bakaze)] ?? kyoku.bakaze} ${kyoku.kyoku}`
      + `, ${kyoku.honba ?? 0} honba, ${kyoku.kyotaku ?? 0} riichi sticks · `;
  }
  let who;
  if (view.status === "over") who = "the game is over";
  else if (play.pending !== null) who = "your action is on its way…";
  else if (view.legal.length) who = view.legal.some((a) => a.type === "dahai") ? "your turn: discard a tile" : "your call";
  else if (!turn) who = "between hands";
  else if (turn.claims) who = `waiting for claims on the discard; then seat ${turn.seat} draws`;
  else who = `${seatWords(turn.seat, kyoku, seats)} to play`;
  $("table-state").textContent = `${where}${who} · version ${view.version}`;
}

// How the hand on show ended, once it has: each win (or the draw) and what every seat got.
function renderResult(handEvents, kyoku, seats) {
  const ends = handEvents.filter((event) => event.type === "hora" || event.type === "ryukyoku");
  const result = $("hand-result");
  result.hidden = !ends.length;
  result.textContent = ends.map((event) => {
    const what = event.type === "ryukyoku" ? "drawn hand"
      : `${seatWords(event.actor, kyoku, seats)} won ` + (event.target === event.actor ? "by self-draw" : `on seat ${event.target}'s ${mjaiName(event.pai)}`);
    const deltas = (event.deltas ?? []).map((delta, seat) => `seat ${seat} ${delta > 0 ? "+" : ""}${delta.toLocaleString("en")}`);
    return deltas.length ? `${what}: ${deltas.join(", ")}` : what;
  }).join("; ");
}

// The four seats round the table as seen from yours: yours below, the next seat (shimocha) to the
// right, across at the top, the seat before yours (kamicha) to the left.
const PLACES = ["bottom", "right", "top", "left"];

function renderSeats(state, turn, seats) {
  const view = play.view, kyoku = state.kyoku;
  const scores = view.scores ?? kyoku.scores ?? [];
  $("seats").replaceChildren(...state.seats.map((seatState, seat) => {
    const panel = document.createElement("section");
    panel.className = `seat-panel place-${PLACES[(seat - play.seat + seats) % seats]}`;
    panel.dataset.seat = String(seat);
    if (turn && turn.seat === seat && !turn.claims && view.status !== "over") panel.classList.add("turn");
    if (seat === play.seat) panel.classList.add("mine");
    panel.setAttribute("aria-label", seatWords(seat, kyoku, seats));
    const title = document.createElement("h3");
    title.className = "seat-title";
    title.textContent = seatWords(seat, kyoku, seats);
    const score = document.createElement("b");
    score.className = "score";
    score.dataset.score = String(scores[seat] ?? "");
    score.textContent = scores[seat] === undefined ? "" : ` ${scores[seat].toLocaleString("en")}`;
    title.append(score);
    if (seatState.riichi) {
      const badge = document.createElement("span");
      badge.className = "badge riichi";
      badge.textContent = "riichi";
      title.append(" ", badge);
    }
    const concealed = document.createElement("p");
    concealed.className = "help concealed";
    concealed.textContent = seat === play.seat ? "" : `${seatState.hand.length} concealed tiles`;
    // Your own melds are drawn beside your tiles, below.
    const melds = seat === play.seat ? [] : seatState.melds.map(meldElement);
    panel.append(title, riverElement(seatState.river, seat), concealed, ...melds);
    return panel;
  }));
}

function byTile(a, b) {
  const x = mjaiTile(a), y = mjaiTile(b);
  return (x ? x.tile * 2 + Number(x.red) : 99) - (y ? y.tile * 2 + Number(y.red) : 99);
}

// The seat's tiles in order, and the tile just drawn apart at the end.
function handTiles(mine) {
  const tiles = [...mine.hand];
  let drawn = null;
  if (mine.drawn !== null && tiles.length % 3 === 2) {
    tiles.splice(tiles.lastIndexOf(mine.drawn), 1);
    drawn = mine.drawn;
  }
  tiles.sort(byTile);
  return [...tiles.map((pai) => ({ pai, drawn: false })), ...(drawn === null ? [] : [{ pai: drawn, drawn: true }])];
}

// The legal discard of this tile: throwing the tile drawn is tsumogiri, another copy of it is not.
function discardOf(pai, drawn) {
  return play.view.legal.find((a) => a.type === "dahai" && a.pai === pai && Boolean(a.tsumogiri) === drawn) ?? null;
}

function handButtons() {
  return [...$("hand").querySelectorAll("button.tile")];
}

function renderHand(mine) {
  const hand = $("hand");
  const hadFocus = hand.contains(document.activeElement);
  const tiles = handTiles(mine);
  const legalNow = play.view.legal.some((a) => a.type === "dahai");
  if (play.selected === null || play.selected >= tiles.length) play.selected = legalNow ? tiles.length - 1 : null;
  const advised = play.advice?.answer.action;
  const buttons = tiles.map(({ pai, drawn }, index) => {
    const discard = discardOf(pai, drawn);
    const button = mjaiTileElement(pai, drawn ? "drawn" : "", { tag: "button" });
    button.type = "button";
    button.dataset.pai = pai;
    button.dataset.index = String(index);
    button.tabIndex = index === (play.selected ?? tiles.length - 1) ? 0 : -1;
    const usable = Boolean(discard) && play.pending === null;
    // aria-disabled, not disabled: every tile stays in reach of the arrow keys.
    button.setAttribute("aria-disabled", String(!usable));
    if (index === play.selected) button.classList.add("selected");
    if (advised?.type === "dahai" && advised.pai === pai && Boolean(advised.tsumogiri) === drawn) button.classList.add("advised");
    const name = mjaiName(pai) + (mjaiTile(pai)?.red ? " (red five)" : "") + (drawn ? ", the tile drawn" : "");
    button.setAttribute("aria-label", usable ? `discard ${name}` : name);
    button.title = usable ? `discard ${name}` : name;
    button.addEventListener("click", () => {
      play.selected = index;
      if (usable) act(discard);
      else render();
    });
    button.addEventListener("focus", () => {
      if (play.selected === index) return;
      play.selected = index;
      for (const other of handButtons()) {
        other.classList.toggle("selected", other === button);
        other.tabIndex = other === button ? 0 : -1;
      }
    });
    return button;
  });
  hand.replaceChildren(...buttons);
  hand.dataset.count = String(tiles.length);
  if (hadFocus && play.selected !== null) buttons[play.selected]?.focus();
  $("my-melds").replaceChildren(...mine.melds.map(meldElement));
}

function actionButtons() {
  return [...$("actions").querySelectorAll("button")];
}

// Every legal action but the discards (the tiles are those), numbered for the keys 1 to 9.
function renderActions() {
  const choices = play.view.legal.filter((action) => action.type !== "dahai");
  $("actions").replaceChildren(...choices.map((action, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `action action-${action.type}` + (action.type === "none" ? " pass" : "");
    button.dataset.type = action.type;
    const key = index < 9 ? `${index + 1}` : "";
    if (key) button.setAttribute("aria-keyshortcuts", key);
    button.textContent = (key ? `${key} · ` : "") + actionWords(action, play.seat);
    button.disabled = play.pending !== null;
    button.addEventListener("click", () => act(action));
    return button;
  }));
  $("advice-run").disabled = play.view.legal.length === 0 || play.view.status === "over";
}

// --- the clock --------------------------------------------------------------------

function tickClock() {
  const view = play.view;
  if (!view) return;
  const clock = $("clock");
  const time = $("clock-time");
  const deadline = view.deadline ? Date.parse(view.deadline) : NaN;
  if (Number.isNaN(deadline) || view.status === "over") {
    time.textContent = view.status === "over" ? "stopped" : "not asked";
    clock.dataset.seconds = "";
  } else {
    const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    time.textContent = `${seconds} s to act`;
    clock.dataset.seconds = String(seconds);
    clock.classList.toggle("short", seconds <= 5);
  }
  $("clock-bank").textContent = view.bank_seconds === null ? "" : ` · bank ${Math.floor(view.bank_seconds)} s`;
  clock.dataset.autoplay = String(view.autoplay);
  $("autoplay").hidden = !view.autoplay;
}

// --- advice -----------------------------------------------------------------------

async function askAdvice() {
  const view = play.view;
  if (!view || !view.legal.length) return;
  const version = view.version;
  play.advice = { version, answer: null, message: "Ranking your actions…" };
  renderAdvice();
  const body = { seat: play.seat, rules: play.rules, events: view.events };
  let answer = null;
  try {
    for (let attempt = 1; !answer; attempt++) {
      try {
        answer = await post("/act", body);
      } catch (error) {
        if (error.status !== 503 || attempt >= ADVICE_ATTEMPTS) throw error;
        await new Promise((resume) => setTimeout(resume, ADVICE_RETRY_MS));
      }
    }
  } catch (error) {
    if (play.advice?.version === version) play.advice.message = `No advice: ${error.detail?.msg ?? error.message}`;
    renderAdvice();
    return;
  }
  if (play.view.version !== version) return; // the table moved on: this advice is for a point gone
  play.advice = { version, answer, message: answer.complete ? "" : "The search ran out of time: the ranking is what it found." };
  render();
}

function renderAdvice() {
  const advice = play.advice;
  const section = $("advice");
  section.hidden = !advice;
  if (!advice) return;
  const message = $("advice-message");
  message.textContent = advice.message;
  message.hidden = !advice.message;
  const table = $("advice-ranked");
  table.hidden = !advice.answer;
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const [rank, ranked] of (advice.answer?.ranked ?? []).entries()) {
    const row = body.insertRow();
    row.dataset.type = ranked.action.type;
    if (sameAction(ranked.action, advice.answer.action)) row.classList.add("pick");
    row.insertCell().textContent = String(rank + 1);
    row.insertCell().textContent = actionWords(ranked.action, play.seat);
    const value = row.insertCell();
    value.className = "figure";
    value.dataset.value = ranked.value === null ? "" : String(ranked.value);
    value.textContent = ranked.value === null ? "–" : points(ranked.value);
    row.insertCell().textContent = ranked.reasons.join("; ");
  }
}

// --- the end ----------------------------------------------------------------------

function renderOver(kyoku, seats) {
  const view = play.view;
  const over = $("over");
  over.hidden = view.status !== "over";
  if (over.hidden) return;
  const ended = [...view.events].reverse().find((event) => event.type === "end_game");
  const scores = ended?.scores ?? view.scores ?? [];
  // Places by points; equal points go to the seat nearer the first dealer, as Tenhou ranks.
  const order = scores.map((score, seat) => ({ score, seat })).sort((a, b) => b.score - a.score || a.seat - b.seat);
  const body = $("final-scores").tBodies[0];
  body.replaceChildren();
  order.forEach(({ score, seat }, place) => {
    const row = body.insertRow();
    row.dataset.seat = String(seat);
    row.dataset.score = String(score);
    if (seat === play.seat) row.classList.add("winner");
    row.insertCell().textContent = String(place + 1);
    row.insertCell().textContent = seat === play.seat ? `seat ${seat} (you)` : `seat ${seat} · bot`;
    row.insertCell().textContent = score.toLocaleString("en");
  });
  const link = $("review-link");
  link.href = `/?${new URLSearchParams({ review_table: play.table })}#review`;
  if (!play.record) showSeed();
}

// The record's seed, checked against the commitment published when the table opened.
async function showSeed() {
  const table = play.table;
  play.record = "asked";
  let record;
  try {
    record = await authorized(tablePath(table, "/record"), play.token);
  } catch (error) {
    $("seed-revealed").textContent = `The record could not be had: ${error.message}`;
    return;
  }
  if (table !== play.table) return;
  play.record = record;
  let check = "";
  if (globalThis.crypto?.subtle && play.commitment) { // only in a secure context (https or this machine)
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(record.seed));
    const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    check = hex === play.commitment ? " Its SHA-256 is the commitment published at the start: the deal was fixed before it began."
      : " Its SHA-256 is NOT the commitment published at the start.";
  }
  $("seed-revealed").textContent = `The seed, revealed: ${record.seed}.${check}`;
}

// --- keys -------------------------------------------------------------------------

const MOVES = { ArrowRight: 1, ArrowLeft: -1, Home: "first", End: "last" };

function keys(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || !play.view) return;
  const target = event.target;
  if (target.closest?.("input, select, textarea")) return;
  if (/^[1-9]$/.test(event.key)) {
    const button = actionButtons()[Number(event.key) - 1];
    if (button) {
      event.preventDefault();
      button.click();
    }
    return;
  }
  if (event.key === "a" || event.key === "A") {
    event.preventDefault();
    $("advice-run").click();
    return;
  }
  const buttons = handButtons();
  if (!buttons.length) return;
  if (event.key in MOVES) {
    event.preventDefault();
    const inHand = $("hand").contains(document.activeElement);
    const at = play.selected ?? buttons.length - 1;
    const move = MOVES[event.key];
    const to = move === "first" ? 0 : move === "last" ? buttons.length - 1 : inHand ? at + move : at;
    buttons[Math.max(0, Math.min(buttons.length - 1, to))].focus();
    return;
  }
  // Enter on a tile (or any button) is the button's own click; elsewhere it discards the tile chosen.
  if (event.key === "Enter" && !target.closest?.("button, a") && play.selected !== null) {
    event.preventDefault();
    buttons[play.selected]?.click();
  }
}

document.addEventListener("DOMContentLoaded", () => {
  detectGlyphs();
  $("new-table").addEventListener("submit", (event) => {
    event.preventDefault();
    openTable();
  });
  $("advice-run").addEventListener("click", askAdvice);
  document.addEventListener("keydown", keys);
  setInterval(tickClock, CLOCK_TICK_MS);
  const current = sessionStorage.getItem(PLAY_STORAGE.current);
  if (current) resume(current);
});
