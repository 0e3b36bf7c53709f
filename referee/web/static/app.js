// The page: watch a live table (its view re-read at each event of its stream), or step through
// a game record, each step's table the referee's adjudicator view of the record cut there, the
// first illegal move marked with the referee's reasons. Every text from the referee comes in the
// chosen language (Accept-Language).

import { call, watch } from "./api.js";
import { packOf } from "./cards.js";
import { renderView } from "./render.js";
// js-yaml (MIT), its browser build as npm ships it; YAML 1.1, as PyYAML reads records
import { load as loadYaml, YAML11_SCHEMA } from "./vendor/js-yaml.js";

const $ = (id) => document.getElementById(id);
const games = new Map(); // `game|language` -> {pack, schema, title}
let live = null; // {tableId, token, stop, seat, refreshing, again}
let record = null; // {text, data, judged, at, last, cache}

const language = () => $("language").value;

async function gameOf(name) {
  const key = `${name}|${language()}`;
  if (!games.has(key)) {
    const described = await call("GET", `/v1/games/${encodeURIComponent(name)}`, undefined, { language: language() });
    const description = described.description;
    games.set(key, {
      pack: packOf(description),
      schema: description.schemas?.view?.properties ?? {},
      moves: (description.moves ?? []).map((move) => move.type),
      title: typeof description.title === "object" ? description.title[language()] ?? description.title.en : description.title ?? name,
    });
  }
  return games.get(key);
}

// --- watching a table ---

function stopWatching() {
  if (live?.stop) live.stop();
  showClock(undefined);
  live = null;
}

async function startWatching(tableId, token) {
  stopWatching();
  const here = { tableId, token, stop: null, refreshing: false, again: false };
  live = here;
  $("events").replaceChildren();
  $("verdict").replaceChildren();
  $("live-status").textContent = "connecting…";
  location.hash = `table=${encodeURIComponent(tableId)}`;
  try {
    await refresh(here);
  } catch (error) {
    $("live-status").textContent = error.message;
    return;
  }
  $("live-status").textContent = "watching";
  here.stop = watch(tableId, { token, language: language() }, (answer) => {
    logEvent(answer);
    refresh(here).catch((error) => ($("live-status").textContent = error.message));
  }, (ended) => {
    if (live !== here) return;
    $("live-status").textContent = ended.code === "OK" ? "the table is over" : `the stream ended: ${ended.code} ${ended.message}`;
  });
}

// read the view again; a refresh asked while one runs is done once it ends
async function refresh(here) {
  if (here.refreshing) {
    here.again = true;
    return;
  }
  here.refreshing = true;
  try {
    do {
      here.again = false;
      const answer = await call("GET", `/v1/tables/${encodeURIComponent(here.tableId)}/view`, undefined,
        { token: here.token, language: language() });
      if (live !== here) return;
      const game = await gameOf(answer.view.game);
      here.seat = answer.seat ?? null;
      $("table").replaceChildren(renderView(answer.view, { ...game, seat: here.seat }));
      showClock(answer.view.clock);
      showProposeForm(answer.view, game.moves);
    } while (here.again && live === here);
  } finally {
    here.refreshing = false;
  }
}

// the play clock: whose turn runs and the seconds left, counted down here between two views
// (each view says again what the server's clock left)
let ticking = null;

function showClock(clock) {
  clearInterval(ticking);
  const shown = $("clock");
  if (clock?.left_ms === undefined) {
    shown.hidden = true;
    return;
  }
  const whose = clock.waiting_for?.length ? `seat ${clock.waiting_for.join(", ")}: ` : "";
  const ends = Date.now() + clock.left_ms;
  const tick = () => {
    shown.textContent = `${whose}${Math.max(0, Math.ceil((ends - Date.now()) / 1000))} s left`;
  };
  tick();
  shown.hidden = false;
  ticking = setInterval(tick, 250);
}

function logEvent(answer) {
  const item = document.createElement("li");
  item.dataset.version = answer.version;
  const who = answer.seat === -2 ? "the table" : answer.seat === -1 ? "the director" : `seat ${answer.seat}`;
  const head = document.createElement("strong");
  head.textContent = `${answer.version}. ${who}`;
  item.append(head, whyButton({ version: answer.version }));
  for (const event of answer.events) {
    const text = document.createElement("span");
    text.className = "event";
    text.dataset.kind = event.kind;
    text.textContent = event.text || event.kind;
    item.append(text);
  }
  $("events").prepend(item);
}

