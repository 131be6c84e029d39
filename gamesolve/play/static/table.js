// The gamesolve web table: draws the state the server sends and sends the person's actions.
// No build step: plain browser JavaScript. Protocol: gamesolve/play/server.py.
"use strict";

const KEY = "gamesolve-session";  // sessionStorage: one table per browser tab
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
let ws = null;
let sid = null;
let state = null;
let waiting = false;  // an action was sent and its answer has not come yet
let thinking = null;  // {seat, name} of an agent still choosing

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

function chips(x) {
  if (x === null || x === undefined) return "";
  return Number(x).toLocaleString("en-US", { maximumFractionDigits: 2 });
}

// A card: "As" -> A♠ (red for hearts and diamonds), "??" -> a card back, anything else a tile.
function card(text) {
  if (text === "??") return el("span", { class: "card back", title: "hidden" }, "");
  const m = /^([2-9TJQKA])([shdc])$/.exec(text);
  if (m) {
    const rank = m[1] === "T" ? "10" : m[1];
    return el("span", { class: "card " + (m[2] === "h" || m[2] === "d" ? "red" : "black"), title: text }, rank + SUITS[m[2]]);
  }
  return el("span", { class: "card tile", title: text }, text);
}

function setMessage(text, isError) {
  const m = $("message");
  m.textContent = text || "";
  m.className = isError ? "error" : "";
}

// ---- talking to the server ------------------------------------------------------------------
async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), { status: response.status });
  return data;
}

async function newTable() {
  setMessage("dealing…");
  const data = await api("POST", "/api/sessions", {});
  sid = data.session;
  sessionStorage.setItem(KEY, sid);
  render(data);
  connect();
}

