// Card codes drawn as cards (docs/cards.md): rank then suit; `??` is a card face down.
// French packs: suits S H D C. The tarot pack: suits S (swords) B (batons) C (cups) D (coins),
// the knight N, trumps T1..T21 and the Matto MT. Which pack a game plays is told by its own
// codes (DescribeGame's schemas list them, `x-codes`).

const FRENCH = /^(A|[2-9]|T|J|Q|K)([SHDC])$/;
const TAROT = /^(K|Q|N|J|T|[2-9]|A)([SBCD])$/;
const TRUMP = /^T([1-9]|1[0-9]|2[01])$/;
const RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K", N: "N" };
const RANK_NAMES = { A: "ace", T: "ten", J: "jack", Q: "queen", K: "king", N: "knight" };
const SUITS = {
  french: { S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"] },
  tarot: { S: ["⚔", "swords"], B: ["♣", "batons"], C: ["♥", "cups"], D: ["♦", "coins"] },
};
const RED = { french: "HD", tarot: "CD" };

export function isCard(value, pack = "french") {
  if (typeof value !== "string") return false;
  if (value === "??") return true;
  return pack === "tarot" ? TAROT.test(value) || TRUMP.test(value) || value === "MT" : FRENCH.test(value);
}

export function isCards(value, pack) {
  return Array.isArray(value) && value.length > 0 && value.every((c) => isCard(c, pack));
}

// `tarot` when the game's own card codes hold a trump, else `french`
export function packOf(description) {
  const codes = [];
  (function find(node) {
    if (Array.isArray(node)) node.forEach(find);
    else if (node && typeof node === "object") {
      if (Array.isArray(node["x-codes"])) codes.push(...node["x-codes"]);
      Object.values(node).forEach(find);
    }
  })(description?.schemas ?? {});
  return codes.includes("MT") ? "tarot" : "french";
}

export function cardElement(code, pack = "french") {
  const card = document.createElement("span");
  card.className = "card";
  card.dataset.card = code;
  if (code === "??") {
    card.classList.add("back");
    card.title = "a card face down";
    return card;
  }
  let rank, suit, name;
  if (code === "MT") {
    [rank, suit, name] = ["★", "", "the Matto"];
    card.classList.add("trump");
  } else if (pack === "tarot" && TRUMP.test(code)) {
    [rank, suit, name] = [code.slice(1), "trump", `trump ${code.slice(1)}`];
    card.classList.add("trump");
  } else {
    const [symbol, suitName] = SUITS[pack][code.at(-1)];
    const letter = code.slice(0, -1);
    rank = RANKS[letter] ?? letter;
    suit = symbol;
    name = `${RANK_NAMES[letter] ?? letter} of ${suitName}`;
    if (RED[pack].includes(code.at(-1))) card.classList.add("red");
  }
  card.title = `${name} (${code})`;
  const rankPart = document.createElement("span");
  rankPart.className = "rank";
  rankPart.textContent = rank;
  const suitPart = document.createElement("span");
  suitPart.className = "suit";
  suitPart.textContent = suit;
  card.append(rankPart, suitPart);
  return card;
}

export function cardsElement(codes, pack) {
  const row = document.createElement("span");
  row.className = "cards";
  for (const code of codes) row.append(cardElement(code, pack));
  return row;
}
