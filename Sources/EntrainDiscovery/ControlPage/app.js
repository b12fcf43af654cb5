// entrain's control page. Every control is made from the OSCQuery tree (values with their ranges
// and curves, commands with their arguments and the names they may take) and carries its OSC
// address in `data-osc`; OSC goes both ways over the OSCQuery WebSocket (binary frames), so the
// page follows changes made anywhere else. PANIC is in the page itself: it works before the tree.
"use strict";

// ---- OSC encoding and decoding (the subset entrain sends: i, f, d, h, s, T, F, bundles) ----
const enc = new TextEncoder(), dec = new TextDecoder();

function oscString(text) {
  const bytes = enc.encode(text), padded = new Uint8Array((bytes.length + 4) & ~3);
  padded.set(bytes);
  return padded;
}

// Arguments: booleans as T/F, numbers as f (or i when wrapped as {i: n}), anything else as s.
function oscMessage(address, args) {
  const parts = [oscString(address)];
  let tags = ",";
  const data = [];
  for (const a of args) {
    if (typeof a === "boolean") { tags += a ? "T" : "F"; continue; }
    const b = new Uint8Array(4), view = new DataView(b.buffer);
    if (typeof a === "number") { tags += "f"; view.setFloat32(0, a); data.push(b); }
    else if (a && typeof a.i === "number") { tags += "i"; view.setInt32(0, a.i); data.push(b); }
    else { tags += "s"; data.push(oscString(String(a))); }
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
const listened = new Set();

// False when the connection is down: nothing was sent (the caller says so where it matters).
function send(address, ...args) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(oscMessage(address, args));
  return true;
}

function listen(path) {
  if (listened.has(path)) return;
  listened.add(path);
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ COMMAND: "LISTEN", DATA: path }));
}

function connect() {
  socket = new WebSocket(`ws://${location.host}/`);
  socket.binaryType = "arraybuffer";
  socket.onopen = () => {
    setState("connected", "ok");
    for (const path of listened) socket.send(JSON.stringify({ COMMAND: "LISTEN", DATA: path }));
    poll();
  };
  socket.onclose = () => { setState("disconnected", "bad"); setTimeout(connect, 1000); };
  socket.onmessage = (event) => {
    if (typeof event.data === "string") {
      const command = JSON.parse(event.data);
      if (command.COMMAND === "PATH_ADDED" || command.COMMAND === "PATH_REMOVED") scheduleRebuild();
      return;
    }
    for (const m of decodePacket(new DataView(event.data), [])) receive(m);
  };
}

// ---- small helpers ----
const $ = (id) => document.getElementById(id);
function setText(id, text) { const e = $(id); if (e) e.textContent = text; }
function setState(text, tone) { setText("state", text); $("state-lamp").dataset.tone = tone; }

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "data") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}

function clock(seconds) {
  const s = Math.max(0, Math.round(seconds)), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  return `${h ? h + ":" + String(m).padStart(2, "0") : m}:${String(s % 60).padStart(2, "0")}`;
}

function format(value) {
  if (typeof value !== "number") return String(value);
  const a = Math.abs(value);
  return a >= 100 ? value.toFixed(0) : a >= 10 ? value.toFixed(1) : value.toFixed(3).replace(/0+$/, "").replace(/\.$/, "");
}

const unitNames = { "frequency.hz": "Hz", "time.s": "s", "time.ms": "ms", "gain.db": "dB" };
const unitOf = (node) => (node.UNIT ? unitNames[node.UNIT[0]] || node.UNIT[0] : "");
const lastName = (path) => path.split("/").filter(Boolean).slice(-1)[0] || path;
const words = (name) => name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[-_/]/g, " ");

let toastTimer = null;
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.classList.add("on");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.remove("on"), 5000);
}

// ---- incoming: controls register what they show, readouts below ----
const watchers = new Map();   // address -> [update(args)]
function watch(address, update) {
  if (!watchers.has(address)) watchers.set(address, []);
  watchers.get(address).push(update);
}

function receive({ address, args }) {
  for (const update of watchers.get(address) || []) update(args);
  if (address === "/error") toast(`${args[0] || "error"}: ${args[1] || ""}`);
}

