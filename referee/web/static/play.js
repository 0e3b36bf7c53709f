// A seat's moves, made as a player makes them: cards chosen by clicking them in the hand, a move
// chosen among the seat's legal moves now (the view's `legal`: move type -> what it may take,
// docs/api.md), its numbers filled in fields bounded by the legal range. Each move's fields come
// from DescribeGame's `typed_fields`; what a legal entry lists shapes the choice:
//   `{}` nothing to fill; `{cards}` the cards it may take; `{count, cards}` or `{count, choices}`
//   so many cards; `{melds}` the melds it may lay (the cards chosen laid in their order);
//   `{onto: [{meld, cards}]}` the melds a card lays off on; `{card, uses}` the ways to use a
//   discard taken; `{min, max}` (or by field name) a number's range; `{max_chars}` a text's.
// A move the list leaves out (going out at once, a longer meld) is written as JSON (the expert
// form), judged all the same.

import { cardText } from "./cards.js";
import { seatName } from "./render.js";
import { say } from "./words.js";

const NOT_A_TURN = new Set(["contribute"]); // any seat may, at any time: the expert form has it
const $ = (id) => document.getElementById(id);

let state = null; // {view, game, seat, move, chosen: [hand index], hand}

export function clearPlay() {
  state = null;
  $("moves").replaceChildren();
  $("move-fields").replaceChildren();
  $("chosen").replaceChildren();
  $("verdict").replaceChildren();
  $("expert-fields").value = "";
  $("play").hidden = true;
}

// the panel for a seat's view (hidden for a spectator: no move to make)
export function showPlay(view, game, seat) {
  if (seat === null || seat === undefined) {
    clearPlay();
    return;
  }
  const handKey = JSON.stringify(view.hand ?? null);
  const kept = state && state.handKey === handKey ? state.chosen : [];
  const legal = Object.keys(view.legal ?? {}).filter((type) => !NOT_A_TURN.has(type));
  const move = state?.move && legal.includes(state.move) && state.version === view.version ? state.move : null;
  state = { view, game, seat, move, chosen: kept, handKey, version: view.version, legal };
  $("play").hidden = false;
  drawMoves();
  drawExpertTypes();
  drawChoice();
}

// the cards of the seat's own hand, one click to choose, one to put back
export function bindHand(container) {
  if (!state) return;
  const hand = container.querySelectorAll(".my-hand .card");
  hand.forEach((card, index) => {
    card.classList.add("choosable");
    card.tabIndex = 0;
    card.setAttribute("role", "button");
    if (state.chosen.includes(index)) card.classList.add("chosen");
    const toggle = () => {
      const at = state.chosen.indexOf(index);
      if (at >= 0) state.chosen.splice(at, 1);
      else state.chosen.push(index);
      card.classList.toggle("chosen", at < 0);
      drawChoice();
    };
    card.addEventListener("click", toggle);
    card.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        toggle();
      }
    });
  });
  markPlayable(container);
}

function chosenCards() {
  const hand = Array.isArray(state.view.hand) ? state.view.hand : [];
  return state.chosen.map((i) => hand[i]).filter((c) => typeof c === "string");
}

function drawMoves() {
  const buttons = state.legal.map((type) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.move = type;
    button.textContent = moveName(type, state.game);
    button.title = state.game.sentences[type] ?? "";
    button.setAttribute("aria-pressed", String(type === state.move));
    button.addEventListener("click", () => {
      state.move = type;
      drawMoves();
      drawChoice();
      markPlayable(document);
    });
    return button;
  });
  $("moves").replaceChildren(...buttons);
  const hint = $("play-hint");
  const takesCards = state.legal.some((type) => (state.game.fields[type] ?? []).some((f) => f.type.startsWith("card")));
  $("chosen").hidden = !takesCards; // nothing to choose in the hand for these moves
  if (state.legal.length) hint.textContent = say(takesCards ? "play.how" : "play.choose");
  else if (state.view.to_act !== null && state.view.to_act !== undefined && state.view.to_act !== state.seat) {
    hint.textContent = say("play.wait", { who: seatName(state.view.to_act, state.view.names) });
  } else hint.textContent = say("play.none");
}

export function moveName(type, game) {
  const key = `move.${type}`;
  const said = say(key);
  return said === key ? (game?.moveTexts?.[type] ?? type.replaceAll("_", " ")) : said;
}

// the hand's cards the chosen move cannot take, dimmed
function markPlayable(root) {
  const entry = state?.move ? state.view.legal[state.move] : null;
  const allowed = entry?.cards ?? entry?.choices?.flat() ?? (entry?.onto ? entry.onto.flatMap((o) => o.cards) : null)
    ?? (entry?.melds ? entry.melds.flat() : null);
  root.querySelectorAll(".my-hand .card").forEach((card) => {
    card.classList.toggle("unplayable", Array.isArray(allowed) && !allowed.includes(card.dataset.card));
  });
}

// what is chosen, and the chosen move's fields
function drawChoice() {
  const cards = chosenCards();
  const chosen = $("chosen");
  chosen.replaceChildren(`${say("play.chosen")}: `);
  chosen.append(cards.length ? cards.map((c) => cardText(c, state.game.pack)).join(" ") : say("play.no_card"));
  const fields = $("move-fields");
  fields.replaceChildren();
  if (!state.move) {
    $("propose").disabled = true;
    return;
  }
  const entry = state.view.legal[state.move] ?? {};
  for (const field of state.game.fields[state.move] ?? []) {
    const input = fieldInput(field, entry, cards);
    if (input) fields.append(input);
  }
  $("propose").disabled = built() === null;
}

