// entrain's control page: the OSCQuery tree becomes controls; OSC goes both ways over the
// OSCQuery WebSocket (binary frames), so it follows changes made anywhere else.
"use strict";

// ---- OSC encoding and decoding (the subset entrain sends: i, f, d, h, s, T, F, bundles) ----
const enc = new TextEncoder(), dec = new TextDecoder();

function oscString(text) {
  const bytes = enc.encode(text), padded = new Uint8Array((bytes.length + 4) & ~3);
  padded.set(bytes);
  return padded;
}

function oscMessage(address, args) {
  const parts = [oscString(address)];
  let tags = ",";
  const data = [];
  for (const a of args) {
    if (typeof a === "boolean") { tags += a ? "T" : "F"; continue; }
    if (typeof a === "number") {
      tags += "f";
      const b = new Uint8Array(4);
      new DataView(b.buffer).setFloat32(0, a);
      data.push(b);
    } else {
      tags += "s";
      data.push(oscString(String(a)));
    }
  }
  parts.push(oscString(tags), ...data);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

function readString(view, offset) {
  let end = offset;
  while (end < view.byteLength && view.getUint8(end) !== 0) end++;
  const text = dec.decode(new Uint8Array(view.buffer, view.byteOffset + offset, end - offset));
  return [text, (end + 4) & ~3];
}

function decodePacket(view, out) {
  const [head] = readString(view, 0);
  if (head === "#bundle") {
    let o = 16;
    while (o + 4 <= view.byteLength) {
      const size = view.getInt32(o);
      decodePacket(new DataView(view.buffer, view.byteOffset + o + 4, size), out);
      o += 4 + size;
    }
    return out;
  }
  let [address, o] = readString(view, 0);
  let tags;
  [tags, o] = readString(view, o);
  const args = [];
  for (const t of tags.slice(1)) {
    if (t === "f") { args.push(view.getFloat32(o)); o += 4; }
    else if (t === "i") { args.push(view.getInt32(o)); o += 4; }
    else if (t === "d") { args.push(view.getFloat64(o)); o += 8; }
    else if (t === "h") { args.push(Number(view.getBigInt64(o))); o += 8; }
    else if (t === "s" || t === "S") { let s; [s, o] = readString(view, o); args.push(s); }
    else if (t === "T") args.push(true);
    else if (t === "F") args.push(false);
  }
  out.push({ address, args });
  return out;
}

// ---- connection ----
let socket = null;
const controls = new Map();   // address -> {update(value)}
const listened = new Set();

function send(address, ...args) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(oscMessage(address, args));
}

function listen(path) {
  listened.add(path);
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ COMMAND: "LISTEN", DATA: path }));
}

function connect() {
  socket = new WebSocket(`ws://${location.host}/`);
  socket.binaryType = "arraybuffer";
  socket.onopen = () => {
    setText("state", "connected");
    for (const path of listened) socket.send(JSON.stringify({ COMMAND: "LISTEN", DATA: path }));
  };
  socket.onclose = () => { setText("state", "disconnected"); setTimeout(connect, 1000); };
  socket.onmessage = (event) => {
    if (typeof event.data === "string") {
      const command = JSON.parse(event.data);
      if (command.COMMAND === "PATH_ADDED" || command.COMMAND === "PATH_REMOVED") scheduleRebuild();
      return;
    }
    for (const m of decodePacket(new DataView(event.data), [])) receive(m);
  };
}

// ---- incoming ----
function setText(id, text) { const e = document.getElementById(id); if (e) e.textContent = text; }