// ---- the tree ----
let tree = null;
const nodes = new Map();   // path -> node

function collect(node) {
  if (node.FULL_PATH) nodes.set(node.FULL_PATH, node);
  for (const child of Object.values(node.CONTENTS || {})) collect(child);
}

const access = (n) => n.ENTRAIN_ACCESS ?? n.ACCESS;
const isCommand = (n) => Array.isArray(n.ENTRAIN_ARGUMENTS);
const isValue = (n) => n.TYPE !== undefined && !isCommand(n) && (n.VALUE !== undefined || n.ENTRAIN_VALUE !== undefined || access(n) === 3);
const isReadout = (n) => n.TYPE !== undefined && !isCommand(n) && access(n) === 1;
const valueOf = (n) => (n.VALUE ? n.VALUE[0] : n.ENTRAIN_VALUE ? n.ENTRAIN_VALUE[0] : undefined);

// ---- faders: the parameter's own curve, relative drag, a field for exact values, fine drag ----
function curve(node) {
  const r = node.RANGE[0], min = r.MIN, max = r.MAX, step = node.ENTRAIN_STEP;
  const log = node.ENTRAIN_CURVE === "logarithmic" && min > 0;
  const clamp = (v) => Math.min(max, Math.max(min, v));
  return {
    min, max, log,
    toNorm: (v) => (max === min ? 0 : log ? Math.log(v / min) / Math.log(max / min) : (v - min) / (max - min)),
    fromNorm: (x) => {
      x = Math.min(1, Math.max(0, x));
      const v = log ? min * Math.pow(max / min, x) : min + x * (max - min);
      return clamp(step ? Math.round(v / step) * step : v);
    },
    clamp,
  };
}

function makeFader(node, label) {
  const path = node.FULL_PATH, c = curve(node), unit = unitOf(node);
  const fill = el("div", { class: "fill" });
  const shown = el("span", { class: "value" });
  const track = el("div", {
    class: "fader", role: "slider", tabindex: "0", "aria-label": label || path,
    "aria-valuemin": c.min, "aria-valuemax": c.max, data: { osc: path, curve: c.log ? "logarithmic" : "linear" },
  }, fill, el("span", { class: "name" }, label || words(lastName(path))), shown);
  const field = el("input", { class: "exact", type: "text", inputmode: "decimal", "aria-label": `${path} exact value`, data: { osc: path } });
  let value = valueOf(node), norm = c.toNorm(value ?? c.min), dragging = null, pending = null;

  function show(v) {
    value = v;
    fill.style.width = `${(100 * Math.min(1, Math.max(0, c.toNorm(v)))).toFixed(2)}%`;
    shown.textContent = format(v) + (unit ? ` ${unit}` : "");
    track.setAttribute("aria-valuenow", v);
    if (document.activeElement !== field) field.value = format(v);
  }
  function set(v) {
    show(v);
    if (pending === null) pending = requestAnimationFrame(() => { pending = null; send(path, value); });
  }
  // Relative: a press changes nothing; a move adds its distance (the track's width is the
  // whole range), a tenth of it with Shift or with the finger pulled more than 48 px off the fader.
  track.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    track.setPointerCapture(e.pointerId);
    dragging = { x: e.clientX, id: e.pointerId };
    norm = c.toNorm(value ?? c.min);
    track.classList.add("active");
  });
  track.addEventListener("pointermove", (e) => {
    if (!dragging || e.pointerId !== dragging.id) return;
    const box = track.getBoundingClientRect();
    const off = Math.max(0, box.top - e.clientY, e.clientY - box.bottom);
    const fine = e.shiftKey || off > 48;
    norm = Math.min(1, Math.max(0, norm + ((e.clientX - dragging.x) / box.width) * (fine ? 0.1 : 1)));
    dragging.x = e.clientX;
    track.classList.toggle("fine", fine);
    set(c.fromNorm(norm));
  });
  const end = () => { dragging = null; track.classList.remove("active", "fine"); };
  track.addEventListener("pointerup", end);
  track.addEventListener("pointercancel", end);
  track.addEventListener("keydown", (e) => {
    const delta = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[e.key];
    if (!delta) return;
    e.preventDefault();
    norm = Math.min(1, Math.max(0, c.toNorm(value ?? c.min) + delta * (e.shiftKey ? 0.001 : 0.01)));
    set(c.fromNorm(norm));
  });
  track.addEventListener("dblclick", () => field.focus());
  field.addEventListener("change", () => {
    const n = Number(field.value.replace(",", "."));
    if (field.value.trim() === "" || !isFinite(n)) { show(value); return; }
    set(c.clamp(n));
  });
  watch(path, (args) => { if (!dragging && typeof args[0] === "number") show(args[0]); });
  if (value !== undefined) show(value);
  return el("div", { class: "control fader-row", data: { address: path } }, track, field);
}