function fieldInput(field, entry, cards) {
  if (field.type === "card") return need(cards.length === 1 ? null : say("play.one_card"));
  if (field.type === "cards" && state.move === "take_discard") return null; // told by its uses
  if (field.type === "cards") {
    const count = entry.count;
    if (count) return need(cards.length === count ? null : say("play.count_cards", { count }));
    return need(cards.length ? null : say("play.some_cards"));
  }
  if (field.type === "record" && entry.uses) return usesSelect(entry);
  if (field.type === "int" && field.name === "meld" && entry.onto) return meldSelect(entry, cards);
  if (field.type === "int") return numberInput(field, entry);
  if (field.type === "text") return textInput(field, entry);
  return null; // an optional enum, a list: written as JSON in the expert form
}

function need(missing) {
  if (!missing) return null;
  return Object.assign(document.createElement("p"), { className: "need", textContent: missing });
}

function labelled(text, input) {
  const label = document.createElement("label");
  label.append(text, input);
  return label;
}

export function fieldName(name) {
  const key = `field.${name}`;
  const said = say(key);
  return said === key ? name.replaceAll("_", " ") : said;
}

// a number bounded by the legal range: `{min, max}` for a move's one number, else by its name
function numberInput(field, entry) {
  const range = entry[field.name] ?? (typeof entry.min === "number" && !field.optional ? entry : null);
  const input = document.createElement("input");
  input.type = "number";
  input.name = field.name;
  input.className = "amount";
  input.step = "1";
  if (range) {
    input.min = String(range.min);
    input.max = String(range.max);
    if (!field.optional) input.value = String(range.min);
  }
  input.addEventListener("input", () => ($("propose").disabled = built() === null));
  const words = [fieldName(field.name)];
  if (range) words.push(say("play.range", { min: range.min, max: range.max }));
  if (field.optional) words.push(say("play.optional"));
  return labelled(`${words.join(" ")} `, input);
}

function textInput(field, entry) {
  const input = document.createElement("input");
  input.type = "text";
  input.name = field.name;
  if (entry.max_chars) input.maxLength = entry.max_chars;
  input.addEventListener("input", () => ($("propose").disabled = built() === null));
  return labelled(`${fieldName(field.name)}${field.optional ? ` ${say("play.optional")}` : ""} `, input);
}

// a card laid off: onto one of the melds it fits
function meldSelect(entry, cards) {
  const select = document.createElement("select");
  select.name = "meld";
  const fitting = entry.onto.filter((o) => cards.length === 0 || cards.every((c) => o.cards.includes(c)));
  for (const onto of fitting.length ? fitting : entry.onto) {
    const meld = state.view.melds?.find((m) => m.id === onto.meld);
    const text = say("play.meld_of", { id: onto.meld, cards: (meld?.cards ?? []).map((c) => cardText(c, state.game.pack)).join(" ") });
    select.append(new Option(text, String(onto.meld)));
  }
  select.addEventListener("change", () => ($("propose").disabled = built() === null));
  return labelled(`${fieldName("meld")} `, select);
}

// the discard taken: each way to use it the view lists
function usesSelect(entry) {
  const select = document.createElement("select");
  select.name = "use";
  entry.uses.forEach((use, index) => {
    const cards = (list) => list.map((c) => cardText(c, state.game.pack)).join(" ");
    const text = use.meld ? say("play.use_meld", { cards: cards(use.meld) })
      : use.layoff ? say("play.use_layoff", { cards: cards(use.layoff.cards), meld: use.layoff.meld }) : JSON.stringify(use);
    select.append(new Option(`${cardText(entry.card, state.game.pack)} ${text}`, String(index)));
  });
  return labelled(`${say("play.use")} `, select);
}

// the move's fields, or null while something is missing
export function built() {
  if (!state?.move) return null;
  const entry = state.view.legal[state.move] ?? {};
  const cards = chosenCards();
  const fields = {};
  for (const field of state.game.fields[state.move] ?? []) {
    const value = fieldValue(field, entry, cards);
    if (value === undefined && !field.optional) return null;
    if (value !== undefined) fields[field.name] = value;
  }
  return { type: state.move, fields };
}

function fieldValue(field, entry, cards) {
  const form = $("move-fields");
  if (field.type === "card") return cards.length === 1 ? cards[0] : undefined;
  if (state.move === "take_discard") {
    const use = entry.uses?.[Number(form.querySelector("select[name=use]")?.value ?? 0)];
    return use?.[field.name];
  }
  if (field.type === "cards") {
    if (!cards.length || (entry.count && cards.length !== entry.count)) return undefined;
    return inListedOrder(cards, entry.melds);
  }
  if (field.type === "int") {
    const input = form.querySelector(`[name=${field.name}]`);
    if (!input || input.value === "") return undefined;
    const number = Number(input.value);
    return Number.isInteger(number) ? number : undefined;
  }
  if (field.type === "text") {
    const text = form.querySelector(`[name=${field.name}]`)?.value ?? "";
    return text ? text : undefined;
  }
  return undefined;
}

// the chosen cards as a listed meld lays them (a sequence low to high), else as chosen
function inListedOrder(cards, melds) {
  const key = (list) => [...list].sort().join(" ");
  return melds?.find((meld) => key(meld) === key(cards)) ?? cards;
}

export function chosenMoveDone() {
  if (!state) return;
  state.chosen = [];
  state.move = null;
}

function drawExpertTypes() {
  const select = $("expert-type");
  const legal = Object.keys(state.view.legal ?? {});
  const wanted = [...legal, ...state.game.moves.filter((type) => !legal.includes(type))];
  if ([...select.options].map((o) => o.value).join() === wanted.join()) return;
  const chosen = select.value;
  select.replaceChildren(...wanted.map((type) => new Option(type, type, false, type === chosen)));
}
