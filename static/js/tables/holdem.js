// The Texas Hold'em table: seats round an oval with stacks and bets, the board, pots and side pots,
// own hole cards, betting controls bounded by the legal range, showdown with hand names, sitting
// out and in, rebuys, the ledger and a hand history to download.

import { keyLabel, moveKey } from "../movekeys.js";
import { append, h, replace } from "../dom.js";
import { lang, t, tMaybe, tn } from "../i18n.js";
import { cardEl, cardName } from "../cards.js";
import { sendMove } from "./refusal.js";
import { actionLine, seatActions } from "./lastaction.js";

const HAND_NAMES = [
  "royal flush", "straight flush", "four of a kind", "full house", "flush", "straight",
  "three of a kind", "two pair", "pair", "high card",
];

// The evaluator names hands in English ("two pair, kings and nines"); other languages get the
// hand's own name in that language and the detail only in English.
export function handName(name) {
  if (!name) return "";
  if (lang === "en") return name;
  const kind = HAND_NAMES.find((k) => name === k || name.startsWith(`${k},`) || name.startsWith(`${k} of`));
  return kind ? tMaybe(`hand: ${kind}`) || name : name;
}

function chips(n) {
  return Number(n || 0).toLocaleString(lang);
}

function legalOf(state, type) {
  return (state.legal || []).find((a) => a.type === type) || null;
}

// Whom the table waits for: the hand's actor, or the players still to answer a run-twice or show question.
export function waiting(view) {
  const hand = view.hand;
  if (!hand) return [];
  if (hand.actor !== null && hand.actor !== undefined) return [hand.actor];
  return [];
}

function potTotal(view) {
  const hand = view.hand;
  if (!hand) return 0;
  return (hand.pots || []).reduce((sum, p) => sum + p.amount, 0);
}

// Raise presets, each clamped into the legal range [min, max].
function presets(view, range) {
  const hand = view.hand;
  const me = view.players[view.seat];
  const toCall = Math.max((hand.current_bet || 0) - (me.bet || 0), 0);
  const pot = potTotal(view);
  const clamp = (v) => Math.max(range.min, Math.min(range.max, Math.round(v)));
  const base = hand.current_bet || 0;
  return [
    ["min", t("Minimum"), range.min],
    ["half", t("Half pot"), clamp(base + (pot + toCall) / 2)],
    ["pot", t("Pot"), clamp(base + pot + toCall)],
    ["max", t("All-in"), range.max],
  ];
}

function streetName(street) {
  return { preflop: t("preflop"), flop: t("flop"), turn: t("turn"), river: t("river") }[street] || street;
}

// The seats drawn round the oval: the room's seats (its capacity) and any other seat someone holds.
export function shownSeats(view, capacity) {
  const limit = capacity || view.players.length;
  return view.players.filter((p) => p.occupied || p.seat < limit);
}

function renderSeat(ui, ctx, view, p, place) {
  const hand = view.hand;
  const me = p.seat === view.seat;
  const acting = hand && hand.actor === p.seat;
  // Seats go round the oval clockwise from the bottom, with our own seat at the bottom.
  const angle = Math.PI / 2 + place * 2 * Math.PI;
  const el = h("section", {
    class: `hseat${acting ? " turn" : ""}${p.folded ? " folded" : ""}${me ? " me" : ""}${p.occupied ? "" : " empty"}`,
    dataset: { seat: p.seat },
    "aria-label": ctx.seatName(p.seat),
  });
  el.style.setProperty("--x", `${50 + 44 * Math.cos(angle)}%`);
  el.style.setProperty("--y", `${50 + 40 * Math.sin(angle)}%`);
  if (!p.occupied) {
    append(el, [h("span", { class: "muted" }, t("empty seat"))]);
    return el;
  }
  const marks = [];
  if (hand && hand.button === p.seat) marks.push(h("span", { class: "chip-mark button-mark", title: t("Dealer button") }, "D"));
  if (hand && hand.small_blind === p.seat) marks.push(h("span", { class: "chip-mark", title: t("Small blind") }, "SB"));
  if (hand && hand.big_blind === p.seat) marks.push(h("span", { class: "chip-mark", title: t("Big blind") }, "BB"));
  let cards = null;
  const last = !hand && view.last_hand && view.last_hand.shown ? view.last_hand.shown[String(p.seat)] : null;
  if (p.cards) cards = p.cards.map((c) => cardEl(c));
  else if (last) cards = last.map((c) => cardEl(c));
  else if (p.has_cards) cards = [cardEl(null), cardEl(null)];
  const status = [];
  if (p.folded) status.push(t("folded"));
  if (p.all_in) status.push(t("all-in"));
  if (p.status === "out" || p.sitting_out_next) status.push(t("sitting out"));
  if (p.status === "waiting") status.push(t("waiting for the big blind"));
  if (!p.stack && !p.in_hand && !p.pending_chips) status.push(t("busted"));
  const shownHand = p.cards && p.shown ? shownName(ui, view, p.seat) : null;
  append(el, [
    h("h2", {}, ctx.seatName(p.seat), marks),
    h("div", { class: "card-row small-cards hole" }, cards),
    h("p", { class: "stack" }, h("span", { class: "muted" }, t("Stack")), " ", h("b", { dataset: { stack: p.seat } }, chips(p.stack))),
    actionLine(ui.shown, p.seat),
    p.bet ? h("p", { class: "bet" }, t("Bet {n}", { n: chips(p.bet) })) : null,
    status.length ? h("p", { class: "muted" }, status.join(" · ")) : null,
    shownHand ? h("p", { class: "hand-name" }, shownHand) : null,
  ]);
  return el;
}

