// anonimed review page: plain JavaScript, no build step.  Offsets are code points (Python's str indices), so the
// text is handled as an array of code points, never as UTF-16 string indices.
"use strict";

const QUICK_TYPES = [
  "NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO", "FECHAS", "EDAD_SUJETO_ASISTENCIA",
  "SEXO_SUJETO_ASISTENCIA", "TERRITORIO", "HOSPITAL", "CALLE", "ID_SUJETO_ASISTENCIA",
];

const state = {
  token: null, queue: [], labels: [], groupOf: {}, index: -1,
  note: null, chars: [], spans: [], selected: -1, dirty: false,
  picker: null, // {mode: "add" | "relabel", start, end, active}
};

const $ = (id) => document.getElementById(id);
const shortLabel = (label) => label.replace("_SUJETO_ASISTENCIA", "").replace("_PERSONAL_SANITARIO", "_SANITARIO");

// --- the token: from the address's fragment (#token=..., never sent to the server), kept for this tab ----------
function readToken() {
  const match = location.hash.match(/token=([^&]+)/);
  if (match) {
    sessionStorage.setItem("anonimed-token", decodeURIComponent(match[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  state.token = sessionStorage.getItem("anonimed-token") || prompt("anonimed token (Authorization: Bearer)");
  if (state.token) sessionStorage.setItem("anonimed-token", state.token);
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { "Authorization": `Bearer ${state.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (response.status === 401) sessionStorage.removeItem("anonimed-token");
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function say(text, isError = false) {
  $("message").textContent = text;
  $("message").className = isError ? "error" : "";
}

// --- queue and progress ---------------------------------------------------------------------------------------
async function loadQueue() {
  const queue = await api("GET", "/v1/review/queue");
  state.queue = queue.notes;
  state.labels = queue.labels;
  state.labels.forEach((label) => { state.groupOf[label.name] = label.group; });
  $("queue-order").textContent = `by ${queue.order}`;
  const select = $("span-label");
  const groups = [...new Set(state.labels.map((label) => label.group))];
  for (const group of groups) {
    const optgroup = document.createElement("optgroup");
    optgroup.label = group;
    for (const label of state.labels.filter((l) => l.group === group)) {
      const option = new Option(label.name, label.name);
      option.title = label.description;
      optgroup.appendChild(option);
    }
    select.appendChild(optgroup);
  }
  renderQueue();
}

function renderQueue() {
  const list = $("queue");
  list.replaceChildren();
  state.queue.forEach((entry, index) => {
    const item = document.createElement("li");
    item.dataset.id = entry.id;
    item.className = index === state.index ? "current" : "";
    const name = document.createElement("span");
    name.textContent = `${entry.reviewed ? "✓ " : ""}${entry.id}`;
    if (entry.reviewed) name.className = "mark";
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = entry.score === null ? "" : entry.score.toFixed(3);
    item.append(name, score);
    item.addEventListener("click", () => openNote(index));
    list.appendChild(item);
  });
  const done = state.queue.filter((entry) => entry.reviewed).length;
  $("progress-text").textContent = `${done} of ${state.queue.length} notes reviewed`;
  $("progress-bar").style.width = `${state.queue.length ? (100 * done) / state.queue.length : 0}%`;
}

// --- a note ---------------------------------------------------------------------------------------------------
async function openNote(index) {
  if (index < 0 || index >= state.queue.length) return;
  if (state.dirty && !confirm("This note has unsaved changes. Leave it without saving?")) return;
  const note = await api("GET", `/v1/review/notes/${encodeURIComponent(state.queue[index].id)}`);
  state.index = index;
  state.note = note;
  state.chars = Array.from(note.text);
  // Spans of a note already reviewed were accepted by a person; the model's are not yet.
  state.spans = note.spans.map((span) => ({ ...span, accepted: note.reviewed }));
  state.selected = state.spans.length ? 0 : -1;
  state.dirty = false;
  $("note-id").textContent = note.id;
  $("note-origin").textContent = note.origin === "ann" ? "spans of its .ann" : "spans found by the model";
  setStatus(note.reviewed ? "reviewed" : "not reviewed yet", note.reviewed ? "saved" : "");
  say("");
  renderQueue();
  refresh();
}

function setStatus(text, kind) {
  $("note-status").textContent = `· ${text}`;
  $("note-status").className = kind;
}

function changed() {
  state.dirty = true;
  setStatus("unsaved changes", "dirty");
  refresh();
}

function refresh() {
  state.spans.sort((a, b) => a.start - b.start || a.end - b.end);
  renderText($("note"), state.chars, state.spans, true);
  renderSpanPanel();
  renderLegend();
  schedulePreview();
}

// Segments between every span boundary; each covered segment is drawn as its shortest covering span.
function renderText(container, chars, spans, interactive) {
  const cuts = new Set([0, chars.length]);
  spans.forEach((span) => { cuts.add(span.start); cuts.add(span.end); });
  const points = [...cuts].sort((a, b) => a - b);
  container.replaceChildren();
  for (let k = 0; k + 1 < points.length; k++) {
    const [from, to] = [points[k], points[k + 1]];
    let best = -1;
    spans.forEach((span, i) => {
      if (span.start <= from && span.end >= to && (best < 0 || span.end - span.start < spans[best].end - spans[best].start)) best = i;
    });
    const piece = document.createElement(best < 0 ? "span" : "mark");
    piece.dataset.from = from;
    piece.textContent = chars.slice(from, to).join("");
    if (best >= 0) {
      const span = spans[best];
      piece.classList.add(`g-${state.groupOf[span.label] || "OTHER"}`);
      piece.title = span.label;
      if (to === span.end) piece.dataset.label = shortLabel(span.label);
      if (interactive) {
        piece.dataset.index = best;
        if (span.accepted) piece.classList.add("accepted");
        if (best === state.selected) piece.classList.add("selected");
      }
    }
    container.appendChild(piece);
  }
}

function renderSpanPanel() {
  const span = state.spans[state.selected];
  $("span-empty").hidden = Boolean(span);
  $("span-details").hidden = !span;
  if (!span) return;
  $("span-text").textContent = state.chars.slice(span.start, span.end).join("");
  $("span-label").value = span.label;
  const origins = { review: "changed in review", gold: "from the .ann" };
  const origin = origins[span.source] || `score ${Number(span.score).toFixed(3)} (${span.source})`;
  $("span-score").textContent = `[${span.start}, ${span.end}) · ${origin} · ${span.accepted ? "accepted" : "not accepted yet"}`;
  const mark = document.querySelector(`#note mark.selected`);
  if (mark) mark.scrollIntoView({ block: "nearest" });
}

function renderLegend() {
  const counts = {};
  state.spans.forEach((span) => {
    const group = state.groupOf[span.label];
    counts[group] = (counts[group] || 0) + 1;
  });
  const legend = $("legend");
  legend.replaceChildren();
  for (const group of [...new Set(state.labels.map((label) => label.group))]) {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = `swatch g-${group}`;
    const name = document.createElement("span");
    name.textContent = group.toLowerCase();
    name.title = state.labels.filter((l) => l.group === group).map((l) => l.name).join(", ");
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = counts[group] || "";
    item.append(swatch, name, count);
    legend.appendChild(item);
  }
}

let previewTimer = null;
function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(async () => {
    if (!state.note) return;
    try {
      const result = await api("POST", `/v1/review/notes/${encodeURIComponent(state.note.id)}/preview`, { spans: payload() });
      renderText($("preview"), Array.from(result.text), result.spans, false);
    } catch (error) {
      $("preview").textContent = `(no preview: ${error.message})`;
    }
  }, 200);
}

const payload = () => state.spans.map(({ start, end, label, score, source }) => ({ start, end, label, score, source }));

// --- edits ----------------------------------------------------------------------------------------------------
function select(index) {
  state.selected = state.spans.length ? (index + state.spans.length) % state.spans.length : -1;
  refresh();
}

function accept() {
  const span = state.spans[state.selected];
  if (!span) return;
  span.accepted = true;
  state.selected = Math.min(state.selected + 1, state.spans.length - 1);
  changed();
}

function remove() {
  if (state.selected < 0) return;
  state.spans.splice(state.selected, 1);
  state.selected = Math.min(state.selected, state.spans.length - 1);
  changed();
}

function relabel(label) {
  const span = state.spans[state.selected];
  if (!span || !label) return;
  span.label = label;
  span.accepted = true;
  span.source = "review";
  changed();
}

function resize(edge, delta) {
  const span = state.spans[state.selected];
  if (!span) return;
  const start = edge === "start" ? span.start + delta : span.start;
  const end = edge === "end" ? span.end + delta : span.end;
  if (start < 0 || end > state.chars.length || start >= end) return;
  Object.assign(span, { start, end, source: "review", accepted: true });
  changed();
}

function add(start, end, label) {
  const span = { start, end, label, score: 1.0, source: "review", accepted: true };
  state.spans.push(span);
  state.spans.sort((a, b) => a.start - b.start || a.end - b.end);
  state.selected = state.spans.indexOf(span);
  changed();
}

async function save() {
  if (!state.note) return false;
  try {
    await api("PUT", `/v1/review/notes/${encodeURIComponent(state.note.id)}`, { spans: payload() });
  } catch (error) {
    say(`Not saved: ${error.message}`, true);
    return false;
  }
  state.dirty = false;
  state.spans.forEach((span) => { span.accepted = true; });
  state.queue[state.index].reviewed = true;
  setStatus(`saved to ${state.note.id}.ann`, "saved");
  say(`Saved ${state.note.id}.ann (${state.spans.length} spans).`);
  renderQueue();
  refresh();
  return true;
}

// Save, then open the next note not reviewed yet (after this one, else from the top).
async function saveAndNext() {
  if (!(await save())) return;
  const after = state.queue.findIndex((entry, index) => index > state.index && !entry.reviewed);
  const next = after >= 0 ? after : state.queue.findIndex((entry) => !entry.reviewed);
  if (next >= 0) await openNote(next);
  else say("Every note of the queue is reviewed.");
}

// --- text selection → a new span ------------------------------------------------------------------------------
function offsetOf(node, offset) {
  const note = $("note");
  if (node === note) {
    const child = note.childNodes[offset];
    return child ? Number(child.dataset.from) : state.chars.length;
  }
  const piece = (node.nodeType === Node.TEXT_NODE ? node.parentElement : node).closest("[data-from]");
  if (!piece || !note.contains(piece)) return null;
  const within = node.nodeType === Node.TEXT_NODE ? Array.from(node.data.slice(0, offset)).length : 0;
  return Number(piece.dataset.from) + within;
}

function selectedRange() {
  const selection = window.getSelection();
  if (!selection.rangeCount || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  let start = offsetOf(range.startContainer, range.startOffset);
  let end = offsetOf(range.endContainer, range.endOffset);
  if (start === null || end === null) return null;
  while (start < end && /\s/.test(state.chars[start])) start++;
  while (end > start && /\s/.test(state.chars[end - 1])) end--;
  return start < end ? { start, end, rect: range.getBoundingClientRect() } : null;
}

function onNoteMouseUp(event) {
  const range = selectedRange();
  if (range) {
    openPicker("add", range.rect, range);
    return;
  }
  const mark = event.target.closest("mark[data-index]");
  if (mark) select(Number(mark.dataset.index));
}

// --- the type picker ------------------------------------------------------------------------------------------
function openPicker(mode, rect, range = {}) {
  state.picker = { mode, start: range.start, end: range.end, active: 0 };
  const picker = $("picker");
  picker.hidden = false;
  picker.style.left = `${Math.min(rect.left + window.scrollX, window.innerWidth - 350)}px`;
  picker.style.top = `${rect.bottom + window.scrollY + 6}px`;
  $("picker-filter").value = "";
  renderPicker();
  $("picker-filter").focus();
}

function pickerChoices() {
  const filter = $("picker-filter").value.trim().toUpperCase().replace(/\s+/g, "_");
  const quick = QUICK_TYPES.filter((name) => state.groupOf[name]);
  const rest = state.labels.map((label) => label.name).filter((name) => !quick.includes(name));
  return [...quick, ...rest].filter((name) => name.includes(filter));
}

function renderPicker() {
  const list = $("picker-list");
  list.replaceChildren();
  const choices = pickerChoices();
  state.picker.active = Math.min(state.picker.active, Math.max(choices.length - 1, 0));
  choices.forEach((name, index) => {
    const item = document.createElement("li");
    item.dataset.label = name;
    if (index === state.picker.active) item.className = "active";
    const key = document.createElement("kbd");
    const quick = QUICK_TYPES.indexOf(name);
    key.textContent = quick >= 0 ? String(quick + 1) : "";
    const swatch = document.createElement("span");
    swatch.className = `swatch g-${state.groupOf[name]}`;
    swatch.style.cssText = "width:12px;height:12px;border-radius:3px;display:inline-block";
    const text = document.createElement("span");
    text.textContent = name;
    item.append(key, swatch, text);
    item.addEventListener("mousedown", (event) => { event.preventDefault(); pick(name); });
    list.appendChild(item);
  });
}

function pick(label) {
  const picker = state.picker;
  closePicker();
  if (!picker || !label) return;
  if (picker.mode === "add") add(picker.start, picker.end, label);
  else relabel(label);
}

function closePicker() {
  state.picker = null;
  $("picker").hidden = true;
  window.getSelection().removeAllRanges();
  $("note").focus();
}

function onPickerKey(event) {
  const choices = pickerChoices();
  if (event.key === "Escape") closePicker();
  else if (event.key === "Enter") pick(choices[state.picker.active]);
  else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    state.picker.active = Math.max(0, Math.min(choices.length - 1, state.picker.active + (event.key === "ArrowDown" ? 1 : -1)));
    renderPicker();
  } else if (/^[1-9]$/.test(event.key)) pick(QUICK_TYPES[Number(event.key) - 1]);
  else return;
  event.preventDefault();
}

// --- keyboard -------------------------------------------------------------------------------------------------
function onKey(event) {
  if (state.picker) return; // the picker's own input handles its keys
  if (event.target.closest("input, select, textarea, dialog")) return;
  const ctrl = event.ctrlKey || event.metaKey;
  if (ctrl && event.key.toLowerCase() === "s") { event.preventDefault(); save(); return; }
  if (ctrl) return;
  const arrow = event.key === "ArrowLeft" ? -1 : event.key === "ArrowRight" ? 1 : 0;
  if (arrow && event.altKey) resize("start", arrow);
  else if (arrow && event.shiftKey) resize("end", arrow);
  else if (event.key === "j") select(state.selected + 1);
  else if (event.key === "k") select(state.selected - 1);
  else if (event.key === "a") accept();
  else if (event.key === "d" || event.key === "Delete" || event.key === "Backspace") remove();
  else if (event.key === "l" && state.selected >= 0) {
    const mark = document.querySelector("#note mark.selected");
    openPicker("relabel", mark ? mark.getBoundingClientRect() : $("note").getBoundingClientRect());
  } else if (event.key === "s") save();
  else if (event.key === "S") saveAndNext();
  else if (event.key === "n") openNote(state.index + 1);
  else if (event.key === "p") openNote(state.index - 1);
  else if (event.key === "?") $("help").showModal();
  else if (event.key === "Escape") window.getSelection().removeAllRanges();
  else return;
  event.preventDefault();
}

async function start() {
  readToken();
  $("note").addEventListener("mouseup", onNoteMouseUp);
  $("picker-filter").addEventListener("input", () => { state.picker.active = 0; renderPicker(); });
  $("picker-filter").addEventListener("keydown", onPickerKey);
  $("picker-filter").addEventListener("blur", () => setTimeout(() => state.picker && closePicker(), 150));
  document.addEventListener("keydown", onKey);
  $("span-label").addEventListener("change", (event) => relabel(event.target.value));
  $("accept").addEventListener("click", accept);
  $("delete").addEventListener("click", remove);
  $("start-left").addEventListener("click", () => resize("start", -1));
  $("start-right").addEventListener("click", () => resize("start", 1));
  $("end-left").addEventListener("click", () => resize("end", -1));
  $("end-right").addEventListener("click", () => resize("end", 1));
  $("save").addEventListener("click", save);
  $("next").addEventListener("click", () => openNote(state.index + 1));
  $("previous").addEventListener("click", () => openNote(state.index - 1));
  $("help-button").addEventListener("click", () => $("help").showModal());
  window.addEventListener("beforeunload", (event) => { if (state.dirty) event.preventDefault(); });
  try {
    await loadQueue();
    const next = state.queue.findIndex((entry) => !entry.reviewed);
    await openNote(next >= 0 ? next : 0);
  } catch (error) {
    say(`Cannot load the review queue: ${error.message}`, true);
  }
}

start();