function makeToggle(node, label) {
  const path = node.FULL_PATH;
  const button = el("button", { class: "toggle", "aria-pressed": "false", data: { osc: path }, title: node.DESCRIPTION }, label || words(lastName(path)));
  const show = (v) => button.setAttribute("aria-pressed", String(v === true || v === 1));
  button.addEventListener("click", () => send(path, button.getAttribute("aria-pressed") !== "true"));
  watch(path, (args) => show(args[0]));
  show(valueOf(node));
  return el("div", { class: "control", data: { address: path } }, button);
}

// A person's decision (arming the strobe) is not offered here: the page shows it, and can only
// undo it (disarming is always safe). Arm from the command line (--arm-strobe) or OSC.
function makePersonOnly(node, label) {
  const path = node.FULL_PATH;
  const state = el("b", { data: { readout: path } }, "–");
  const off = el("button", { data: { osc: path }, onclick: () => send(path, false) }, "Disarm");
  const show = (armed) => { state.textContent = armed ? "ARMED" : "off"; state.classList.toggle("warn", armed); };
  watch(path, (args) => show(args[0] === true));
  const v = valueOf(node);
  if (v !== undefined) show(v === true);  // armed before the page loaded: the warning shows at once
  return el("div", { class: "control person-only", data: { address: path }, title: `${node.DESCRIPTION} (not from this page)` },
    el("label", {}, label || words(lastName(path))), state, off);
}

function makeChoice(node, label) {
  const path = node.FULL_PATH;
  const select = el("select", { data: { osc: path }, "aria-label": path });
  for (const option of node.RANGE[0].VALS) select.add(new Option(option, option));
  select.addEventListener("change", () => send(path, select.value));
  watch(path, (args) => { select.value = String(args[0]); });
  if (valueOf(node) !== undefined) select.value = String(valueOf(node));
  return el("div", { class: "control", data: { address: path } }, el("label", {}, label || words(lastName(path))), select);
}

function makeText(node, label) {
  const path = node.FULL_PATH;
  const input = el("input", { type: "text", data: { osc: path }, "aria-label": path });
  input.addEventListener("change", () => {
    const n = Number(input.value);
    send(path, node.TYPE === "f" && input.value.trim() !== "" && !isNaN(n) ? n : input.value);
  });
  watch(path, (args) => { if (document.activeElement !== input) input.value = args[0]; });
  if (valueOf(node) !== undefined) input.value = valueOf(node);
  return el("div", { class: "control", data: { address: path } }, el("label", {}, label || words(lastName(path))), input);
}

function makeReadout(node, label) {
  const path = node.FULL_PATH, unit = unitOf(node);
  const shown = el("b", { data: { readout: path } }, "–");
  const show = (args) => { shown.textContent = args.map(format).join(" ") + (unit ? ` ${unit}` : ""); };
  watch(path, show);
  if (valueOf(node) !== undefined) show([valueOf(node)]);
  return el("div", { class: "control readout", data: { address: path }, title: node.DESCRIPTION }, el("label", {}, label || words(lastName(path))), shown);
}

function makeValue(node, label) {
  const range = node.RANGE && node.RANGE[0];
  if (node.ENTRAIN_PERSON_ONLY) return makePersonOnly(node, label);
  if (isReadout(node)) return makeReadout(node, label);
  if (node.TYPE === "f" && range && range.MIN !== undefined) return makeFader(node, label);
  if (node.TYPE === "T") return makeToggle(node, label);
  if (node.TYPE === "s" && range && range.VALS && range.VALS.length <= 64) return makeChoice(node, label);
  return makeText(node, label);
}

