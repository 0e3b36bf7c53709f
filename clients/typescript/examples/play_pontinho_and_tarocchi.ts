// Plays a whole hand of Pontinho (3 seats) and a whole deal of Piedicavallo Tarocchi (4 seats,
// 2 against 2) against a running referee, each bot with its own seat's token, a spectator
// watching each table.
//
//   make run                                            # in one terminal (stacked decks and seeds allowed)
//   cd clients/typescript && npm run build
//   node dist/examples/play_pontinho_and_tarocchi.js 127.0.0.1:50051
import { type pontinho, Referee, type Seat, type Table, type tarocchiPiedicavallo } from "../src/index.js";
import { pontinhoCandidates, tarocchiCandidates } from "./bots.js";

type Say = (line: string) => void;
type PontinhoTable = Table<{ move: pontinho.Move; view: pontinho.View; event: pontinho.Event }>;
type TarocchiGame = { move: tarocchiPiedicavallo.Move; view: tarocchiPiedicavallo.View;
  event: tarocchiPiedicavallo.Event };

/** One hand of Pontinho, from a chosen seed: the `hand_over` event that ends it. */
export async function playPontinhoHand(referee: Referee, seed = 7, say: Say = console.log) {
  const table: PontinhoTable = await referee.createTable("pontinho", { seats: 3, seed });
  const watched = spectate(table, "hand_over");
  while (true) {
    const { view } = await table.view();
    const seat = view.claim_window?.waiting[0] ?? view.to_act ?? view.deciding[0];
    if (seat === undefined || seat === null) throw new Error("nobody is to act");
    const events = await playTurn(table.seat(seat), pontinhoCandidates, say);
    const over = events.find((e) => e.kind === "hand_over");
    if (over) {
      say(`pontinho: seat ${over.went_out} went out; points ${JSON.stringify(over.points)}`);
      say(`  the spectator saw ${await watched} accepted moves`);
      return over;
    }
  }
}

/** One deal of Tarocchi, from a chosen seed: the `deal_over` event that ends it. */
export async function playTarocchiDeal(referee: Referee, seed = 3, say: Say = console.log) {
  const table = await referee.createTable("tarocchi_piedicavallo", { seats: 4, seed });
  const watched = spectate(table, "deal_over");
  while (true) {
    const { view } = await table.view();
    if (view.to_act === null) throw new Error("nobody is to act");
    const events = await playTurn(table.seat(view.to_act), tarocchiCandidates, say);
    for (const event of events) {
      if (event.kind === "trick_won") say(`  trick ${event.number}: ${event.cards.join(" ")} -> seat ${event.seat}`);
      if (event.kind === "deal_over") {
        say(`tarocchi: points ${JSON.stringify(event.points)}, tricks ${JSON.stringify(event.tricks)}; ` +
          (event.winner === null ? "a tie" : `team ${event.winner} wins`));
        say(`  the spectator saw ${await watched} accepted moves`);
        return event;
      }
    }
  }
}

/** The seat proposes its bot's candidates until one is accepted: the events it caused. */
async function playTurn<G extends { move: { type: string }; view: object; event: { kind: string } }>(
  seat: Seat<G>, candidates: (view: G["view"]) => Iterable<G["move"]>, say: Say,
): Promise<G["event"][]> {
  const { view, version } = await seat.view();
  for (const move of candidates(view)) {
    const verdict = await seat.propose(move, { expectedVersion: version });
    if (verdict.outcome !== "rejected") {
      say(`seat ${seat.seat}: ${JSON.stringify(move)} -> ${verdict.outcome} (version ${verdict.version})`);
      return verdict.events;
    }
  }
  throw new Error(`seat ${seat.seat}: no candidate move was accepted`);
}

/** A spectator's Watch stream, up to the first event of `kind`: how many moves it saw. */
async function spectate<G extends TarocchiGame | { move: pontinho.Move; view: pontinho.View; event: pontinho.Event }>(
  table: Table<G>, kind: string,
): Promise<number> {
  let moves = 0;
  for await (const update of table.watch()) {
    moves += 1;
    if (update.events.some((e) => e.kind === kind)) break; // leaving the loop ends the stream
  }
  return moves;
}

async function main(target = "127.0.0.1:50051") {
  const referee = await Referee.connect(target);
  try {
    await playPontinhoHand(referee);
    await playTarocchiDeal(referee);
  } finally {
    referee.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv[2]).catch((error) => { console.error(String(error)); process.exit(1); });
}