function connect() {
  if (ws) ws.close();
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/api/sessions/${sid}/ws`);
  ws.onopen = () => { $("status").textContent = "connected"; };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "thinking") {
      thinking = msg;
      if (state) render(state);
    } else if (msg.type === "state") {
      waiting = false;
      thinking = null;
      render(msg);
    } else if (msg.type === "error") {
      waiting = false;
      if (msg.status === 404) {  // the server forgot this table (restarted): start another
        sessionStorage.removeItem(KEY);
        newTable().catch((e) => setMessage(e.message, true));
        return;
      }
      setMessage(msg.message, true);
      if (state) render(state);
    }
  };
  ws.onclose = (event) => {
    $("status").textContent = "disconnected";
    if (event.code !== 4404 && event.target === ws) setTimeout(() => { if (event.target === ws) connect(); }, 1000);
  };
}

function send(message) {
  if (!ws || ws.readyState !== WebSocket.OPEN || waiting) return;
  waiting = true;
  setMessage("");
  setControls(false);
  ws.send(JSON.stringify(message));
}

const act = (text) => send({ type: "action", action: text });

// ---- drawing the state ----------------------------------------------------------------------
function render(s) {
  state = s;
  document.body.dataset.inHand = String(s.in_hand);
  document.body.dataset.yourTurn = String(s.your_turn);
  document.body.dataset.handsPlayed = String(s.result.hands);
  document.body.dataset.hand = String(s.hand);
  document.body.dataset.over = String(s.over);
  const players = s.table ? s.table.seats.length : "";
  $("game").textContent = `${s.game} · ${players} players · hand ${s.hand}${s.hands_limit ? " of " + s.hands_limit : ""} · you are in seat ${s.seat}`;
  $("game").title = s.describe;
  if (thinking) $("status").textContent = `${thinking.name} is thinking…`;
  else if (s.your_turn) $("status").textContent = "your turn";
  else if (!s.in_hand) $("status").textContent = s.over ? "session over" : "hand over";
  drawSeats(s);
  drawCenter(s);
  drawLog(s);
  drawControls(s);
  drawSession(s);
}

function drawSeats(s) {
  const box = $("seats");
  box.replaceChildren();
  if (!s.table) return;
  const n = s.table.seats.length;
  s.table.seats.forEach((seat) => {
    // The person sits at the bottom; the others around the oval, clockwise.
    const k = (seat.seat - s.seat + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    const x = 50 + 42 * Math.cos(angle);
    const y = 50 + 40 * Math.sin(angle);
    const div = el("div", { class: "seat", "data-seat": String(seat.seat) });
    div.style.left = x + "%";
    div.style.top = y + "%";
    if (seat.seat === s.seat) div.classList.add("you");
    if (seat.seat === s.to_act && s.in_hand) div.classList.add("to-act");
    if (seat.status) div.classList.add(seat.status.replace(/[^a-z]/g, ""));
    const head = el("div", { class: "who" });
    head.append(el("span", { class: "name" }, seat.seat === s.seat ? "you" : seat.name));
    if (seat.position) head.append(el("span", { class: "position" }, seat.position));
    div.append(head);
    const cards = el("div", { class: "cards" });
    seat.cards.forEach((c) => cards.append(card(c)));
    div.append(cards);
    if (seat.stack !== null) div.append(el("div", { class: "stack" }, chips(seat.stack)));
    if (seat.bet) div.append(el("div", { class: "bet" }, chips(seat.bet)));
    if (seat.status) div.append(el("div", { class: "status" }, seat.status));
    if (thinking && thinking.seat === seat.seat) div.append(el("div", { class: "thinking" }, "thinking…"));
    box.append(div);
  });
}

function drawCenter(s) {
  const t = s.table || { board: [], lines: [] };
  $("stage").textContent = t.stage || "";
  const board = $("board");
  board.replaceChildren(...t.board.map(card));
  $("pot").textContent = t.pot !== null && t.pot !== undefined ? "pot " + chips(t.pot) : "";
  $("lines").replaceChildren(...t.lines.map((line) => el("div", {}, line)));
}

function drawLog(s) {
  const log = $("log");
  log.replaceChildren();
  let stage = null;
  s.log.forEach((e) => {
    if (e.stage !== stage) {
      stage = e.stage;
      if (stage) log.append(el("li", { class: "stage" }, stage));
    }
    const who = e.you ? "you" : e.name;
    const where = e.position ? ` (${e.position})` : "";
    const took = e.ms !== null ? ` · ${e.ms < 10 ? e.ms.toFixed(1) : Math.round(e.ms)} ms` : "";
    log.append(el("li", { class: e.you ? "mine" : "" }, `${who}${where}: ${e.text}${took}`));
  });
  log.scrollTop = log.scrollHeight;
}

function setControls(enabled) {
  document.querySelectorAll("#controls button, #controls input").forEach((b) => { b.disabled = !enabled; });
}

function drawControls(s) {
  const choices = $("choices");
  choices.replaceChildren();
  const amount = $("amount");
  const menu = s.menu;
  if (menu) {
    menu.choices.forEach((c) => {
      const b = el("button", { type: "button", "data-key": c.key, class: "choice" }, c.label);
      b.addEventListener("click", () => act(c.key));
      choices.append(b);
    });
  }
  if (menu && menu.amount) {
    const a = menu.amount;
    amount.hidden = false;
    const slider = $("slider");
    const box = $("amount-box");
    slider.min = box.min = a.min;
    slider.max = box.max = a.max;
    const start = (a.presets.find((p) => p.label !== "min") || a.presets[0] || { amount: a.min }).amount;
    slider.value = box.value = start;
    $("raise").textContent = a.label === "bet" ? "Bet" : "Raise to";
    const presets = $("presets");
    presets.replaceChildren();
    a.presets.forEach((p) => {
      const b = el("button", { type: "button", class: "preset", "data-amount": String(p.amount) }, p.label);
      b.title = `${chips(p.amount)}${p.note ? " · " + p.note : ""}`;
      b.addEventListener("click", () => { slider.value = box.value = p.amount; noteAmount(); });
      presets.append(b);
    });
    noteAmount();
  } else {
    amount.hidden = true;
  }
  const hand = $("next-row");
  hand.hidden = s.in_hand;
  $("next").hidden = s.over;
  $("hand-result").textContent = s.last_hand ? s.last_hand.text : "";
  setControls(!waiting);
}

function noteAmount() {
  const a = state && state.menu && state.menu.amount;
  if (!a) return;
  const value = Number($("amount-box").value);
  const preset = a.presets.find((p) => p.amount === value);
  $("amount-note").textContent = preset && preset.note ? preset.note : "";
}

function drawSession(s) {
  $("result").textContent = s.result.line;
  const link = $("history");
  if (s.history) {
    link.hidden = false;
    link.href = s.history;
  } else {
    link.hidden = true;
  }
  const coachBox = $("coach-box");
  const coach = $("coach");
  coach.replaceChildren();
  if (s.coach && s.coach.notes.length) {
    coachBox.hidden = false;
    $("coach-title").textContent = `Coach: what ${s.coach.name} would do with your cards`;
    s.coach.notes.forEach((n) => {
      const li = el("li");
      li.append(el("div", { class: "chose" }, `${n.stage ? n.stage + ": " : ""}you: ${n.chose}`));
      const bars = el("div", { class: "bars" });
      n.strategy.filter((x) => x.p >= 0.005).forEach((x) => {
        const row = el("div", { class: "bar" });
        const fill = el("span", { class: "fill" });
        fill.style.width = Math.round(100 * x.p) + "%";
        row.append(fill, el("span", { class: "label" }, `${x.action} ${Math.round(100 * x.p)}%`));
        bars.append(row);
      });
      li.append(bars);
      coach.append(li);
    });
  } else {
    coachBox.hidden = true;
  }
}

// ---- wiring ---------------------------------------------------------------------------------
function wire() {
  const slider = $("slider");
  const box = $("amount-box");
  slider.addEventListener("input", () => { box.value = slider.value; noteAmount(); });
  box.addEventListener("input", () => { slider.value = box.value; noteAmount(); });
  $("raise").addEventListener("click", () => act(`r ${box.value}`));
  box.addEventListener("keydown", (e) => { if (e.key === "Enter") act(`r ${box.value}`); });
  $("next").addEventListener("click", () => send({ type: "next" }));
  $("new-table").addEventListener("click", () => {
    sessionStorage.removeItem(KEY);
    if (ws) { const old = ws; ws = null; old.close(); }
    newTable().catch((e) => setMessage(e.message, true));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || !state) return;
    if (state.your_turn) {
      const choice = state.menu && state.menu.choices.find((c) => c.key === e.key.toLowerCase());
      if (choice) act(choice.key);
    } else if (!state.in_hand && !state.over && (e.key === "Enter" || e.key === "n")) {
      send({ type: "next" });
    }
  });
}

async function start() {
  wire();
  sid = sessionStorage.getItem(KEY);
  if (sid) {
    try {
      render(await api("GET", `/api/sessions/${sid}`));
      connect();
      return;
    } catch (e) {
      sessionStorage.removeItem(KEY);
    }
  }
  await newTable();
}

start().catch((e) => setMessage(e.message, true));