// ---- commands: a button, or the arguments' fields and a button ----
function argumentField(command, argument) {
  const name = `${command.FULL_PATH} ${argument.NAME}`;
  if (argument.VALS) {
    const select = el("select", { "aria-label": name, data: { osc: command.FULL_PATH, argument: argument.NAME, catalog: "1" } });
    fillOptions(select, argument.VALS);
    // The store may have changed since the tree was read: read it again when the menu is opened.
    select.addEventListener("focus", () => refreshCatalog(command.FULL_PATH));
    return select;
  }
  const numeric = /[fidh]/.test(argument.TYPE[0]);
  return el("input", { type: "text", inputmode: numeric ? "decimal" : "text", placeholder: argument.NAME + (argument.OPTIONAL ? " (optional)" : ""),
    "aria-label": name, data: { osc: command.FULL_PATH, argument: argument.NAME } });
}

function fillOptions(select, names) {
  const kept = select.value;
  select.textContent = "";
  for (const name of names) select.add(new Option(name, name));
  if (names.length === 0) select.add(new Option("none stored", "", true, true));
  select.options[0].disabled = names.length === 0;
  if (names.includes(kept)) select.value = kept;
}

async function refreshCatalog(path) {
  try {
    const node = await (await fetch(path)).json();
    for (const argument of node.ENTRAIN_ARGUMENTS || []) {
      if (!argument.VALS) continue;
      for (const select of document.querySelectorAll(`select[data-osc="${path}"][data-argument="${argument.NAME}"]`)) fillOptions(select, argument.VALS);
      for (const box of document.querySelectorAll(`.chooser[data-address="${path}"]`)) fillChooser(box, path, argument.VALS);
    }
  } catch (_) { /* offline: keep what is shown */ }
}

// Every command whose arguments name stored things, read again (a preset saved elsewhere shows up).
function refreshCatalogs() {
  for (const n of nodes.values()) if (isCommand(n) && n.ENTRAIN_ARGUMENTS.some((a) => a.VALS)) refreshCatalog(n.FULL_PATH);
}

function commandArguments(fields, arguments_) {
  const out = [];
  for (let i = 0; i < arguments_.length; i++) {
    const a = arguments_[i], text = fields[i].value.trim();
    if (text === "") { if (a.OPTIONAL) break; return null; }
    if (/[ih]/.test(a.TYPE) && !a.TYPE.includes("f")) out.push({ i: Math.round(Number(text)) });
    else if (/[fd]/.test(a.TYPE[0])) out.push(Number(text.replace(",", ".")));
    else out.push(text);
  }
  return out;
}

function makeCommand(node, label, verb) {
  const path = node.FULL_PATH, args = node.ENTRAIN_ARGUMENTS;
  const title = label || words(path.split("/").filter(Boolean).slice(1).join(" ") || lastName(path));
  if (node.ENTRAIN_BUTTON || args.length === 0) {
    return el("button", { class: "command", data: { osc: path }, title: node.DESCRIPTION, onclick: () => send(path) }, title);
  }
  const fields = args.map((a) => argumentField(node, a));
  const go = el("button", { class: "command", data: { osc: path }, title: node.DESCRIPTION }, verb || title);
  go.addEventListener("click", () => {
    const values = commandArguments(fields, args);
    if (values === null) { toast(`${path}: ${args.filter((a) => !a.OPTIONAL).map((a) => a.NAME).join(", ")} needed`); return; }
    send(path, ...values);
  });
  return el("div", { class: "control command-form", data: { address: path }, title: node.DESCRIPTION },
    el("label", {}, label || words(path.slice(1))), el("div", { class: "fields" }, ...fields, go));
}

// A command taking one stored name: a button per name (few) or a menu and a button (many).
function makeChooser(node, verb) {
  const argument = node.ENTRAIN_ARGUMENTS[0];
  const box = el("div", { class: "chooser", data: { address: node.FULL_PATH } });
  box.dataset.verb = verb;
  box.dataset.argument = argument.NAME;
  fillChooser(box, node.FULL_PATH, argument.VALS || []);
  return el("div", { class: "control", title: node.DESCRIPTION }, el("label", {}, argument.CATALOG || argument.NAME), box);
}