function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 3600) ? Math.floor(s / 3600) + ":" : ""}${String(Math.floor(s / 60) % 60).padStart(Math.floor(s / 3600) ? 2 : 1, "0")}:${String(s % 60).padStart(2, "0")}`;
}

const session = { position: 0, remaining: 0 };

function receive({ address, args }) {
  const control = controls.get(address);
  if (control) { control.update(args[0]); return; }
  switch (address) {
    case "/meter/entrainment":
      document.getElementById("peak-l").value = Math.max(-60, args[0]);
      document.getElementById("peak-r").value = Math.max(-60, args[1]);
      break;
    case "/beat/bpm": setText("bpm", args[0] > 0 ? args[0].toFixed(1) : "–"); break;
    case "/beat/beat": {
      const dot = document.getElementById("beat-dot");
      dot.classList.add("on");
      setTimeout(() => dot.classList.remove("on"), 100);
      break;
    }
    case "/hrv/hr": setText("hr", args[0] > 0 ? args[0].toFixed(0) : "–"); break;
    case "/hrv/coherence": setText("coherence", args[0].toFixed(2)); break;
    case "/status":
      setText("state", args[0]);
      setText("dsp", `${Number(args[6]).toFixed(1)} %`);
      break;
    case "/session/state": setText("session-stage", args[0] === "idle" ? "" : args[0]); break;
    case "/session/name": setText("session-name", args[0]); break;
    case "/session/position": session.position = args[0]; drawSession(); break;
    case "/session/remaining": session.remaining = args[0]; drawSession(); break;
  }
}

function drawSession() {
  const total = session.position + session.remaining;
  document.getElementById("session-bar").style.width = total > 0 ? `${(100 * session.position / total).toFixed(2)}%` : "0";
  setText("session-position", clock(session.position));
  setText("session-remaining", total > 0 ? `−${clock(session.remaining)}` : "");
}

// ---- the controls, from the OSCQuery tree ----
function methods(node, out) {
  // A value with children of its own carries its access and value under ENTRAIN_ (see the server).
  if (node.TYPE !== undefined && (node.ENTRAIN_ACCESS ?? node.ACCESS) === 3) out.push(node);
  for (const child of Object.values(node.CONTENTS || {})) methods(child, out);
  return out;
}

function format(value) {
  if (typeof value !== "number") return String(value);
  const a = Math.abs(value);
  return a >= 100 ? value.toFixed(0) : a >= 10 ? value.toFixed(1) : value.toFixed(3).replace(/0+$/, "").replace(/\.$/, "");
}

const unitNames = { "frequency.hz": "Hz", "time.s": "s", "time.ms": "ms", "gain.db": "dB" };
// The families in the order a user reaches for them; others follow alphabetically.
const groupOrder = ["entrain", "master", "led", "haptic", "beat", "hrv", "fx", "ambient"];

function makeControl(node) {
  const row = document.createElement("div");
  row.className = "control";
  row.dataset.address = node.FULL_PATH.toLowerCase();
  const label = document.createElement("label");
  const unit = node.UNIT ? ` ${unitNames[node.UNIT[0]] || node.UNIT[0]}` : "";
  label.textContent = node.FULL_PATH.split("/").slice(2).join("/") || node.FULL_PATH;
  label.title = `${node.FULL_PATH} — ${node.DESCRIPTION || ""}`;
  const shown = document.createElement("span");
  shown.className = "value";
  row.append(label, shown);
  const value = node.VALUE ? node.VALUE[0] : node.ENTRAIN_VALUE ? node.ENTRAIN_VALUE[0] : undefined;
  let input, update;
  const range = node.RANGE && node.RANGE[0];
  if (node.TYPE === "f" && range && range.MIN !== undefined) {
    input = document.createElement("input");
    input.type = "range";
    input.min = range.MIN; input.max = range.MAX; input.step = "any";
    let pending = null;
    input.addEventListener("input", () => {
      shown.textContent = format(Number(input.value)) + unit;
      if (pending === null) pending = requestAnimationFrame(() => { pending = null; send(node.FULL_PATH, Number(input.value)); });
    });
    update = (v) => { if (document.activeElement !== input) input.value = v; shown.textContent = format(v) + unit; };
  } else if (node.TYPE === "T") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.addEventListener("change", () => send(node.FULL_PATH, input.checked ? 1 : 0));
    update = (v) => { input.checked = v === true || v === 1; shown.textContent = input.checked ? "on" : "off"; };
  } else if (node.TYPE === "s" && range && range.VALS) {
    input = document.createElement("select");
    for (const option of range.VALS) input.add(new Option(option, option));
    input.addEventListener("change", () => send(node.FULL_PATH, input.value));
    update = (v) => { input.value = v; shown.textContent = ""; };
  } else {
    input = document.createElement("input");
    input.type = "text";
    input.addEventListener("change", () => {
      const n = Number(input.value);
      send(node.FULL_PATH, node.TYPE === "f" && input.value.trim() !== "" && !isNaN(n) ? n : input.value);
    });
    update = (v) => { if (document.activeElement !== input) input.value = v; shown.textContent = unit; };
  }
  input.dataset.address = node.FULL_PATH;
  row.append(input);
  if (value !== undefined) update(value);
  controls.set(node.FULL_PATH, { update });
  return row;
}

async function build() {
  const tree = await (await fetch("/")).json();
  const main = document.getElementById("families");
  main.textContent = "";
  controls.clear();
  const groups = new Map();
  for (const node of methods(tree, [])) {
    const group = node.FULL_PATH.split("/")[1];
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(node);
  }
  const rank = (g) => { const i = groupOrder.indexOf(g); return i < 0 ? groupOrder.length : i; };
  const ordered = [...groups].sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
  for (const [group, nodes] of ordered) {
    const details = document.createElement("details");
    details.open = group !== "ambient";   // 400 Kessho keys: folded until wanted
    const summary = document.createElement("summary");
    summary.innerHTML = `/${group}<small>${nodes.length} ${nodes.length === 1 ? "value" : "values"}</small>`;
    const box = document.createElement("div");
    box.className = "controls";
    for (const node of nodes) box.append(makeControl(node));
    details.append(summary, box);
    main.append(details);
    listen("/" + group);
  }
  for (const path of ["/meter", "/beat", "/session", "/timer", "/hrv"]) listen(path);
  applyFilter();
}

let rebuildTimer = null;
function scheduleRebuild() {
  clearTimeout(rebuildTimer);
  rebuildTimer = setTimeout(build, 300);
}

function applyFilter() {
  const text = document.getElementById("filter").value.toLowerCase();
  for (const row of document.querySelectorAll(".control")) row.classList.toggle("hidden", text !== "" && !row.dataset.address.includes(text));
}

document.getElementById("filter").addEventListener("input", applyFilter);
document.getElementById("panic").addEventListener("click", () => send("/panic"));
document.getElementById("resume").addEventListener("click", () => send("/resume", 1));
for (const button of document.querySelectorAll("[data-send]")) button.addEventListener("click", () => send(button.dataset.send, 1));

connect();
build();
// The DSP load is in /status only: ask once a second.
setInterval(() => send("/status"), 1000);