function shownName(ui, view, seat) {
  const hand = view.hand;
  const awards = (hand && hand.awards) || [];
  const won = awards.find((a) => a.hand && a.shares && String(seat) in a.shares);
  if (won) return handName(won.hand);
  const shown = ui.shownNames && ui.shownNames[seat];
  return shown ? handName(shown) : null;
}

function renderAwards(ctx, awards) {
  if (!awards || !awards.length) return null;
  return h("ul", { class: "awards" }, awards.map((a) => h("li", {},
    Object.entries(a.shares || {}).map(([seat, n]) => t("{name} wins {n}", { name: ctx.seatName(Number(seat)), n: chips(n) })).join(", "),
    a.hand ? ` — ${handName(a.hand)}` : "")));
}

function renderCenter(ctx, view) {
  const hand = view.hand;
  const board = hand ? hand.board : (view.last_hand && view.last_hand.board) || [];
  const slots = [];
  for (let i = 0; i < 5; i += 1) slots.push(board[i] ? cardEl(board[i]) : h("span", { class: "empty-slot" }));
  // Side pots only mean something once a player is all-in; before that unmatched bets are
  // just this round's betting, so the table shows one pot.
  const layered = hand ? hand.pots || [] : [];
  const allIn = view.players.some((p) => p.all_in);
  const pots = allIn || layered.length < 2 ? layered : [{ amount: layered.reduce((n, p) => n + p.amount, 0) }];
  return h("section", { class: "hcenter", "aria-label": t("Board") },
    h("div", { class: "card-row board" }, slots),
    hand && hand.board2 && hand.board2.length ? h("div", { class: "card-row board small-cards" }, hand.board2.map((c) => cardEl(c))) : null,
    h("ul", { class: "pots" },
      pots.map((p, i) => h("li", { dataset: { pot: i } },
        i === 0 ? t("Pot {n}", { n: chips(p.amount) }) : t("Side pot {i}: {n}", { i, n: chips(p.amount) })))),
    hand ? h("p", { class: "muted" }, t("Blinds {sb}/{bb}", { sb: view.blinds.small_blind, bb: view.blinds.big_blind }),
      " · ", t("Hand {n}", { n: hand.number }), " · ", streetName(hand.street)) : null,
    renderAwards(ctx, hand ? hand.awards : view.last_hand ? view.last_hand.awards : []));
}

function renderOval(ui, ctx, view) {
  const room = ctx.room();
  const seats = shownSeats(view, room && room.capacity);
  const own = seats.findIndex((p) => p.seat === view.seat);
  const offset = own >= 0 ? own : 0;
  return h("div", { class: "oval", dataset: { seats: seats.length } },
    seats.map((p, i) => renderSeat(ui, ctx, view, p, ((i - offset + seats.length) % seats.length) / seats.length)),
    renderCenter(ctx, view));
}

function renderLedger(ctx, view) {
  if (!view.ledger || !view.ledger.length) return null;
  return h("details", { class: "ledger" },
    h("summary", {}, t("Ledger")),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("Bought in")), h("th", {}, t("Cashed out")), h("th", {}, t("Result")))),
      h("tbody", {}, view.ledger.map((row) => h("tr", {},
        h("td", {}, ctx.seatName(row.seat)), h("td", {}, chips(row.buy_in)), h("td", {}, chips(row.cash_out)),
        h("td", {}, chips(row.cash_out - row.buy_in)))))));
}