// Names read again (on focus, every 15 s) change the menu's options in place: a menu rebuilt
// while open would close on a desktop and lose a phone's pick, and Load would send the first name.
function fillChooser(box, path, names) {
  const menu = box.querySelector("select");
  if (menu && names.length > 6) { fillOptions(menu, names); return; }
  const shown = [...box.querySelectorAll("button.choice")].map((b) => b.dataset.name);
  if (!menu && names.length <= 6 && names.length > 0 && shown.join("\n") === names.join("\n")) return;
  box.textContent = "";
  if (names.length === 0) { box.append(el("span", { class: "dim" }, "none stored")); return; }
  if (names.length <= 6) {
    for (const name of names) box.append(el("button", { class: "choice", data: { osc: path, name }, onclick: () => send(path, name) }, words(name)));
    return;
  }
  const select = el("select", { "aria-label": path, data: { osc: path, argument: box.dataset.argument, catalog: "1" } });
  fillOptions(select, names);
  select.addEventListener("focus", () => refreshCatalog(path));
  box.append(select, el("button", { class: "command", data: { osc: path }, onclick: () => send(path, select.value) }, box.dataset.verb));
}

// ---- the show view: what a performer reaches for, in thumb order ----
function card(title, ...children) {
  const items = children.filter(Boolean);
  return items.length ? el("section", { class: "card" }, el("h2", {}, title), ...items) : null;
}

function row(...children) {
  const items = children.filter(Boolean);
  return items.length ? el("div", { class: "row" }, ...items) : null;
}

function value(path, label) { const n = nodes.get(path); return n && (isValue(n) || isReadout(n)) ? makeValue(n, label) : null; }
function command(path, label, verb) { const n = nodes.get(path); return n && isCommand(n) ? makeCommand(n, label, verb) : null; }
function chooser(path, verb) { const n = nodes.get(path); return n && isCommand(n) && n.ENTRAIN_ARGUMENTS.length ? makeChooser(n, verb) : null; }

function lampReadout(id, label) {
  return el("div", { class: "stat" }, el("span", {}, label), el("b", { id }, "–"));
}

function buildShow() {
  const show = $("view-show");
  show.textContent = "";
  const timer = nodes.get("/timer/minutes");
  const timerBox = timer && isCommand(timer) ? el("div", { class: "row" },
    // The generated layouts' presets too (ShowSurface.timerMinutes); "custom" sets any other.
    ...[10, 20, 30, 60].map((m) => el("button", { class: "choice", data: { osc: "/timer/minutes", minutes: m }, onclick: () => send("/timer/minutes", m) }, `${m} min`))) : null;
  const custom = timer && isCommand(timer) ? makeCommand(timer, "custom", "Set") : null;
  show.append(...[
    card("Output",
      row(command("/resume", "▶ Play"), command("/session/stop", "■ Stop")),
      value("/entrain/volume", "entrainment volume")),
    card("Ambient",
      row(command("/ambient/play", "▶ Play"), command("/ambient/stop", "■ Stop"), lampReadout("ambient-playing", "")),
      value("/ambient/masterVolume", "ambient volume"),
      chooser("/ambient/preset/load", "Load")),
    card("Session",
      el("div", { class: "session-head" }, el("b", { id: "session-name" }, "no session"), el("span", { id: "session-state", class: "badge" }),
        el("span", { id: "session-stage", class: "dim" })),
      nodes.has("/session/position") ? el("div", { class: "timeline", id: "timeline", data: { osc: "/session/seek" }, title: "tap to seek (/session/seek)" },
        el("div", { id: "session-bar" })) : null,
      el("div", { class: "times" }, el("span", { id: "session-position" }, "0:00"), el("span", { id: "session-remaining" })),
      row(command("/session/play", "▶"), command("/session/pause", "❚❚"), command("/session/stop", "■"), command("/session/restart", "⟲")),
      chooser("/session/load", "Load"),
      chooser("/playlist/play", "Play")),
    card("Timer",
      el("div", { class: "session-head" }, el("b", { id: "timer-left", data: { readout: "/timer/remaining" } }, "no timer")),
      timerBox, row(custom, command("/timer/cancel", "Cancel"))),
    card("Presets", chooser("/preset/load", "Load")),
    card("Haptic patterns", chooser("/haptic/pattern", "Play"), row(command("/haptic/pattern/stop", "■ Stop pattern"))),
    card("Beat",
      el("div", { class: "stats" }, lampReadout("bpm", "BPM"), lampReadout("confidence", "confidence"), el("i", { id: "beat-lamp", class: "lamp big" }))),
    card("Heart",
      el("div", { class: "stats" }, lampReadout("hr", "HR"), lampReadout("breath", "breath/min"), lampReadout("coherence", "coherence"), lampReadout("hrv-mode", "mode")),
      el("div", { class: "pacer-box" }, el("div", { id: "pacer", class: "pacer", title: "breathing pacer" }), value("/hrv/pacer", "pacer"))),
    card("Engine",
      el("div", { class: "stats" }, lampReadout("server", "server"), lampReadout("xruns", "xruns"), lampReadout("slowest", "slowest period"),
        lampReadout("dsp", "DSP"), lampReadout("thermal", "thermal"))),
  ].filter(Boolean));
  const timeline = $("timeline");
  if (timeline) timeline.addEventListener("click", (e) => {
    const box = timeline.getBoundingClientRect(), total = session.position + session.remaining;
    if (total > 0) send("/session/seek", total * Math.min(1, Math.max(0, (e.clientX - box.left) / box.width)));
  });
}