// every move of the game, those legal now first: an illegal one is judged too, with its reasons
function showProposeForm(view, moves) {
  const form = $("propose-form");
  form.hidden = !live?.token;
  const select = $("move-type");
  const legal = Object.keys(view.legal ?? {});
  const wanted = [...legal, ...moves.filter((type) => !legal.includes(type))];
  const current = [...select.options].map((o) => o.value);
  if (wanted.join() === current.join()) return;
  const chosen = select.value;
  select.replaceChildren(...wanted.map((type) => new Option(type, type, false, type === chosen)));
}

async function propose(event) {
  event.preventDefault();
  if (!live?.token) return;
  const out = $("verdict");
  let fields = {};
  try {
    const text = $("move-fields").value.trim();
    fields = text ? JSON.parse(text) : {};
  } catch {
    out.replaceChildren(line("the fields are not JSON", "rejected"));
    return;
  }
  try {
    const moveId = crypto.randomUUID();
    const answer = await call("POST", `/v1/tables/${encodeURIComponent(live.tableId)}/moves`,
      { move: { type: $("move-type").value, fields }, move_id: moveId },
      { token: live.token, language: language() });
    out.replaceChildren(...verdictLines(answer.verdict.outcome, answer.verdict.violations),
      whyButton({ move_id: moveId }));
  } catch (error) {
    out.replaceChildren(line(error.message, "rejected"));
  }
}

// "why?": the referee's explanation of a past proposal (docs/explain.md), as this page's caller
// may see it (its own proposals with what their rules read, another seat's outcomes only)
function whyButton(which) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "why";
  button.textContent = "why?";
  button.addEventListener("click", () => explain(which));
  return button;
}

async function explain(which) {
  if (!live) return;
  const out = $("explanation");
  out.hidden = false;
  const query = new URLSearchParams(Object.entries(which).map(([k, v]) => [k, String(v)]));
  try {
    const answer = await call("GET", `/v1/tables/${encodeURIComponent(live.tableId)}/explain?${query}`,
      undefined, { token: live.token, language: language() });
    out.replaceChildren(...answer.text.map((text) => line(text, text.startsWith("  ") ? "rule" : "heading")));
  } catch (error) {
    out.replaceChildren(line(error.message, "rejected"));
  }
}

function line(text, className) {
  const node = document.createElement("p");
  node.className = className;
  node.textContent = text;
  return node;
}

function verdictLines(outcome, violations) {
  const accepted = outcome === "OUTCOME_ACCEPTED";
  const lines = [line(accepted ? "accepted" : outcome === "OUTCOME_PENDING" ? "pending" : "rejected", accepted ? "accepted" : "rejected")];
  for (const v of violations ?? []) {
    const text = `${v.rule}${v.cites?.length ? ` (${v.cites.join(", ")})` : ""}: ${v.message}${v.hint ? ` — ${v.hint}` : ""}`;
    lines.push(line(text, "violation"));
  }
  return lines;
}

// --- stepping through a record ---

async function loadRecord(file) {
  const text = await file.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    try {
      data = loadYaml(text, { schema: YAML11_SCHEMA });
    } catch (error) {
      $("record-status").textContent = `the steps cannot be shown one by one (${error.message}); the referee judges the whole record`;
    }
  }
  record = { text, data, judged: null, at: 0, last: 0, cache: new Map() };
  await judgeRecord();
}

async function judgeRecord() {
  if (!record) return;
  record.cache.clear();
  try {
    record.judged = await call("POST", "/v1/adjudicate", { record_yaml: record.text }, { language: language() });
  } catch (error) {
    $("record-status").textContent = error.message;
    $("judgement").replaceChildren(line(error.message, "rejected"));
    return;
  }
  const judged = record.judged;
  const steps = record.data?.steps ?? [];
  record.last = judged.legal ? steps.length : judged.step ?? 0;
  const judgement = judged.legal
    ? [line(`every move is legal: ${judged.moves} moves`, "accepted")]
    : [line(`step ${judged.step}: seat ${judged.seat}, ${judged.move?.type}: illegal`, "rejected"),
      ...verdictLines("OUTCOME_REJECTED", judged.violations)];
  $("judgement").replaceChildren(...judgement);
  $("steps").replaceChildren(...steps.map((step, index) => stepItem(step, index, judged)));
  await showStep(Math.min(record.at, record.last));
}

