// The page: sit at a live table as a seat (its moves made by choosing cards and a legal move) or
// watch it as a spectator (its view re-read at each event of its stream); or step through a game
// record, each step's table the referee's adjudicator view of the record cut there, the first
// illegal move marked with the referee's reasons and numbered as `referee replay` numbers it.
// The page's own words are in words.js; every text from the referee comes in the chosen
// language too (Accept-Language).

import { call, watch } from "./api.js";
import { packOf } from "./cards.js";
import { bindHand, built, chosenMoveDone, clearPlay, moveName, showPlay } from "./play.js";
import { renderView, seatName } from "./render.js";
import { stepText } from "./steps.js";
import { dictionary, language as pageLanguage, say, setLanguage } from "./words.js";
// js-yaml (MIT), its browser build as npm ships it; YAML 1.1, as PyYAML reads records
import { load as loadYaml, YAML11_SCHEMA } from "./vendor/js-yaml.js";

const $ = (id) => document.getElementById(id);
const games = new Map(); // `game|language` -> {pack, schema, title, moves, fields, sentences}
let live = null; // {tableId, token, stop, seat, names, refreshing, again}
let record = null; // {text, data, judged, at, last, cache}

const language = () => $("language").value;

async function gameOf(name) {
  const key = `${name}|${language()}`;
  if (!games.has(key)) {
    const described = await call("GET", `/v1/games/${encodeURIComponent(name)}`, undefined, { language: language() });
    const description = described.description;
    const moves = description.moves ?? [];
    games.set(key, {
      pack: packOf(description),
      schema: description.schemas?.view?.properties ?? {},
      moves: moves.map((move) => move.type),
      fields: Object.fromEntries(moves.map((move) => [move.type, move.typed_fields ?? []])),
      sentences: Object.fromEntries(moves.map((move) => [move.type, move.sentence ?? ""])),
      title: typeof description.title === "object" ? description.title[language()] ?? description.title.en : description.title ?? name,
    });
  }
  return games.get(key);
}

// --- the page's own words ---

function applyWords() {
  setLanguage(language());
  document.documentElement.lang = language();
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = say(node.dataset.word);
  for (const node of document.querySelectorAll("[data-word-hint]")) node.placeholder = say(node.dataset.wordHint);
  for (const node of document.querySelectorAll("[data-word-title]")) node.title = say(node.dataset.wordTitle);
}

// --- a live table ---

// everything of the table left before: its events, verdict, explanation, chosen cards
function stopWatching() {
  if (live?.stop) live.stop();
  showClock(undefined);
  live = null;
  $("events").replaceChildren();
  $("table").replaceChildren();
  hideExplanation();
  clearPlay();
}

