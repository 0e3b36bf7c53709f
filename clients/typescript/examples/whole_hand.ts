// A whole deal of Piedicavallo Tarocchi (4 seats, 2 against 2), told in the players' language.
// Each seat plays the first card it holds; when the referee refuses, its verdict says why
// (`message`) and how to mend the move (`hint` in words, `fix` as data), and the seat makes the
// move the fix names. Every event comes with its sentence (`text`), for the seat that reads it.
//
//   make run                                               # a referee on 127.0.0.1:50051
//   node dist/examples/whole_hand.js 127.0.0.1:50051 pt    # or en
import { Referee, tarocchiPiedicavallo as tarocchi } from "../src/index.js";

const [target = "127.0.0.1:50051", language = "pt"] = process.argv.slice(2);
const referee = await Referee.connect(target, { language });
const table = await referee.createTable("tarocchi_piedicavallo", {
  seats: 4, names: { 0: "Ana", 1: "Bruno", 2: "Carla", 3: "Davi" },
  seed: 3, // the same deal every time (`make run` allows it); a live referee deals fair: leave it out
});

let over = false;
while (!over) {
  const { view: { to_act: seat } } = await table.view();   // the public view: whose turn it is
  if (seat === null) throw new Error("nobody is to act");
  const player = table.seat(seat);                          // acts with that seat's token
  const { view } = await player.view();                     // what that seat sees: its hand, its name
  const name = view.names?.[seat] ?? `seat ${seat}`;
  const card = view.hand![0]!;
  let verdict = await player.propose(view.phase === "discard"
    ? tarocchi.discard({ cards: [card] }) : tarocchi.play({ card }));
  for (const violation of verdict.violations) console.log(`${name} ✗ ${violation.message}: ${violation.hint}`);
  const fix = verdict.violations[0]?.fix;
  if (fix?.kind === "play_one_of") verdict = await player.propose(tarocchi.play({ card: fix.cards[0]! }));
  if (fix?.kind === "choose_from") {
    verdict = await player.propose(tarocchi.discard({ cards: fix.cards.slice(0, fix.count) }));
  }
  if (!verdict.accepted) throw new Error(`${name}: ${verdict.violations[0]?.message}`);
  for (const event of verdict.events) console.log(`${name} ✓ ${event.text}`);
  over = verdict.events.some((event) => event.kind === "deal_over");
}
referee.close();