function statusText(ctx, view, state) {
  if (state.outcome || view.over) return t("The game is over.");
  const hand = view.hand;
  const me = view.seat !== null && view.seat !== undefined ? view.players[view.seat] : null;
  const legal = state.legal || [];
  if (legal.length) {
    if (legal.some((a) => a.type === "show" || a.type === "muck")) return t("Your turn: show your cards or muck them?");
    if (legal.some((a) => a.type === "run_twice")) return t("Your turn: run the board once or twice?");
    if (legal.some((a) => a.type === "straddle")) return t("Your turn: straddle?");
    if (hand && hand.actor === view.seat) return t("Your turn.");
  }
  if (me && me.occupied && busted(me, hand) && !me.pending_chips && (state.table || []).some((a) => a.type === "rebuy")) {
    return t("You are out of chips: buy in again to play the next hand.");
  }
  if (!hand) return t("Waiting for the next hand.");
  if (hand.actor === null || hand.actor === undefined) {
    // No one seat to wait for: the all-in players vote on running it twice, or the hand is over
    // and its players may show their cards (the sheet's show_after_hand) before the next deal.
    if (hand.phase === "run_twice") return t("Waiting for the all-in players: run it once or twice?");
    if (hand.phase === "show") return t("The hand is over: its players may show their cards.");
    return t("The hand is over.");
  }
  return t("{name}'s turn.", { name: ctx.seatName(hand.actor) });
}

// Out of chips and not in a hand still being played: a hand that is over (the table waiting for
// the next deal, or for enough players), or whose players may only show their cards now (the
// sheet's show_after_hand: the pots are paid), leaves its all-in loser nothing to top up, only to rebuy.
function busted(me, hand) {
  return !me.stack && (!me.in_hand || !hand || hand.phase === "over" || hand.phase === "show");
}

function moveButton(type, label, act, extra = {}) {
  return h("button", { type: "button", dataset: { action: type }, onclick: () => act({ type }), ...extra }, label);
}

// The betting controls, from the turn's legal moves.
function renderControls(ui, view, state, act) {
  const parts = [];
  const legal = state.legal || [];
  const fold = legalOf(state, "fold");
  const check = legalOf(state, "check");
  const call = legalOf(state, "call");
  const raise = legalOf(state, "raise") || legalOf(state, "bet");
  const allIn = legalOf(state, "all_in");
  if (fold) parts.push(moveButton("fold", t("Fold"), act, { title: `${t("Fold")} (${keyLabel("holdem", "fold", "f")})` }));
  if (check) parts.push(moveButton("check", t("Check"), act, { title: `${t("Check")} (${keyLabel("holdem", "check_call", "c")})` }));
  if (call) parts.push(moveButton("call", t("Call {n}", { n: chips(call.amount) }), act, { class: "primary", title: `${t("Call")} (${keyLabel("holdem", "check_call", "c")})` }));
  if (allIn) parts.push(moveButton("all_in", t("All-in {n}", { n: chips(allIn.to) }), act, { title: `${t("All-in")} (${keyLabel("holdem", "all_in", "a")})` }));
  if (raise) parts.push(renderRaise(ui, view, raise, act));
  for (const [type, text] of [
    ["straddle", t("Straddle")], ["no_straddle", t("No straddle")],
    ["run_twice", t("Run it twice")], ["run_once", t("Run it once")],
    ["show", t("Show cards")], ["muck", t("Muck")], ["sit_in", t("Sit in")],
  ]) {
    if (legal.some((a) => a.type === type)) parts.push(moveButton(type, text, act));
  }
  const rebuy = legal.find((a) => a.type === "rebuy");
  if (rebuy) parts.push(renderBuy("rebuy", rebuy.min, rebuy.max, act));
  return h("div", { class: "controls", role: "toolbar", "aria-label": t("Moves") }, parts);
}