function stepItem(step, index, judged) {
  const item = document.createElement("li");
  item.dataset.step = index;
  item.textContent = describeStep(step);
  if (!judged.legal && index === judged.step) {
    item.classList.add("illegal");
    item.title = (judged.violations ?? []).map((v) => `${v.rule}: ${v.message}`).join("\n");
  } else if (!judged.legal && index > judged.step) item.classList.add("unreached");
  item.addEventListener("click", () => showStep(Math.min(index, record.last)));
  return item;
}

function describeStep(step) {
  if (step?.move) {
    const { type, ...fields } = step.move;
    const shown = Object.entries(fields).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(" ") : JSON.stringify(v)}`);
    const who = step.seat === "director" ? "the director" : `seat ${step.seat}`;
    return `${who}: ${type}${shown.length ? ` ${shown.join(", ")}` : ""}`;
  }
  if (step?.check) return `check ${JSON.stringify(step.check)}`;
  return JSON.stringify(step);
}

// the table after the first `k` steps: the record cut there, judged by the referee
async function showStep(k) {
  if (!record) return;
  record.at = k;
  $("step-at").textContent = `after ${k} of ${record.data?.steps?.length ?? "?"} steps`;
  for (const item of $("steps").children) item.classList.toggle("current", Number(item.dataset.step) === k);
  if (!record.data) {
    $("record-table").replaceChildren();
    return;
  }
  if (!record.cache.has(k)) {
    const cut = { ...record.data, steps: record.data.steps.slice(0, k) };
    record.cache.set(k, call("POST", "/v1/adjudicate", { record_data: cut }, { language: language() }));
  }
  try {
    const judged = await record.cache.get(k);
    if (record.at !== k) return;
    const game = await gameOf(record.data.game);
    $("record-table").replaceChildren(renderView(judged.result ?? {}, { ...game, title: `${game.title}: the adjudicator's view` }));
    $("record-status").textContent = k === record.last && !record.judged.legal ? "the next move is illegal" : "";
  } catch (error) {
    $("record-status").textContent = error.message;
  }
}

// --- wiring ---

function showMode(mode) {
  $("live").hidden = mode !== "live";
  $("record").hidden = mode !== "record";
  $("mode-live").setAttribute("aria-pressed", String(mode === "live"));
  $("mode-record").setAttribute("aria-pressed", String(mode === "record"));
}

$("mode-live").addEventListener("click", () => showMode("live"));
$("mode-record").addEventListener("click", () => showMode("record"));
$("watch-form").addEventListener("submit", (event) => {
  event.preventDefault();
  startWatching($("table-id").value.trim(), $("token").value.trim() || null);
});
$("propose-form").addEventListener("submit", propose);
$("record-file").addEventListener("change", (event) => {
  const [file] = event.target.files;
  if (file) loadRecord(file);
});
$("step-first").addEventListener("click", () => showStep(0));
$("step-back").addEventListener("click", () => showStep(Math.max(0, (record?.at ?? 0) - 1)));
$("step-next").addEventListener("click", () => showStep(Math.min(record?.last ?? 0, (record?.at ?? 0) + 1)));
$("step-last").addEventListener("click", () => showStep(record?.last ?? 0));
$("language").addEventListener("change", () => {
  localStorage.setItem("referee-language", language());
  if (live) startWatching(live.tableId, live.token);
  judgeRecord();
});

const saved = localStorage.getItem("referee-language");
if (saved) $("language").value = saved;
const fromHash = new URLSearchParams(location.hash.slice(1));
if (fromHash.get("lang")) $("language").value = fromHash.get("lang");
if (fromHash.get("table")) {
  $("table-id").value = fromHash.get("table");
  startWatching(fromHash.get("table"), null);
}
