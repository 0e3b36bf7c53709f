// The page's own words in English, Portuguese and Tagalog: its buttons and headings, a label for
// each key of the games' views (`view.KEY`, or `view.GAME.KEY` where one game means another
// thing by it), the phases, the moves and their fields. What the referee itself says (verdicts,
// events, explanations) comes from the server in the language asked (Accept-Language).
// `{name}` in a word is filled by `say`; every key has every language (tests/web checks).

export const LANGUAGES = ["en", "pt", "tl"];

// key: [English, Portuguese, Tagalog]
const WORDS = {
  // --- the page ---
  "page.title": ["Referee: a table of cards", "Árbitro: uma mesa de cartas", "Referee: isang mesa ng baraha"],
  "page.name": ["Referee", "Árbitro", "Referee"],
  "mode.live": ["Play or watch a table", "Jogar ou assistir uma mesa", "Maglaro o manood sa isang mesa"],
  "mode.record": ["Step through a record", "Percorrer um registro", "Suriin ang isang talaan"],
  "language": ["Language", "Idioma", "Wika"],
  "form.table": ["Table", "Mesa", "Mesa"],
  "form.table_hint": ["table id", "id da mesa", "id ng mesa"],
  "form.token": ["Seat token", "Token do lugar", "Token ng upuan"],
  "form.token_hint": ["none: watch as a spectator", "nenhum: assistir como espectador", "wala: manood bilang manonood"],
  "form.open": ["Open", "Abrir", "Buksan"],
  "status.connecting": ["connecting…", "conectando…", "kumokonekta…"],
  "status.watching": ["at the table", "na mesa", "nasa mesa"],
  "status.over": ["the table is over", "a mesa terminou", "tapos na ang mesa"],
  "status.ended": ["the table's stream ended: {code} {message}", "a transmissão da mesa terminou: {code} {message}", "natapos ang daloy ng mesa: {code} {message}"],
  "clock.left": ["{who}: {seconds} s left", "{who}: faltam {seconds} s", "{who}: {seconds} s na lang"],
  "events": ["What happened", "O que aconteceu", "Ang nangyari"],
  "why": ["why?", "por quê?", "bakit?"],
  "why.expert": ["the rules as judged, with the values they read (expert)", "as regras como julgadas, com os valores que leram (avançado)", "ang mga patakaran ayon sa paghatol, kasama ang mga halagang binasa (para sa eksperto)"],
  "whole": ["the whole view (JSON)", "a vista inteira (JSON)", "ang buong tanaw (JSON)"],

  // --- making a move ---
  "play.title": ["Your move", "Sua jogada", "Ang tira mo"],
  "play.how": ["Click cards in your hand to choose them, then a move.", "Clique nas cartas da sua mão para escolhê-las e depois numa jogada.", "I-click ang mga baraha sa kamay mo para piliin, saka ang isang tira."],
  "play.choose": ["Choose a move.", "Escolha uma jogada.", "Pumili ng tira."],
  "play.wait": ["Not your turn: waiting for {who}.", "Não é a sua vez: esperando {who}.", "Hindi mo pa turn: {who} ang titira."],
  "play.none": ["No move for you now.", "Nenhuma jogada para você agora.", "Walang tira para sa iyo ngayon."],
  "play.chosen": ["Chosen", "Escolhidas", "Napili"],
  "play.no_card": ["no card chosen", "nenhuma carta escolhida", "walang napiling baraha"],
  "play.one_card": ["choose one card", "escolha uma carta", "pumili ng isang baraha"],
  "play.count_cards": ["choose {count} cards", "escolha {count} cartas", "pumili ng {count} baraha"],
  "play.some_cards": ["choose the cards", "escolha as cartas", "piliin ang mga baraha"],
  "play.range": ["from {min} to {max}", "de {min} a {max}", "mula {min} hanggang {max}"],
  "play.optional": ["(if you wish)", "(se quiser)", "(kung gusto mo)"],
  "play.use": ["Use it", "Como usar", "Paano gamitin"],
  "play.use_meld": ["and lay {cards}", "e baixar {cards}", "at ilatag ang {cards}"],
  "play.use_layoff": ["and lay off {cards} on meld {meld}", "e encaixar {cards} no jogo {meld}", "at idugtong ang {cards} sa meld {meld}"],
  "play.meld_of": ["meld {id}: {cards}", "jogo {id}: {cards}", "meld {id}: {cards}"],
  "play.propose": ["Propose", "Propor", "Imungkahi"],
  "play.expert": ["Expert: a move written as JSON", "Avançado: uma jogada escrita em JSON", "Para sa eksperto: isang tirang nakasulat sa JSON"],
  "play.move": ["Move", "Jogada", "Tira"],
  "play.fields": ["Fields (JSON)", "Campos (JSON)", "Mga field (JSON)"],
  "play.not_json": ["the fields are not JSON", "os campos não são JSON", "hindi JSON ang mga field"],
  "verdict.accepted": ["accepted", "aceita", "tinanggap"],
  "verdict.rejected": ["rejected", "recusada", "tinanggihan"],
  "verdict.pending": ["pending", "pendente", "nakabinbin"],

  // --- who ---
  "seat": ["seat {n}", "lugar {n}", "upuan {n}"],
  "team": ["team {n}", "equipe {n}", "koponan {n}"],
  "team.seats": ["team {n} ({seats})", "equipe {n} ({seats})", "koponan {n} ({seats})"],
  "teams": ["Teams", "Equipes", "Mga koponan"],
  "the_table": ["the table", "a mesa", "ang mesa"],
  "the_director": ["the director", "o diretor", "ang direktor"],
  "you_are": ["you are {who}", "você é {who}", "ikaw ay {who}"],
  "spectator": ["you are watching", "você está assistindo", "nanonood ka"],
  "turn.yours": ["your turn", "sua vez", "turn mo na"],
  "turn.of": ["{who} to act", "vez de {who}", "turn ng {who}"],
  "turn.nobody": ["nobody to act", "ninguém a jogar", "walang titira"],
  "badge.to_act": ["to act", "joga", "titira"],
  "badge.dealer": ["dealer", "carteador", "tagabigay"],
  "badge.banker": ["banker", "banqueiro", "bangkero"],
  "badge.mao": ["plays first", "mão", "unang titira"],
  "badge.leader": ["leads", "sai", "nangunguna"],
  "version": ["version {n}", "versão {n}", "bersyon {n}"],
  "deal.seeded": ["seeded deal", "distribuição com semente", "deal na may binhi"],
  "deal.fair": ["fair deal", "distribuição justa", "patas na deal"],
  "deal.stacked": ["chosen deal", "distribuição escolhida", "piniling deal"],
  "yes": ["yes", "sim", "oo"],
  "no": ["no", "não", "hindi"],
  "nobody": ["nobody", "ninguém", "wala"],
  "no_cards": ["no card", "nenhuma carta", "walang baraha"],

  // --- the views' keys ---
  "view.active_hand": ["hand being played", "mão em jogo", "kamay na nilalaro"],
  "view.announced_trumps": ["trumps announced", "trunfos anunciados", "inihayag na trumpo"],
  "view.balances": ["chips", "fichas", "chips"],
  "view.banker": ["banker", "banqueiro", "bangkero"],
  "view.blown": ["over the limit", "estourados", "lumampas sa hangganan"],
  "view.claim_window": ["discard open to claims", "descarte aberto a pedidos", "tapong bukas sa paghingi"],
  "view.dealer": ["dealer", "carteador", "tagabigay"],
  "view.deciding": ["deciding whether to re-enter", "decidindo se voltam", "nagpapasya kung babalik"],
  "view.deck": ["the pack", "o baralho", "ang deck"],
  "view.discard": ["the dealer's discard", "o descarte do carteador", "ang tapon ng tagabigay"],
  "view.discard_size": ["cards in the discard pile", "cartas no descarte", "baraha sa tapunan"],
  "view.tarocchi_piedicavallo.discard_size": ["cards the dealer discarded", "cartas descartadas pelo carteador", "barahang itinapon ng tagabigay"],
  "view.discard_top": ["top of the discard pile", "topo do descarte", "ibabaw ng tapunan"],
  "view.disputes": ["open disputes", "disputas abertas", "bukas na pagtatalo"],
  "view.hand": ["your hand", "sua mão", "kamay mo"],
  "view.pontoon.hand": ["your hands", "suas mãos", "mga kamay mo"],
  "view.shoot_pontoon.hand": ["your hands", "suas mãos", "mga kamay mo"],
  "view.hand_number": ["hand", "rodada", "kamay"],
  "view.tarocchi_piedicavallo.hand_number": ["deal", "mão", "deal"],
  "view.game_points": ["game points", "jogos", "puntos ng laro"],
  "view.sueca.hand_number": ["deal", "mão", "deal"],
  "view.sueca.points": ["the last deal's card points", "pontos da última mão", "puntos ng baraha ng huling deal"],
  "view.sueca.totals": ["card points, deals added", "pontos somados", "puntos ng baraha, pinagsama"],
  "view.hand_over": ["the hand is over", "a rodada terminou", "tapos na ang kamay"],
  "view.hand_sizes": ["cards in hand", "cartas na mão", "baraha sa kamay"],
  "view.hands": ["cards", "cartas", "mga baraha"],
  "view.pontoon.hands": ["hands", "mãos", "mga kamay"],
  "view.shoot_pontoon.hands": ["hands", "mãos", "mga kamay"],
  "view.jokers": ["jokers", "curingas", "mga joker"],
  "view.kitty": ["kitty", "bolo", "kitty"],
  "view.last_hand": ["the last hand", "a última rodada", "ang huling kamay"],
  "view.last_trick": ["the last trick", "a última vaza", "ang huling kuha"],
  "view.leader": ["leads the trick", "sai na vaza", "nangunguna sa kuha"],
  "view.mao": ["plays first", "mão", "unang titira"],
  "view.match_over": ["the match is over", "a partida terminou", "tapos na ang laban"],
  "view.melds": ["melds on the table", "jogos na mesa", "mga meld sa mesa"],
  "view.offer": ["the bank offered", "a banca oferecida", "ang inialok na bangko"],
  "view.on_table": ["on the table", "na mesa", "nasa mesa"],
  "view.out": ["out of the match", "fora da partida", "labas sa laban"],
  "view.out_of_hand": ["out of this hand", "fora desta rodada", "labas sa kamay na ito"],
  "view.pack": ["the pack left", "o baralho restante", "ang natitirang deck"],
  "view.phase": ["phase", "fase", "yugto"],
  "view.points": ["the last hand's points", "pontos da última rodada", "puntos ng huling kamay"],
  "view.tarocchi_piedicavallo.points": ["the last deal's points", "pontos da última mão", "puntos ng huling deal"],
  "view.pot": ["pot", "pote", "pot"],
  "view.scores": ["score", "pontuação", "iskor"],
  "view.stock": ["the stock", "o monte", "ang salansan"],
  "view.stock_size": ["cards in the stock", "cartas no monte", "baraha sa salansan"],
  "view.pontoon.stock_size": ["cards left in the pack", "cartas no baralho", "natitirang baraha sa deck"],
  "view.shoot_pontoon.stock_size": ["cards left in the pack", "cartas no baralho", "natitirang baraha sa deck"],
  "view.team": ["your team", "sua equipe", "koponan mo"],
  "view.to_act": ["to act", "a jogar", "titira"],
  "view.totals": ["points", "pontos", "puntos"],
  "view.trick": ["the trick on the table", "a vaza na mesa", "ang kuha sa mesa"],
  "view.tricks": ["tricks won", "vazas ganhas", "napanalunang kuha"],
  "view.turned": ["the turned card", "a carta virada", "ang binaligtad na baraha"],
  "view.went_out": ["went out", "bateu", "lumabas"],
  "view.winner": ["winner", "vencedor", "nanalo"],
  // inside a meld, a hand, a trick, the last hand, an offer, a claim window
  "view.cards": ["cards", "cartas", "mga baraha"],
  "view.discarder": ["discarded by", "descartado por", "itinapon ni"],
  "view.waiting": ["may still answer", "ainda podem responder", "puwede pang sumagot"],
  "view.number": ["window", "janela", "bintana"],
  "view.next_banker": ["next banker", "próximo banqueiro", "susunod na bangkero"],
  "view.to": ["to", "para", "kay"],
  "view.price": ["price", "preço", "presyo"],
  "view.void": ["void", "anulada", "walang bisa"],
  "view.reason": ["reason", "motivo", "dahilan"],

  // --- in a holding's caption ---
  "meld.caption": ["meld {id} · {kind} · {owner}", "jogo {id} · {kind} · {owner}", "meld {id} · {kind} · {owner}"],
  "kind.sequence": ["sequence", "sequência", "sunod-sunod"],
  "kind.trio": ["trio", "trinca", "trio"],
  "hand.stake": ["stake {total}", "aposta {total}", "taya {total}"],
  "hand.stake_bought": ["stake {total} (bet {bet} + bought {bought})", "aposta {total} (inicial {bet} + compras {bought})", "taya {total} ({bet} na paunang taya + {bought} na binili)"],
  "hand.shoot": ["shoot {n}", "shoot {n}", "shoot {n}"],
  "hand.done": ["stands", "parou", "tumigil na"],
  "hand.twisted": ["twisted", "pediu carta aberta", "nag-twist"],
  "hand.split": ["split", "dividida", "hinati"],
  "hand.settled": ["settled", "acertada", "naayos na"],
  "dispute.version": ["dispute {n}: {who}, on the move that made version {version}", "disputa {n}: {who}, sobre a jogada que fez a versão {version}", "pagtatalo {n}: {who}, sa tirang gumawa ng bersyon {version}"],
  "dispute.proposal": ["dispute {n}: {who}, on a proposal", "disputa {n}: {who}, sobre uma proposta", "pagtatalo {n}: {who}, sa isang mungkahi"],
  "trick.won_by": ["won by {who}", "ganha por {who}", "nakuha ni {who}"],

  // --- phases ---
  "phase.take": ["draw or take the discard", "comprar ou pegar o descarte", "bumunot o kunin ang tapon"],
  "phase.play": ["play", "jogo", "laro"],
  "phase.decide": ["re-entry decisions", "decisões de volta", "pagpapasya sa pagbalik"],
  "phase.over": ["over", "terminada", "tapos na"],
  "phase.bet": ["bets", "apostas", "pagtaya"],
  "phase.banker": ["the banker's turn", "a vez do banqueiro", "turn ng bangkero"],
  "phase.between": ["between hands", "entre rodadas", "sa pagitan ng mga kamay"],
  "phase.kitty": ["the kitty", "o bolo", "ang kitty"],
  "phase.discard": ["the dealer's discard", "o descarte do carteador", "ang tapon ng tagabigay"],

  // --- moves and their fields ---
  "move.draw": ["draw", "comprar do monte", "bumunot"],
  "move.take_discard": ["take the discard", "pegar o descarte", "kunin ang tapon"],
  "move.meld": ["lay a meld", "baixar um jogo", "maglatag ng meld"],
  "move.layoff": ["lay off", "encaixar", "idugtong"],
  "move.discard": ["discard", "descartar", "magtapon"],
  "move.go_out": ["go out", "bater", "lumabas"],
  "move.swap_joker": ["swap a joker", "trocar um curinga", "palitan ang joker"],
  "move.pass": ["pass", "passar", "pumasa"],
  "move.reenter": ["re-enter", "voltar", "bumalik"],
  "move.decline": ["decline", "recusar", "tumanggi"],
  "move.contribute": ["mix in your characters", "misturar seus caracteres", "ihalo ang mga titik mo"],
  "move.dispute": ["call the director", "chamar o diretor", "tawagin ang direktor"],
  "move.bet": ["bet", "apostar", "tumaya"],
  "move.split": ["split", "dividir", "hatiin"],
  "move.buy": ["buy a card", "comprar uma carta", "bumili ng baraha"],
  "move.twist": ["twist", "pedir carta aberta", "mag-twist"],
  "move.stick": ["stick", "parar", "manatili"],
  "move.burn": ["burn", "queimar", "i-burn"],
  "move.offer_bank": ["offer the bank", "oferecer a banca", "ialok ang bangko"],
  "move.accept_bank": ["take the bank", "aceitar a banca", "kunin ang bangko"],
  "move.next_hand": ["deal the next hand", "dar a próxima rodada", "ibigay ang susunod na deal"],
  "move.kitty": ["put up the kitty", "pôr o bolo", "ilagay ang kitty"],
  "move.play": ["play a card", "jogar uma carta", "magtira ng baraha"],
  "field.card": ["card", "carta", "baraha"],
  "field.cards": ["cards", "cartas", "mga baraha"],
  "field.amount": ["amount", "valor", "halaga"],
  "field.shoot": ["shoot bet", "aposta shoot", "shoot na taya"],
  "field.trumps": ["trumps to announce", "trunfos a anunciar", "trumpong ihahayag"],
  "field.to": ["to seat", "para o lugar", "sa upuan"],
  "field.price": ["price", "preço", "presyo"],
  "field.meld": ["onto meld", "no jogo", "sa meld"],
  "field.entropy": ["your characters", "seus caracteres", "mga titik mo"],
  "field.reason": ["reason", "motivo", "dahilan"],
  "field.version": ["version", "versão", "bersyon"],
  "field.proposal": ["proposal", "proposta", "mungkahi"],

  // --- a record, step by step ---
  "record.file": ["Record (YAML or JSON)", "Registro (YAML ou JSON)", "Talaan (YAML o JSON)"],
  "record.first": ["before the first move", "antes da primeira jogada", "bago ang unang tira"],
  "record.back": ["one step back", "um passo atrás", "isang hakbang pabalik"],
  "record.next": ["one step on", "um passo à frente", "isang hakbang pasulong"],
  "record.last": ["the last step judged", "o último passo julgado", "ang huling hakbang na hinatulan"],
  "record.none": ["no record", "nenhum registro", "walang talaan"],
  "record.start": ["before step 1 of {n}", "antes do passo 1 de {n}", "bago ang hakbang 1 sa {n}"],
  "record.after": ["after step {k} of {n}", "depois do passo {k} de {n}", "pagkatapos ng hakbang {k} sa {n}"],
  "record.steps": ["Steps", "Passos", "Mga hakbang"],
  "record.legal": ["every move is legal: {moves} moves", "todas as jogadas são legais: {moves} jogadas", "legal ang bawat tira: {moves} tira"],
  "record.illegal": ["step {step}: {who}, {move}: illegal", "passo {step}: {who}, {move}: ilegal", "hakbang {step}: {who}, {move}: ilegal"],
  "record.illegal_mark": ["illegal", "ilegal", "ilegal"],
  "record.next_illegal": ["the next move is illegal", "a próxima jogada é ilegal", "ilegal ang susunod na tira"],
  "record.whole_only": ["the steps cannot be shown one by one ({error}); the referee judges the whole record", "os passos não podem ser mostrados um a um ({error}); o árbitro julga o registro inteiro", "hindi maipakita nang isa-isa ang mga hakbang ({error}); hinahatulan ng referee ang buong talaan"],
  "record.viewer": ["every card shown", "todas as cartas à vista", "lahat ng baraha ay nakikita"],
  "record.adjudicator": ["{title}: the adjudicator's view", "{title}: a vista do árbitro", "{title}: ang tanaw ng tagahatol"],
  "record.check": ["a check of the table", "uma verificação da mesa", "isang pagsusuri ng mesa"],
  "record.window": ["the table: a deadline passed", "a mesa: um prazo passou", "ang mesa: lumipas ang takdang oras"],
  // the director's steps, and a seat's dispute (steps.js)
  "step.dispute": ["call the director on step {version}", "chamar o diretor sobre o passo {version}", "tawagin ang direktor sa hakbang {version}"],
  "step.dispute_proposal": ["call the director on proposal {proposal}", "chamar o diretor sobre a proposta {proposal}", "tawagin ang direktor sa mungkahing {proposal}"],
  "step.ruling": ["rule on dispute {dispute}: {what}", "decidir a disputa {dispute}: {what}", "pagpasyahan ang pagtatalo {dispute}: {what}"],
  "step.uphold": ["the verdict stands", "o veredito fica", "mananatili ang hatol"],
  "step.rewind": ["the table goes back to version {to}", "a mesa volta à versão {to}", "babalik ang mesa sa bersyon {to}"],
  "step.adjust": ["{amount} in {tally} for {who}", "{amount} em {tally} para {who}", "{amount} sa {tally} ng {who}"],
  "step.reissue": ["give {who} a new token", "dar um token novo para {who}", "bigyan ng bagong token ang {who}"],

  // --- cards ---
  "card.name": ["{rank} of {suit}", "{rank} de {suit}", "{rank} ng {suit}"],
  "card.back": ["a card face down", "uma carta virada para baixo", "isang nakataob na baraha"],
  "card.trump": ["trump {n}", "trunfo {n}", "trumpo {n}"],
  "card.matto": ["the Matto", "o Matto", "ang Matto"],
  "rank.A": ["ace", "ás", "alas"],
  "rank.J": ["jack", "valete", "sota"],
  "rank.Q": ["queen", "dama", "reyna"],
  "rank.K": ["king", "rei", "hari"],
  "rank.N": ["knight", "cavaleiro", "kabalyero"],
  "suit.french.S": ["spades", "espadas", "espada"],
  "suit.french.H": ["hearts", "copas", "puso"],
  "suit.french.D": ["diamonds", "ouros", "diyamante"],
  "suit.french.C": ["clubs", "paus", "trebol"],
  "suit.tarot.S": ["swords", "espadas", "espada"],
  "suit.tarot.B": ["batons", "paus", "basto"],
  "suit.tarot.C": ["cups", "copas", "kopa"],
  "suit.tarot.D": ["coins", "ouros", "oros"],
};

let current = "en";

export function setLanguage(language) {
  current = LANGUAGES.includes(language) ? language : "en";
}

export const language = () => current;

export function has(key) {
  return key in WORDS;
}

// the word `key` in the page's language, its `{name}`s filled from `values`
export function say(key, values = {}) {
  const entry = WORDS[key];
  const text = entry ? entry[LANGUAGES.indexOf(current)] : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// a view key's label: the game's own word for it, else the key's, else the key in words
export function labelOf(key, game) {
  if (has(`view.${game}.${key}`)) return say(`view.${game}.${key}`);
  if (has(`view.${key}`)) return say(`view.${key}`);
  return key.replaceAll("_", " ");
}

// every word in each language, for the page's tests
export function dictionary() {
  return Object.fromEntries(
    LANGUAGES.map((lang, i) => [lang, Object.fromEntries(Object.entries(WORDS).map(([k, v]) => [k, v[i]]))]),
  );
}