// ---- readouts ----
const session = { position: 0, remaining: 0 };
const timer = { remaining: -1, at: 0 };

function drawSession() {
  const total = session.position + session.remaining, bar = $("session-bar");
  if (bar) bar.style.width = total > 0 ? `${(100 * session.position / total).toFixed(2)}%` : "0";
  setText("session-position", clock(session.position));
  setText("session-remaining", total > 0 ? `−${clock(session.remaining)}` : "");
}

function drawTimer() {
  const left = timer.remaining < 0 ? -1 : timer.remaining - (performance.now() - timer.at) / 1000;
  setText("timer-left", left < 0 ? "no timer" : `${clock(left)} left`);
}

function readouts() {
  watch("/meter/entrainment", (args) => {
    args.slice(0, 2).forEach((db, i) => { $(i ? "peak-r" : "peak-l").style.width = `${Math.max(0, Math.min(100, (db + 60) / 0.6)).toFixed(1)}%`; });
  });
  watch("/beat/bpm", (a) => setText("bpm", a[0] > 0 ? a[0].toFixed(1) : "–"));
  watch("/beat/confidence", (a) => setText("confidence", a[0].toFixed(2)));
  watch("/beat/beat", () => {
    const lamp = $("beat-lamp");
    if (!lamp) return;
    lamp.classList.add("on");
    setTimeout(() => lamp.classList.remove("on"), 100);
  });
  watch("/hrv/hr", (a) => setText("hr", a[0] > 0 ? a[0].toFixed(0) : "–"));
  watch("/hrv/breath", (a) => { pacer.breath = a[0]; setText("breath", a[0] > 0 ? a[0].toFixed(1) : "–"); });
  watch("/hrv/coherence", (a) => setText("coherence", a[0].toFixed(2)));
  watch("/hrv/mode", (a) => setText("hrv-mode", a[0] ? `${a[0]}${a.length > 1 ? ` ${Math.round(100 * a[1])} %` : ""}` : "–"));
  watch("/hrv/pacer", (a) => { pacer.on = a[0] === true; });
  watch("/hrv/pacer/rate", (a) => { pacer.rate = a[0]; });
  watch("/led/thermal/state", (a) => { setText("thermal", a[0]); $("thermal").classList.toggle("warn", a[0] !== "nominal"); });
  watch("/status", (a) => {
    const panic = a[8] === 1;
    setState(panic ? "PANIC" : a[0], panic ? "bad" : a[0] === "running" ? "ok" : "idle");
    document.body.classList.toggle("panicked", panic);
    setText("dsp", `${Number(a[6]).toFixed(1)} %`);
    setText("xruns", String(a[5]));
    setText("server", `${a[10] ?? "–"}${a[11] ? ` · ${a[11]}` : ""}`);
    setText("slowest", a[13] !== undefined ? `${Number(a[13]).toFixed(0)} %` : "–");
  });
  watch("/ambient/status", (a) => { setText("ambient-playing", a[0] === 1 ? "playing" : "stopped"); $("ambient-playing").classList.toggle("on", a[0] === 1); });
  watch("/session/state", (a) => setText("session-state", a[0] === "idle" ? "" : a[0]));
  watch("/session/name", (a) => setText("session-name", a[0]));
  watch("/session/stage", (a) => setText("session-stage", `${a[0]}. ${a[1] || ""}`));
  watch("/session/position", (a) => { session.position = a[0]; drawSession(); });
  watch("/session/remaining", (a) => { session.remaining = a[0]; drawSession(); });
  watch("/timer/remaining", (a) => { timer.remaining = a[0]; timer.at = performance.now(); drawTimer(); });
  watch("/pong", (a) => { document.body.dataset.pong = String(a[0]); });
}