function renderRaise(ui, view, raise, act) {
  const range = { min: raise.min, max: raise.max };
  if (ui.amount === null || ui.amount < range.min || ui.amount > range.max) ui.amount = range.min;
  const slider = h("input", {
    type: "range", min: range.min, max: range.max, step: 1, value: ui.amount,
    "aria-label": t("Amount"), dataset: { role: "raise-slider" },
  });
  const number = h("input", {
    type: "number", min: range.min, max: range.max, step: 1, value: ui.amount, inputmode: "numeric",
    "aria-label": t("Amount"), dataset: { role: "raise-amount" }, class: "amount",
  });
  const label = raise.type === "bet" ? t("Bet") : t("Raise to");
  const go = h("button", { type: "button", class: "primary", dataset: { action: raise.type }, title: `${label} (${keyLabel("holdem", "raise", "r")})` }, `${label} ${chips(ui.amount)}`);
  const set = (value) => {
    const v = Math.max(range.min, Math.min(range.max, Math.round(Number(value) || range.min)));
    ui.amount = v;
    slider.value = String(v);
    number.value = String(v);
    go.textContent = `${label} ${chips(v)}`;
  };
  slider.addEventListener("input", () => set(slider.value));
  number.addEventListener("change", () => set(number.value));
  go.addEventListener("click", () => act({ type: raise.type, to: ui.amount }));
  const presetButtons = presets(view, range).map(([key, text, value]) => h("button", {
    type: "button", class: "preset", dataset: { preset: key }, onclick: () => set(value),
  }, text));
  return h("div", { class: "raise" },
    h("div", { class: "presets" }, presetButtons),
    h("div", { class: "raise-row" }, slider, number, go));
}

function renderBuy(type, min, max, act) {
  const input = h("input", { type: "number", min, max, value: max, class: "amount", "aria-label": t("Chips to buy"), dataset: { role: `${type}-amount` } });
  return h("div", { class: "rebuy" }, input,
    h("button", { type: "button", class: type === "rebuy" ? "primary" : "", dataset: { action: type }, onclick: () => act({ type, amount: Number(input.value) }) },
      type === "rebuy" ? t("Rebuy") : t("Top up")));
}

// Moves open at any time (the state's "table" list): sitting out and in, and buying chips, which a
// busted player may do while the others play on.
// Every finished hand replays while the table plays on: the replay page opens at the latest one. Under
// the table, not in the dock, which a phone's betting controls already fill.
function renderReplayLink(ctx, view, state) {
  if (ctx.replaying || !(view.hands_played > 0) || !state.game_no) return null;
  const seat = view.seat !== null && view.seat !== undefined ? `seat=${view.seat}&` : "";
  return h("p", { class: "felt-links" }, h("a", {
    id: "replay-hands", href: `/r/${encodeURIComponent(ctx.roomId)}/replay/${state.game_no}?${seat}at=last`,
  }, t("Replay hands")));
}

function renderTableControls(ctx, view, state, act, download) {
  const table = state.table || [];
  const offered = (type) => table.find((a) => a.type === type) || null;
  const me = view.seat !== null && view.seat !== undefined ? view.players[view.seat] : null;
  const parts = [];
  if (me && me.occupied) {
    if (offered("sit_out") && !me.sitting_out_next) parts.push(moveButton("sit_out", t("Sit out"), act));
    else if (offered("sit_in") && !(state.legal || []).some((a) => a.type === "sit_in")) parts.push(moveButton("sit_in", t("Sit in"), act));
    const buy = offered("rebuy");
    if (buy && !(state.legal || []).some((a) => a.type === "rebuy")) {
      parts.push(renderBuy(busted(me, view.hand) ? "rebuy" : "top_up", buy.min, buy.max, act));
    }
  }
  // The replay page draws the table too: the links to the room's history are for live play.
  if (!ctx.replaying) {
    parts.push(h("button", { type: "button", class: "link", dataset: { role: "history" }, onclick: download }, t("Download hand history")));
  }
  // Offered to the host only (the server's host actions): ends the table, the result follows.
  if (offered("close_table") && !view.closing) {
    parts.push(h("button", {
      type: "button", dataset: { action: "close_table" },
      onclick: () => { if (window.confirm(t("Close the table after this hand?"))) act({ type: "close_table" }); },
    }, t("Close the table")));
  }
  return h("div", { class: "controls table-controls" }, parts);
}