async function startWatching(tableId, token) {
  stopWatching();
  const here = { tableId, token, stop: null, seat: null, names: null, refreshing: false, again: false };
  live = here;
  $("live-status").textContent = say("status.connecting");
  location.hash = `table=${encodeURIComponent(tableId)}`;
  try {
    await refresh(here);
  } catch (error) {
    if (live === here) $("live-status").textContent = error.message;
    return;
  }
  if (live !== here) return;
  $("live-status").textContent = say("status.watching");
  here.stop = watch(tableId, { token, language: language() }, (answer) => {
    if (live !== here) return;
    logEvent(answer);
    refresh(here).catch((error) => ($("live-status").textContent = error.message));
  }, (ended) => {
    if (live !== here) return;
    $("live-status").textContent = ended.code === "OK" ? say("status.over") : say("status.ended", ended);
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
      if (live !== here) return;
      here.seat = here.token ? answer.seat ?? null : null;
      here.names = answer.view.names ?? null;
      $("table").replaceChildren(renderView(answer.view, { ...game, game: answer.view.game, seat: here.seat }));
      showClock(answer.view.clock);
      showPlay(answer.view, game, here.seat);
      bindHand($("table"));
      for (const option of $("expert-type").options) option.textContent = `${moveName(option.value, game)} (${option.value})`;
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
  const who = (clock.waiting_for ?? []).map((s) => seatName(s, live?.names)).join(", ");
  const ends = Date.now() + clock.left_ms;
  const tick = () => {
    const seconds = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    shown.textContent = who ? say("clock.left", { who, seconds }) : `${seconds} s`;
  };
  tick();
  shown.hidden = false;
  ticking = setInterval(tick, 250);
}

function whoOf(seat) {
  if (seat === -2 || seat === "table") return say("the_table");
  if (seat === -1 || seat === "director") return say("the_director");
  return seatName(seat, live?.names);
}

function logEvent(answer) {
  const item = document.createElement("li");
  item.dataset.version = answer.version;
  const head = document.createElement("strong");
  head.textContent = `${answer.version}. ${whoOf(answer.seat)}`;
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

async function propose(move) {
  const here = live;
  if (!here?.token || !move) return;
  const out = $("verdict");
  try {
    const moveId = crypto.randomUUID();
    const answer = await call("POST", `/v1/tables/${encodeURIComponent(here.tableId)}/moves`,
      { move, move_id: moveId }, { token: here.token, language: language() });
    if (live !== here) return;
    if (answer.verdict.outcome === "OUTCOME_ACCEPTED") chosenMoveDone();
    out.replaceChildren(...verdictLines(answer.verdict.outcome, answer.verdict.violations), whyButton({ move_id: moveId }));
  } catch (error) {
    if (live === here) out.replaceChildren(line(error.message, "rejected"));
  }
}

function proposeChosen() {
  propose(built());
}

function proposeExpert(event) {
  event.preventDefault();
  let fields = {};
  try {
    const text = $("expert-fields").value.trim();
    fields = text ? JSON.parse(text) : {};
  } catch {
    $("verdict").replaceChildren(line(say("play.not_json"), "rejected"));
    return;
  }
  propose({ type: $("expert-type").value, fields });
}

// "why?": the referee's explanation of a past proposal (docs/explain.md), its sentences first;
// the rules as judged, with the values they read, folded away for the expert
function whyButton(which) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "why";
  button.textContent = say("why");
  button.addEventListener("click", () => explain(which));
  return button;
}

function hideExplanation() {
  const out = $("explanation");
  out.hidden = true;
  out.replaceChildren();
}

async function explain(which) {
  const here = live;
  if (!here) return;
  const out = $("explanation");
  const query = new URLSearchParams(Object.entries(which).map(([k, v]) => [k, String(v)]));
  try {
    const answer = await call("GET", `/v1/tables/${encodeURIComponent(here.tableId)}/explain?${query}`,
      undefined, { token: here.token, language: language() });
    if (live !== here) return;
    const sentences = document.createElement("div");
    sentences.className = "sentences";
    sentences.append(...answer.text.map((text) => line(text.trim(), text.startsWith("  ") ? "rule" : "heading")));
    out.replaceChildren(sentences, judgedDetails(answer.judged ?? []));
  } catch (error) {
    if (live !== here) return;
    out.replaceChildren(line(error.message, "rejected"));
  }
  out.hidden = false;
}

function judgedDetails(judged) {
  const details = document.createElement("details");
  details.className = "expert judged";
  const summary = document.createElement("summary");
  summary.textContent = say("why.expert");
  details.append(summary);
  for (const checkpoint of judged) {
    details.append(line(`${checkpoint.checkpoint} (${checkpoint.at}${checkpoint.role && checkpoint.role !== "judged" ? `, ${checkpoint.role}` : ""})`, "heading"));
    for (const rule of checkpoint.rules ?? []) {
      const reads = Object.entries(rule.reads ?? {}).map(([name, value]) => `${name} = ${JSON.stringify(value)}`).join("; ");
      details.append(line(`${rule.rule}: ${rule.outcome}${reads ? ` (${reads})` : ""}`, "rule"));
    }
  }
  return details;
}

function line(text, className) {
  const node = document.createElement("p");
  node.className = className;
  node.textContent = text;
  return node;
}

function verdictLines(outcome, violations) {
  const accepted = outcome === "OUTCOME_ACCEPTED";
  const word = accepted ? "verdict.accepted" : outcome === "OUTCOME_PENDING" ? "verdict.pending" : "verdict.rejected";
  const lines = [line(say(word), accepted ? "accepted" : "rejected")];
  for (const v of violations ?? []) {
    const node = line(`${v.message}${v.hint ? ` — ${v.hint}` : ""}`, "violation");
    const rule = document.createElement("span");
    rule.className = "rule-id";
    rule.textContent = ` (${[v.rule, ...(v.cites ?? [])].join(", ")})`;
    node.append(rule);
    lines.push(node);
  }
  return lines;
}

// --- stepping through a record ---
// Steps are numbered from 1, as `referee replay` and `referee explain --step` number them; the
// table shown "after step k" is the record cut after its k-th step.

async function loadRecord(file) {
  const text = await file.text();
  let data = null;
  $("record-status").textContent = "";
  try {
    data = JSON.parse(text);
  } catch {
    try {
      data = loadYaml(text, { schema: YAML11_SCHEMA });
    } catch (error) {
      $("record-status").textContent = say("record.whole_only", { error: error.message });
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
  // the illegal move is step `judged.step + 1`; the last table shown is the one before it
  record.last = judged.legal ? steps.length : judged.step ?? 0;
  const judgement = judged.legal
    ? [line(say("record.legal", { moves: judged.moves }), "accepted")]
    : [line(say("record.illegal", { step: judged.step + 1, who: stepWho(judged.seat), move: moveName(judged.move?.type ?? "") }), "rejected"),
      ...verdictLines("OUTCOME_REJECTED", judged.violations)];
  $("judgement").replaceChildren(...judgement);
  const pack = record.data?.game ? (await gameOf(record.data.game).catch(() => null))?.pack : "french";
  $("steps").replaceChildren(...steps.map((step, index) => stepItem(step, index + 1, judged, pack ?? "french")));
  await showStep(Math.min(record.at, record.last));
}

function stepWho(seat) {
  return seat === "director" || seat === -1 ? say("the_director") : seatName(seat, record?.data?.names);
}

function stepItem(step, number, judged, pack) {
  const item = document.createElement("li");
  item.dataset.step = number;
  const shown = document.createElement("span");
  shown.className = "number";
  shown.textContent = `${number}.`;
  item.append(shown, ` ${stepText(step, pack, stepWho)}`);
  const illegal = judged.legal ? null : judged.step + 1;
  if (number === illegal) {
    item.classList.add("illegal");
    item.title = (judged.violations ?? []).map((v) => `${v.rule}: ${v.message}`).join("\n");
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = ` ✗ ${say("record.illegal_mark")}`;
    item.append(mark);
  } else if (illegal !== null && number > illegal) item.classList.add("unreached");
  item.addEventListener("click", () => showStep(Math.min(number, record.last)));
  return item;
}

// the table after the first `k` steps: the record cut there, judged by the referee
async function showStep(k) {
  if (!record) return;
  record.at = k;
  const total = record.data?.steps?.length ?? "?";
  $("step-at").removeAttribute("data-word");
  $("step-at").textContent = k === 0 ? say("record.start", { n: total }) : say("record.after", { k, n: total });
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
    const title = say("record.adjudicator", { title: game.title });
    $("record-table").replaceChildren(renderView(judged.result ?? {}, { ...game, game: record.data.game, title, viewer: say("record.viewer") }));
    $("record-status").textContent = k === record.last && !record.judged.legal ? say("record.next_illegal") : "";
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
$("propose").addEventListener("click", proposeChosen);
$("expert-form").addEventListener("submit", proposeExpert);
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
  applyWords();
  if (live) startWatching(live.tableId, live.token);
  judgeRecord();
});

const saved = localStorage.getItem("referee-language");
if (saved) $("language").value = saved;
const fromHash = new URLSearchParams(location.hash.slice(1));
if (fromHash.get("lang")) $("language").value = fromHash.get("lang");
applyWords();
if (fromHash.get("table")) {
  $("table-id").value = fromHash.get("table");
  startWatching(fromHash.get("table"), null);
}

// for the page's tests: its words in every language, and the one shown
window.refereePage = { dictionary, language: pageLanguage };