// The pacer: the first target's fader position while the pacer runs (what the listener feels),
// else a breath at the pacer's or the measured rate.
const pacer = { on: false, rate: 6, breath: 0, level: null, seen: 0 };
function animatePacer(now) {
  const circle = $("pacer");
  if (circle) {
    let level;
    if (pacer.on && pacer.level !== null && now - pacer.seen < 1500) level = pacer.level;
    else {
      const rate = pacer.on && pacer.rate > 0 ? pacer.rate : pacer.breath;
      level = rate > 0 ? 0.5 - 0.5 * Math.cos((2 * Math.PI * rate * now) / 60000) : 0;
    }
    circle.style.transform = `scale(${(0.35 + 0.65 * level).toFixed(3)})`;
  }
  drawTimer();
  requestAnimationFrame(animatePacer);
}

function watchPacerTarget() {
  const targets = nodes.get("/hrv/pacer/targets");
  const first = String(targets ? valueOf(targets) || "" : "").split(",")[0].trim();
  if (first) watch(first + "/norm", (a) => { pacer.level = a[0]; pacer.seen = performance.now(); });
}

// ---- detail views: per family, every value and command of its addresses ----
const views = [
  ["show", "Show", []],
  ["entrain", "Entrainment", ["/entrain", "/master", "/mix", "/spin", "/bell", "/cue"]],
  ["ambient", "Ambient", ["/ambient"]],
  ["light", "Light", ["/led"]],
  ["haptic", "Haptic", ["/haptic"]],
  ["beat", "Beat", ["/beat"]],
  ["hrv", "HRV", ["/hrv"]],
  ["inserts", "Inserts", ["/fx"]],
  ["rig", "Rig", ["/dmx", "/midi", "/link"]],
  ["library", "Library", ["/preset", "/playlist", "/session", "/timer"]],
];
const viewOf = (path) => {
  for (const [id, , prefixes] of views) if (prefixes.some((p) => path === p || path.startsWith(p + "/"))) return id;
  return "more";
};

function groupKey(path, counts) {
  const parts = path.split("/").filter(Boolean);
  for (let depth = parts.length - 1; depth > 1; depth--) {
    const key = "/" + parts.slice(0, depth).join("/");
    if ((counts.get(key) || 0) >= 3) return key;
  }
  return "/" + parts[0];
}