export function mount(root, ctx) {
  const ui = { state: null, amount: null, history: [], shown: new Map() };
  const actions = seatActions(describeAction, (event) => event.type === "hand_started");
  const felt = h("div", { class: "felt holdem" });
  const dock = h("div", { class: "dock-holdem" });
  replace(root, felt);
  replace(ctx.dock, dock);

  const act = (action) => sendMove(dock, ctx, action);

  // The server's hand history in PHH: a seat's token gets the hole cards it saw, without one the
  // public record (shown cards only). If the server has none yet, the hands as this page's log told them.
  async function downloadHistory() {
    const token = ctx.token();
    try {
      const response = await fetch(`/api/rooms/${encodeURIComponent(ctx.roomId)}/history`, {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      if (response.ok) {
        save(await response.blob(), "holdem-hands.phhs");
        return;
      }
    } catch {
      // fall back to the log below
    }
    const lines = ui.history.map((e) => describeEvent(e, ctx.seatName) || e.type);
    save(new Blob([`${lines.join("\n")}\n`], { type: "text/plain;charset=utf-8" }), "holdem-hands.txt");
  }

  function save(blob, name) {
    const link = h("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }

  function draw() {
    const state = ui.state;
    const view = state.view;
    const me = view.seat !== null && view.seat !== undefined ? view.players[view.seat] : null;
    ui.shown = actions.current(waiting(view));
    replace(felt, renderOval(ui, ctx, view), renderLedger(ctx, view), renderReplayLink(ctx, view, state));
    // A seat's own row is there even between hands, so the dock keeps its shape.
    const own = me && me.occupied
      ? h("div", { class: "card-row hole own hand", role: "group", "aria-label": t("Your cards") },
        (me.cards || []).map((c) => cardEl(c)))
      : null;
    // The hole cards sit in the last row, beside the table moves: betting controls coming and going
    // above them never move them.
    replace(dock,
      h("p", { class: "status-line", role: "status", "aria-live": "polite" }, statusText(ctx, view, state)),
      h("p", { class: "refusal", role: "alert", hidden: true }),
      renderControls(ui, view, state, act),
      h("div", { class: "dock-row" }, own, renderTableControls(ctx, view, state, act, downloadHistory)));
  }

  return {
    update(state) {
      // The room redraws the table on presence changes too: take each state's events once.
      const fresh = state !== ui.state;
      actions.note(state);
      ui.state = state;
      for (const event of fresh ? state.events || [] : []) {
        ui.history.push(event);
        if (event.type === "show") {
          ui.shownNames = ui.shownNames || {};
          ui.shownNames[event.seat] = event.hand;
        }
        if (event.type === "hand_started") ui.shownNames = {};
      }
      if (state.view) draw();
    },
    onKey(event) {
      const state = ui.state;
      if (!state) return false;
      const key = event.key.toLowerCase();
      const pick = (type) => legalOf(state, type);
      const is = (move, english) => key === moveKey("holdem", move, english);
      if (is("fold", "f") && pick("fold")) return act({ type: "fold" }), true;
      if (is("check_call", "c") && (pick("check") || pick("call"))) return act({ type: pick("check") ? "check" : "call" }), true;
      if (is("raise", "r")) {
        const button = dock.querySelector("button[data-action=raise], button[data-action=bet]");
        if (button) return button.click(), true;
      }
      if (is("all_in", "a") && pick("all_in")) return act({ type: "all_in" }), true;
      return false;
    },
  };
}

export function keys() {
  return [
    [keyLabel("holdem", "fold", "f"), t("Fold")],
    [keyLabel("holdem", "check_call", "c"), t("Check or call")],
    [keyLabel("holdem", "raise", "r"), t("Bet or raise the chosen amount")],
    [keyLabel("holdem", "all_in", "a"), t("All-in")],
  ];
}

function allInMark(event) {
  return event.all_in ? ` (${t("all-in")})` : "";
}

export function describeEvent(event, seatName) {
  const who = event.seat !== undefined && event.seat !== null ? seatName(event.seat) : "";
  switch (event.type) {
    case "hand_started": return t("Hand {n} starts; the button is at {name}", { n: event.hand, name: seatName(event.button) });
    case "posted": return event.kind === "straddle"
      ? t("{name} straddles {n}", { name: who, n: chips(event.amount) })
      : t("{name} posts {n}", { name: who, n: chips(event.amount) });
    case "dealt": return t("Hole cards are dealt");
    case "hole_cards": return t("Your cards: {cards}", { cards: (event.cards || []).map(cardName).join(", ") });
    case "fold": return t("{name} folds", { name: who });
    case "check": return t("{name} checks", { name: who });
    case "call": return t("{name} calls {n}", { name: who, n: chips(event.amount) }) + allInMark(event);
    case "bet": return t("{name} bets {n}", { name: who, n: chips(event.to) }) + allInMark(event);
    case "raise": return t("{name} raises to {n}", { name: who, n: chips(event.to) }) + allInMark(event);
    case "all_in": return t("{name} is all-in for {n}", { name: who, n: chips(event.to) });
    case "board": return t("Board: {cards}", { cards: (event.cards || []).map(cardName).join(", ") });
    case "show": return event.hand
      ? t("{name} shows {cards}: {hand}", { name: who, cards: (event.cards || []).map(cardName).join(", "), hand: handName(event.hand) })
      : t("{name} shows {cards}", { name: who, cards: (event.cards || []).map(cardName).join(", ") });
    case "muck": return t("{name} mucks", { name: who });
    case "returned": return t("{n} returned to {name}", { name: who, n: chips(event.amount) });
    case "pot_won": return Object.entries(event.shares || {}).map(([seat, n]) => t("{name} wins {n}", { name: seatName(Number(seat)), n: chips(n) })).join(", ") + (event.hand ? ` — ${handName(event.hand)}` : "");
    case "sitting_out": return t("{name} sits out", { name: who });
    case "sitting_in": return t("{name} sits in", { name: who });
    case "rebuy": return tn("{name} buys {n} chip", "{name} buys {n} chips", event.amount, { name: who, n: chips(event.amount) });
    case "left": return t("{name} leaves with {n}", { name: who, n: chips(event.cash_out) });
    case "hand_over": return t("Hand {n} is over", { n: event.hand });
    case "level": return t("Blinds rise to {sb}/{bb}", { sb: event.small_blind, bb: event.big_blind });
    case "table_opened": return t("The table opens; the button is at {name}", { name: seatName(event.button) });
    case "eliminated": return tn("{names} is out of the tournament", "{names} are out of the tournament",
      (event.seats || []).length, { names: (event.seats || []).map(seatName).join(", ") });
    case "tournament_over": return event.winner !== null && event.winner !== undefined
      ? t("The tournament is over: {name} wins", { name: seatName(event.winner) })
      : t("The tournament is over.");
    case "table_closed": return t("The table is closed.");
    case "closing": return t("The table closes after this hand.");
    case "joined": return t("{name} joins the table with {n}", { name: who, n: chips(event.buy_in) });
    case "leaving": return t("{name} leaves after this hand", { name: who });
    case "no_straddle": return t("{name} does not straddle", { name: who });
    case "vote": return event.run_twice
      ? t("{name} votes to run it twice", { name: who })
      : t("{name} votes to run it once", { name: who });
    default: return null;
  }
}

// A seat's own move in a few words, on its seat until its next turn (a fold shows as "folded",
// blinds as the seat's bet).
export function describeAction(event) {
  switch (event.type) {
    case "check": return t("checks");
    case "call": return t("calls {n}", { n: chips(event.amount) }) + allInMark(event);
    case "bet": return t("bets {n}", { n: chips(event.to) }) + allInMark(event);
    case "raise": return t("raises to {n}", { n: chips(event.to) }) + allInMark(event);
    case "all_in": return t("all-in for {n}", { n: chips(event.to) });
    case "show": return t("shows");
    case "muck": return t("mucks");
    case "vote": return event.run_twice ? t("runs it twice") : t("runs it once");
    default: return null;
  }
}

// A player's move for the table's last-move line: what describeAction words, and the moves a seat
// shows otherwise (a fold as "folded") or not at all (declining or making a straddle, H7). Blinds
// and antes are posted by the table, not chosen.
export function isMove(event) {
  if (event.type === "fold" || event.type === "no_straddle") return true;
  if (event.type === "posted") return event.kind === "straddle";
  return describeAction(event) !== null;
}

// The table's end: the player who won the most chips (cash: the ledger's result; tournament: the
// last one with chips); the placings list every player's result.
export function describeOutcome(outcome, seatName) {
  const first = (outcome.placings || [])[0] || [];
  if (!first.length) return null;
  const headline = first.length === 1
    ? t("{name} wins!", { name: seatName(first[0]) })
    : t("{names} share the win!", { names: first.map(seatName).join(", ") });
  return { headline };
}

// Cash: each player's result (won or lost); tournament: the chips each ends with (none for a
// busted player, who has left the table).
export function scoreLabel(view) {
  return view && view.format === "tournament" ? t("Chips") : t("Result");
}

export function scoreText(outcome, seat, view) {
  const score = (outcome.scores || {})[String(seat)];
  if (score !== undefined) return chips(score);
  return view && view.format === "tournament" ? chips(0) : "";
}
