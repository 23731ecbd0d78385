// The Thousand (Tuhat) table: the auction offering only legal bids, the talon, giving or laying aside
// cards, tricks with trump and marriages, and the score sheet with totals and bombs.

import { keyLabel, moveKey } from "../movekeys.js";
import { h, replace } from "../dom.js";
import { t, tn } from "../i18n.js";
import { cardEl, cardName } from "../cards.js";
import { sendMove } from "./refusal.js";
import { actionLine, seatActions, shortCard } from "./lastaction.js";

// Trick order within a suit (T1): 9 < J < Q < K < 10 < A; hands are shown grouped by suit.
const ORDER = "9JQKTA";
const SUIT_ORDER = "shdc";
const SUIT_SIGN = { s: "♠", h: "♥", d: "♦", c: "♣" };

export function sortHand(cards) {
  return [...cards].sort((a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || ORDER.indexOf(b[0]) - ORDER.indexOf(a[0]));
}

function suitName(suit) {
  return { s: t("spades"), h: t("hearts"), d: t("diamonds"), c: t("clubs") }[suit] || suit;
}

function phaseName(phase) {
  return {
    auction: t("Bidding"), lottery: t("Nine lottery"), talon: t("Talon"), exchange: t("Giving cards"),
    play: t("Tricks"), over: t("Game over"),
  }[phase] || phase;
}

// Whom the table waits for: the seat on turn (in the nine lottery, the guessers act at once).
export function waiting(view) {
  if (view.phase === "over") return [];
  if (view.phase === "lottery") return [];
  return view.turn !== null && view.turn !== undefined ? [view.turn] : [];
}

const legalOf = (state, type) => ((state && state.legal) || []).filter((a) => a.type === type);

function statusText(ctx, view, state) {
  if (state.outcome || view.phase === "over") return t("The game is over.");
  const acting = waiting(view);
  // A replay draws a seat's view, but nobody there is to move: its turns are told as anyone's.
  const mine = !ctx.replaying && ctx.seat !== null && ((state.to_act || []).includes(ctx.seat) || acting.includes(ctx.seat));
  let who = "";
  if (mine && view.phase === "auction" && view.looked && !view.looked[ctx.seat]) who = t("Your turn: look at your cards, or bid blind.");
  else if (mine && view.phase === "lottery") who = t("Your turn: guess the colour of the nine.");
  else if (mine) who = t("Your turn.");
  else if (acting.length === 1) who = t("{name}'s turn.", { name: ctx.seatName(acting[0]) });
  return `${phaseName(view.phase)} · ${who}`;
}

function renderContract(ctx, view) {
  const parts = [];
  if (view.phase === "auction" && view.auction.bid) {
    parts.push(t("Highest bid {n} by {name}", { n: view.auction.bid, name: ctx.seatName(view.auction.bidder) })
      + (view.auction.blind ? ` (${t("blind")})` : ""));
  }
  if (view.contract && view.bidder !== null && view.phase !== "auction") {
    parts.push(t("Contract {n}: {name}", { n: view.contract, name: ctx.seatName(view.bidder) }) + (view.blind ? ` (${t("blind")})` : ""));
  }
  parts.push(view.trump
    ? t("Trump: {suit}", { suit: `${SUIT_SIGN[view.trump]} ${suitName(view.trump)}` })
    : t("No trump"));
  return h("p", { class: "contract", dataset: { trump: view.trump || "" } }, parts.join(" · "));
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// One line for a score-sheet row: what happened and each player's points, with bombs and
// "800 and stuck" marks (T10, T17).
export function scoreLine(row, seatName, view) {
  const seats = (row.points || []).map((_, i) => i);
  let head;
  if (row.type === "bomb") head = t("Deal {n}: {name} played a bomb", { n: row.deal ?? "", name: seatName(row.bidder) });
  else if (row.type === "deal") {
    head = row.made
      ? t("Deal {n}: {name} made {contract}", { n: row.deal, name: seatName(row.bidder), contract: row.contract })
      : t("Deal {n}: {name} went down on {contract}", { n: row.deal, name: seatName(row.bidder), contract: row.contract });
    if (row.blind) head += ` (${t("blind, counts double")})`;
  } else if (row.type === "lottery") head = t("Nine lottery");
  else head = t("Redeal penalty");
  const points = seats.map((s) => `${seatName(s)} ${signed(row.points[s] ?? 0)}`).join(" · ");
  const marks = [];
  if (view) {
    seats.forEach((s) => {
      if (view.stuck && view.stuck[s]) marks.push(t("{name}: 800 and stuck", { name: seatName(s) }));
      if (view.bombs_used && view.bombs_used[s]) marks.push(t("{name}: bombs {n}/{max}", { name: seatName(s), n: view.bombs_used[s], max: view.bombs_per_game }));
    });
  }
  return [head, points, ...marks].filter(Boolean).join(" — ");
}

function renderLastScore(ctx, view) {
  const rows = view.score_sheet || [];
  if (!rows.length) return null;
  return h("p", { class: "deal-score", role: "status" }, scoreLine(rows[rows.length - 1], ctx.seatName, view));
}

function renderOpponent(ctx, view, seat, shown) {
  const acting = waiting(view).includes(seat);
  const passed = view.auction && view.auction.passed[seat];
  const marriages = (view.marriages[seat] || []).map((s) => `${SUIT_SIGN[s]}`).join(" ");
  const sitting = view.active && !view.active.includes(seat);
  return h("section", { class: `seat-box${acting ? " turn" : ""}`, dataset: { seat } },
    h("h2", {}, ctx.seatName(seat), seat === view.dealer ? h("span", { class: "tag" }, t("dealer")) : null,
      view.phase === "auction" && passed ? h("span", { class: "tag" }, t("passed")) : null,
      view.stuck && view.stuck[seat] ? h("span", { class: "tag" }, t("800 and stuck")) : null),
    actionLine(shown, seat),
    sitting ? h("p", { class: "muted" }, t("sits out this deal")) : h("div", { class: "card-row small-cards" },
      Array.from({ length: Math.min(view.hand_counts[seat] || 0, 10) }, () => cardEl(null))),
    h("p", { class: "muted" },
      h("span", { dataset: { count: "hand" } }, t("Cards: {n}", { n: view.hand_counts[seat] || 0 })), " · ",
      t("Tricks: {n}", { n: view.tricks_taken[seat] || 0 }),
      marriages ? ` · ${t("Marriages")}: ${marriages}` : ""),
    h("p", { class: "score" }, t("Score {n}", { n: view.scores[seat] })));
}

// The talon lies on the table only until it is taken (T9): then its cards are in a hand.
function renderCenter(ctx, view) {
  const talon = view.talon || { count: 0, cards: null };
  let talonCards = [];
  if (talon.count > 0) {
    talonCards = talon.cards ? talon.cards.map((c) => cardEl(c)) : Array.from({ length: talon.count }, () => cardEl(null));
  }
  const trick = (view.trick || []).map(([seat, card]) => h("div", { class: "card-stack" }, cardEl(card), h("span", { class: "muted" }, ctx.seatName(seat))));
  const last = (view.last_trick || []).map(([, card]) => cardEl(card));
  return h("section", { class: "center", "aria-label": t("Middle of the table") },
    talonCards.length ? h("div", { class: "card-stack talon" }, h("div", { class: "card-row small-cards" }, talonCards), h("span", { class: "muted" }, t("Talon"))) : null,
    view.stock ? h("div", { class: "card-stack" }, cardEl(null), h("span", { class: "muted" }, t("Stock")), h("span", { class: "count" }, view.stock)) : null,
    h("div", { class: "trick" }, trick.length ? trick : h("span", { class: "empty-slot" }, t("Trick"))),
    last.length ? h("div", { class: "card-stack last-trick" }, h("div", { class: "card-row small-cards" }, last), h("span", { class: "muted" }, t("Last trick"))) : null);
}

// The auction's moves. Looking comes first: a bid made before looking is blind (T11) and counts
// double, so its button says so.
function renderAuctionControls(ctx, state, act) {
  const view = state.view;
  const parts = [];
  for (const action of legalOf(state, "look")) {
    parts.push(h("button", { type: "button", class: "primary", dataset: { action: "look" }, onclick: () => act(action) }, t("Look at my cards")));
  }
  const bids = legalOf(state, "bid");
  if (bids.length) {
    const blind = view.phase === "auction" && view.looked && ctx.seat !== null && !view.looked[ctx.seat];
    const select = h("select", { "aria-label": t("Bid"), dataset: { role: "bid" } },
      bids.map((a) => h("option", { value: a.value }, String(a.value))));
    let label = t("Bid");
    if (view.phase === "exchange") label = t("Raise the contract");
    else if (blind) label = t("Bid blind (counts double)");
    parts.push(h("div", { class: "bid-row" }, select,
      h("button", {
        type: "button", class: blind ? "blind" : "primary", dataset: { action: "bid", blind: blind ? "true" : "false" },
        onclick: () => act({ type: "bid", value: Number(select.value) }),
      }, label)));
  }
  for (const [type, text] of [
    ["pass", t("Pass")], ["redeal", t("Show hand for a redeal")],
    ["take_talon", t("Take the talon")], ["bomb", t("Bomb: give up the deal")],
  ]) {
    for (const action of legalOf(state, type)) {
      const suffix = action.bank !== undefined ? ` ${action.bank + 1}` : "";
      parts.push(h("button", { type: "button", dataset: { action: type }, onclick: () => act(action) }, text + suffix));
    }
  }
  for (const action of legalOf(state, "lottery")) {
    parts.push(h("button", { type: "button", dataset: { action: "lottery" }, onclick: () => act(action) }, t("Run the nine lottery with {card}", { card: cardName(action.nine) })));
  }
  for (const action of legalOf(state, "guess")) {
    parts.push(h("button", { type: "button", dataset: { action: "guess", colour: action.colour }, onclick: () => act(action) }, action.colour === "red" ? t("Guess red") : t("Guess black")));
  }
  return parts;
}

function renderExchangeControls(ui, ctx, state, act, redraw) {
  const view = state.view;
  const parts = [];
  const discards = legalOf(state, "discard");
  if (discards.length) {
    const match = discards.find((a) => a.cards.length === ui.selected.length && a.cards.every((c) => ui.selected.includes(c)));
    parts.push(h("button", { type: "button", class: "primary", dataset: { action: "discard" }, disabled: !match, onclick: () => match && act(match) },
      t("Lay aside the chosen cards ({n}/3)", { n: ui.selected.length })));
  }
  const gives = legalOf(state, "give");
  if (gives.length) {
    const receivers = Object.keys(gives[0].cards).map(Number);
    const each = Array.isArray(gives[0].cards[String(receivers[0])]) ? gives[0].cards[String(receivers[0])].length : 1;
    for (const seat of receivers) {
      const given = ui.gives[seat] || [];
      // Choosing a receiver is one step of the "give" move.
      parts.push(h("button", {
        type: "button", dataset: { action: "give", to: seat },
        disabled: ui.selected.length !== each,
        onclick: () => {
          ui.gives[seat] = [...ui.selected];
          ui.selected = [];
          redraw();
        },
      }, t("Give to {name}", { name: ctx.seatName(seat) }), given.length ? `: ${given.map(cardName).join(", ")}` : ""));
    }
    const wanted = {};
    for (const seat of receivers) wanted[seat] = ui.gives[seat] || [];
    const match = gives.find((a) => receivers.every((seat) => {
      const value = a.cards[String(seat)];
      const list = Array.isArray(value) ? value : [value];
      return list.length === wanted[seat].length && list.every((c) => wanted[seat].includes(c));
    }));
    parts.push(h("button", { type: "button", class: "primary", dataset: { action: "give", role: "submit" }, disabled: !match, onclick: () => match && act(match) }, t("Give the cards")));
  }
  if (view.aside && view.aside.length) {
    parts.push(h("div", { class: "card-stack" }, h("div", { class: "card-row small-cards" }, view.aside.map((c) => cardEl(c))), h("span", { class: "muted" }, t("Laid aside"))));
  }
  return parts;
}

function renderPlayControls(ui, state, act) {
  if (ui.selected.length !== 1) return [];
  const options = legalOf(state, "play").filter((a) => a.card === ui.selected[0]);
  return options.map((a) => h("button", {
    type: "button", class: a.declare ? "primary" : "", dataset: { action: "play", declare: a.declare ? "true" : "false" }, onclick: () => act(a),
  }, a.declare ? t("Play {card} and declare the marriage", { card: cardName(a.card) }) : t("Play {card}", { card: cardName(a.card) })));
}

function renderScoreSheet(ctx, view) {
  const seats = Array.from({ length: view.seats }, (_, i) => i);
  const rows = (view.score_sheet || []).map((row) => h("tr", { class: `row-${row.type}` },
    h("td", {}, row.deal ?? ""),
    h("td", {}, row.type === "bomb" ? `${t("Bomb")} (${ctx.seatName(row.bidder)})`
      : row.type === "deal" ? `${ctx.seatName(row.bidder)} ${row.contract}${row.blind ? ` ${t("blind")}` : ""} ${row.made ? "✓" : "✗"}`
        : row.type === "lottery" ? t("Nine lottery") : t("Redeal penalty")),
    seats.map((s) => h("td", {}, row.points ? String(row.points[s] ?? 0) : "", h("small", { class: "muted" }, ` ${row.totals ? row.totals[s] : ""}`)))));
  return h("details", { class: "score-sheet", open: true },
    h("summary", {}, t("Score sheet"), " · ", t("to {n}", { n: view.target_score })),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Contract")), seats.map((s) => h("th", {}, ctx.seatName(s))))),
      h("tbody", {}, rows),
      h("tfoot", {},
        h("tr", {}, h("td", {}, ""), h("th", {}, t("Bombs used")), seats.map((s) => h("td", {}, `${view.bombs_used[s]}/${view.bombs_per_game}`))),
        h("tr", { class: "totals" }, h("td", {}, ""), h("th", {}, t("Total")), seats.map((s) => h("th", { dataset: { total: s } }, String(view.scores[s])))))));
}

function renderHand(ui, ctx, state, clickCard) {
  const view = state.view;
  const me = ctx.seat;
  const cards = view.hand ? sortHand(view.hand) : [];
  const playable = new Set(legalOf(state, "play").map((a) => a.card));
  const choosing = legalOf(state, "discard").length || legalOf(state, "give").length;
  if (!view.hand) {
    return h("div", { class: "card-row hand", role: "group", "aria-label": t("Your hand") },
      h("span", { class: "hand-count", dataset: { count: "my-hand" } }, String(view.hand_counts[me] || 0)),
      Array.from({ length: view.hand_counts[me] || 0 }, () => cardEl(null)));
  }
  const row = cards.map((card, index) => {
    const el = cardEl(card, {
      button: true,
      selected: ui.selected.includes(card),
      disabled: !(playable.has(card) || choosing),
      extra: { "data-key": `hand-${index}`, "data-zone": "hand", class: playable.has(card) ? "playable" : "" },
    });
    // A playable card is a move of its own: one click plays it (or offers the marriage).
    if (playable.has(card)) el.dataset.action = "play";
    el.addEventListener("click", () => clickCard(card));
    return el;
  });
  return h("div", { class: `card-row hand${cards.length > 8 ? " crowded" : ""}`, role: "group", "aria-label": t("Your hand") },
    h("span", { class: "hand-count", dataset: { count: "my-hand" } }, String(cards.length)), row);
}

export function mount(root, ctx) {
  const ui = { state: null, selected: [], gives: {} };
  const actions = seatActions(describeAction, (event) => event.type === "deal_started");
  const felt = h("div", { class: "felt thousand" });
  const dock = h("div", { class: "dock-thousand" });
  replace(root, felt);
  replace(ctx.dock, dock);

  async function act(action) {
    if (await sendMove(dock, ctx, action)) {
      ui.selected = [];
      ui.gives = {};
    }
  }

  function hand() {
    const view = ui.state.view;
    return view.hand ? sortHand(view.hand) : [];
  }

  function clickCard(card) {
    const plays = legalOf(ui.state, "play").filter((a) => a.card === card);
    if (plays.length === 1) return act(plays[0]);
    const at = ui.selected.indexOf(card);
    if (at >= 0) ui.selected.splice(at, 1);
    else if (plays.length > 1) ui.selected = [card];
    else ui.selected.push(card);
    draw();
    return null;
  }

  function draw() {
    const state = ui.state;
    const view = state.view;
    const me = ctx.seat;
    const others = Array.from({ length: view.seats }, (_, i) => i).filter((s) => s !== me);
    const shown = actions.current(waiting(view));
    replace(felt,
      renderContract(ctx, view),
      renderLastScore(ctx, view),
      h("div", { class: "opponents" }, others.map((s) => renderOpponent(ctx, view, s, shown))),
      renderCenter(ctx, view),
      renderScoreSheet(ctx, view));
    const scroller = dock.querySelector(".hand");
    const scrolled = scroller ? scroller.scrollLeft : 0;
    const over = Boolean(state.outcome) || view.phase === "over";
    const given = me !== null ? (view.given || []).map(([from, to, card]) => h("li", {}, t("{from} gave {to}: {card}", {
      from: ctx.seatName(from), to: ctx.seatName(to), card: Array.isArray(card) ? card.map(cardName).join(", ") : cardName(card),
    }))) : [];
    const controls = me !== null
      ? [...renderAuctionControls(ctx, state, act), ...renderExchangeControls(ui, ctx, state, act, draw), ...renderPlayControls(ui, state, act)]
      : [];
    replace(dock,
      h("p", { class: "status-line", role: "status", "aria-live": "polite" }, statusText(ctx, view, state),
        me !== null ? h("span", { class: "own-score muted" }, ` · ${t("Score {n}", { n: view.scores[me] })}`) : null,
        me !== null && me === view.dealer ? h("span", { class: "tag" }, t("dealer")) : null,
        me !== null && (view.marriages[me] || []).length ? h("span", { class: "muted" }, ` · ${t("Marriages")}: ${(view.marriages[me] || []).map((s) => SUIT_SIGN[s]).join(" ")}`) : null),
      h("p", { class: "refusal", role: "alert", hidden: true }),
      given.length && !over ? h("ul", { class: "given muted" }, given) : null,
      me !== null && !over ? h("div", { class: "controls", role: "toolbar", "aria-label": t("Moves") }, controls) : null,
      me !== null && !over ? renderHand(ui, ctx, state, clickCard) : null);
    const again = dock.querySelector(".hand");
    if (again) again.scrollLeft = scrolled;
  }

  return {
    update(state) {
      actions.note(state);
      ui.state = state;
      const inHand = new Set(hand());
      ui.selected = ui.selected.filter((c) => inHand.has(c));
      for (const seat of Object.keys(ui.gives)) ui.gives[seat] = ui.gives[seat].filter((c) => inHand.has(c));
      if (state.view) draw();
    },
    onKey(event) {
      if (!ui.state || ctx.seat === null) return false;
      const key = event.key.toLowerCase();
      if (/^[1-9]$/.test(key)) {
        const card = hand()[Number(key) - 1];
        if (card) clickCard(card);
        return Boolean(card);
      }
      if (key === "0") {
        const card = hand()[9];
        if (card) clickCard(card);
        return Boolean(card);
      }
      if (key === "escape") {
        ui.selected = [];
        draw();
        return true;
      }
      const pass = legalOf(ui.state, "pass")[0];
      const is = (move, english) => key === moveKey("thousand", move, english);
      if (is("pass", "n") && pass) return act(pass), true;
      if (is("bid", "b")) {
        const button = dock.querySelector("button[data-action=bid]");
        if (button) return button.click(), true;
      }
      if (is("take_talon", "t") && legalOf(ui.state, "take_talon").length === 1) return act(legalOf(ui.state, "take_talon")[0]), true;
      return false;
    },
  };
}

export function keys() {
  return [
    ["1–9, 0", t("Choose or play the card at that place in your hand")],
    [keyLabel("thousand", "bid", "b"), t("Bid")],
    [keyLabel("thousand", "pass", "n"), t("Pass")],
    [keyLabel("thousand", "take_talon", "t"), t("Take the talon")],
    ["Esc", t("Clear the choice")],
  ];
}

export function describeEvent(event, seatName) {
  const who = event.seat !== undefined && event.seat !== null ? seatName(event.seat) : "";
  const cards = (list) => (list || []).map(cardName).join(", ");
  switch (event.type) {
    case "deal_started": return t("Deal {n}: {name} deals", { n: event.deal, name: seatName(event.dealer) });
    case "hand": return t("Your cards: {cards}", { cards: cards(event.cards) });
    case "bid": return t("{name} bids {n}", { name: who, n: event.value }) + (event.blind ? ` (${t("blind")})` : "");
    case "pass": return t("{name} passes", { name: who });
    case "look": return t("{name} looks at the cards", { name: who });
    case "auction_won": return t("{name} wins the auction at {n}", { name: who, n: event.contract });
    case "talon": return t("Talon: {cards}", { cards: cards(event.cards) });
    case "talon_taken": return t("You take the talon: {cards}", { cards: cards(event.cards) });
    case "take_talon": return t("{name} takes the talon", { name: who });
    case "raise": return t("{name} raises the contract to {n}", { name: who, n: event.value });
    case "give": return t("{name} gives cards", { name: who });
    case "given": return t("{from} gave {to}: {card}", { from: seatName(event.from), to: seatName(event.to), card: Array.isArray(event.cards) ? cards(event.cards) : cardName(event.cards) });
    case "discard": return tn("{name} lays {n} card aside", "{name} lays {n} cards aside", event.count, { name: who });
    case "laid_aside": return t("You laid aside: {cards}", { cards: cards(event.cards) });
    case "bomb": return t("{name} plays a bomb", { name: who });
    case "play": return event.declare || event.marriage
      ? t("{name} plays {card} and declares the marriage", { name: who, card: cardName(event.card) })
      : t("{name} plays {card}", { name: who, card: cardName(event.card) });
    case "trick": return tn("{name} takes the trick ({n} point)", "{name} takes the trick ({n} points)", event.points, { name: seatName(event.winner) });
    case "deal_scored": return scoreLine({ ...event, type: "deal" }, seatName, null);
    case "redeal": return t("{name} shows the hand: the cards are dealt again", { name: who });
    case "game_over": return t("The game is over.");
    case "draw": return t("{name} draws a card", { name: who });
    case "drawn": return t("You drew {card}", { card: cardName(event.card) });
    case "lottery": return t("{name} starts the nine lottery", { name: who });
    case "lottery_nine": return t("You put up {card} for the nine lottery", { card: cardName(event.nine) });
    case "guess": return t("{name} guesses the colour of the nine", { name: who });
    case "your_guess": return event.colour === "red" ? t("You guessed red") : t("You guessed black");
    case "lottery_result": return event.colour === "red"
      ? t("Nine lottery: {card} is red", { card: cardName(event.nine) })
      : t("Nine lottery: {card} is black", { card: cardName(event.nine) });
    case "redeal_penalty": return t("{name} pays the redeal penalty: {n}", { name: who, n: event.points });
    default: return null;
  }
}

// A seat's own move in a few words, on its seat until its next turn.
export function describeAction(event) {
  switch (event.type) {
    case "bid": return t("bids {n}", { n: event.value }) + (event.blind ? ` (${t("blind")})` : "");
    case "pass": return t("passes");
    case "look": return t("looks at the cards");
    case "take_talon": return t("takes the talon");
    case "raise": return t("raises the contract to {n}", { n: event.value });
    case "discard": return t("lays cards aside");
    case "give": return t("gives cards");
    case "bomb": return t("plays a bomb");
    case "play": return event.declare || event.marriage
      ? t("plays {card}, marriage", { card: shortCard(event.card) })
      : t("plays {card}", { card: shortCard(event.card) });
    case "redeal": return t("shows the hand for a redeal");
    case "lottery": return t("runs the nine lottery");
    case "guess": return t("guesses");
    default: return null;
  }
}

// The winner is the first to the target score (T3); the final scores follow in the placings.
export function describeOutcome(outcome, seatName, view) {
  const first = (outcome.placings || [])[0] || [];
  if (!first.length) return null;
  const headline = first.length === 1
    ? t("{name} wins!", { name: seatName(first[0]) })
    : t("{names} share the win!", { names: first.map(seatName).join(", ") });
  const rows = (view && view.score_sheet) || [];
  return { headline, lines: rows.length ? [scoreLine(rows[rows.length - 1], seatName, view)] : [] };
}

export function scoreLabel() {
  return t("Points");
}