function buildDetails() {
  const main = $("pages");
  for (const old of main.querySelectorAll(".view.detail")) old.remove();
  const byView = new Map();
  // The client's own commands (/panic, /resume, /status) are in the dock and the show view.
  const shown = [...nodes.values()].filter((n) => (isValue(n) || isReadout(n) || isCommand(n)) && n.FULL_PATH.split("/").length > 2);
  const counts = new Map();
  for (const n of shown) {
    const parts = n.FULL_PATH.split("/").filter(Boolean);
    for (let d = 1; d < parts.length; d++) { const k = "/" + parts.slice(0, d).join("/"); counts.set(k, (counts.get(k) || 0) + 1); }
  }
  for (const n of shown) {
    // Queries and answers (/status, /playlist/show): the page asks what it shows itself, and a
    // form whose reply no one would see is no control.
    if (isCommand(n) && n.ENTRAIN_ANSWERS_ONLY) continue;
    const view = viewOf(n.FULL_PATH);
    if (!byView.has(view)) byView.set(view, new Map());
    const groups = byView.get(view), key = groupKey(n.FULL_PATH, counts);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(n);
  }
  const present = views.filter(([id]) => id === "show" || byView.has(id));
  if (byView.has("more")) present.push(["more", "More", []]);
  for (const [id] of present) {
    if (id === "show") continue;
    const section = el("section", { class: "view detail", id: `view-${id}`, data: { view: id } });
    const filter = el("input", { type: "search", class: "filter", placeholder: "Filter addresses…", "aria-label": "filter addresses" });
    filter.addEventListener("input", () => {
      const text = filter.value.toLowerCase();
      for (const c of section.querySelectorAll("[data-address]")) c.classList.toggle("hidden", text !== "" && !c.dataset.address.toLowerCase().includes(text));
    });
    section.append(filter);
    // The view's families in its order (the voices after voice 1), then by address.
    const prefixes = views.find(([v]) => v === id)?.[2] || [];
    const rank = (key) => { const i = prefixes.findIndex((p) => key === p || key.startsWith(p + "/")); return i < 0 ? prefixes.length : i; };
    const groups = [...byView.get(id)].sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0], undefined, { numeric: true }));
    for (const [key, members] of groups) {
      const box = el("div", { class: "controls" });
      const values = members.filter((n) => !isCommand(n)), commands = members.filter(isCommand);
      for (const n of values) box.append(makeValue(n, n.FULL_PATH.slice(key.length + 1) || lastName(n.FULL_PATH)));
      if (commands.length) box.append(el("div", { class: "row commands" }, ...commands.map((n) => makeCommand(n))));
      const details = el("details", { open: groups.length <= 6 || members.length <= 12 ? "" : null },
        el("summary", {}, key, el("small", {}, `${values.length} values${commands.length ? `, ${commands.length} commands` : ""}`)), box);
      section.append(details);
    }
    main.append(section);
  }
  const nav = $("views");
  nav.textContent = "";
  for (const [id, title] of present) nav.append(el("button", { class: "tab", data: { target: id }, onclick: () => showView(id) }, title));
}

function showView(id) {
  for (const section of document.querySelectorAll(".view")) section.hidden = section.dataset.view !== id;
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-current", String(tab.dataset.target === id));
  if (location.hash !== `#${id}`) history.replaceState(null, "", `#${id}`);
  if (id === "show") refreshCatalogs();
  window.scrollTo(0, 0);
}

// ---- building ----
async function build() {
  tree = await (await fetch("/")).json();
  nodes.clear();
  watchers.clear();
  collect(tree);
  readouts();
  buildShow();
  buildDetails();
  watchPacerTarget();
  for (const name of Object.keys(tree.CONTENTS || {})) listen("/" + name);
  const wanted = location.hash.slice(1);
  showView(document.querySelector(`.view[data-view="${CSS.escape(wanted)}"]`) ? wanted : "show");
  document.body.dataset.ready = "1";
}

let rebuildTimer = null;
function scheduleRebuild() {
  clearTimeout(rebuildTimer);
  rebuildTimer = setTimeout(build, 300);
}

// /status and /ambient/status are answered, not streamed: ask once a second.
function poll() {
  send("/status");
  if (nodes.has("/ambient/status")) send("/ambient/status");
}

// A PANIC that could not be sent must not look as if it had been.
$("panic").addEventListener("click", () => { if (!send("/panic")) toast("NOT CONNECTED: PANIC was not sent. Silence the system another way."); });
$("resume").addEventListener("click", () => send("/resume"));
fetch("/?HOST_INFO").then((r) => r.json()).then((info) => { setText("client-name", info.NAME); document.title = `${info.NAME} · entrain`; }).catch(() => {});
connect();
build();
setInterval(poll, 1000);
setInterval(() => { if (!$("view-show").hidden) refreshCatalogs(); }, 15000);
requestAnimationFrame(animatePacer);
