// The Palace table (Hiina turakas, China Hand, Palace). What can be done comes only from the server's
// legal action list: a selection of cards is offered as a play only when it equals a legal action.

import { keyLabel, moveKey } from "../movekeys.js";
import { h, replace } from "../dom.js";
import { t, tn } from "../i18n.js";
import { cardEl, cardName, rankLabel, sortCards } from "../cards.js";
import { sendMove, showRefusal } from "./refusal.js";
import { actionLine, seatActions, shortCard, shortPlay } from "./lastaction.js";

// Buttons for legal actions that carry no cards, in the order they are shown, with their keys.
const SIMPLE = [
  ["ready", "r", () => t("Ready")],
  ["play_drawn", "y", () => t("Play the drawn card")],
  ["draw", "d", () => t("Draw a card")],
  ["pick_up", "u", () => t("Pick up the pile")],
  ["burn", "b", () => t("Burn the pile")],
  ["keep", "k", () => t("Leave the pile")],
  ["pass", "n", () => t("Pass")],
];

// Actions chosen with the selected hand cards.
const WITH_CARDS = [
  ["play", "p", () => t("Play")],
  ["lay_face_up", "p", () => t("Lay face up")],
  ["cut_in", "c", () => t("Cut in")],
  ["add", "a", () => t("Add")],
  ["lay_four", "l", () => t("Lay four aside")],
];

const sameMultiset = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

// The engine's view (app/games/palace/view.py) in the shape the table draws from.
export function normalize(view, seat) {
  const players = (view.players || []).map((p, index) => {
    const faceDown = (p.face_down || []).map(Boolean);
    return {
      seat: p.seat ?? index,
      handCount: p.hand_size ?? 0,
      knownHand: p.known_hand || [],
      faceUp: p.face_up || [],
      faceDown,
      faceDownCount: p.face_down_count ?? faceDown.filter(Boolean).length,
      ready: Boolean(p.ready),
      out: p.out ?? null,
    };
  });
  const you = view.you ?? (seat === undefined ? null : seat);
  const me = you !== null ? players.find((p) => p.seat === you) || null : null;
  if (me) me.hand = view.hand || [];
  const pile = Array.isArray(view.pile) ? view.pile : [];
  return {
    seats: view.seats ?? players.length,
    phase: view.phase,
    turn: view.turn ?? null,
    players,
    me,
    pileTop: pile.length ? pile[pile.length - 1] : null,
    pileCount: pile.length,
    pileCards: pile,
    active: view.active ?? null,
    next: view.next_card ?? null,
    stock: view.stock ?? 0,
    burned: view.burned ?? 0,
    decision: view.decision ?? null,
    drawn: view.drawn ?? null,
    mayAdd: view.may_add || [],
    out: view.out || [],
  };
}

// Whom the table waits for, from the view (the room's to_act names only one's own seat).
export function waiting(view) {
  return view.waiting_for || [];
}

// ---- drawing: each part of the table from the model, as plain functions ------------------------

function statusText(ui, ctx) {
  const m = ui.model;
  const s = ui.state;
  if (s.outcome || m.phase === "over") return t("The game is over.");
  if (m.phase === "swap") {
    // A replay has no moves to offer: "waiting for the others" would be wrong of a seat still swapping.
    if (ctx.seat === null || ctx.replaying) return t("Players are swapping cards.");
    if (legalOf(ui, "lay_face_up").length) return t("Your turn: choose three cards to lay face up.");
    if (legalOf(ui, "ready").length) return t("Your turn: swap cards between your hand and your face-up cards, then press Ready.");
    return t("Waiting for the others to finish swapping.");
  }
  const mine = isMyTurn(ui, ctx);
  if (m.decision === "burn" && mine) return t("Your turn: burn the pile with your 10, or leave it?");
  if (m.decision === "drawn" && mine) return t("Your turn: play the card you drew, or pick up the pile.");
  const acting = waiting(ui.state.view || {});
  if (mine) return t("Your turn.");
  if (acting.length === 1) return t("{name}'s turn.", { name: ctx.seatName(acting[0]) });
  return "";
}

function legalOf(ui, type) {
  return ui.legal.filter((a) => a.type === type);
}

// A replay draws a seat's view, but nobody there is to move: its turns are told as anyone's.
function isMyTurn(ui, ctx) {
  return !ctx.replaying && ctx.seat !== null && waiting(ui.state.view || {}).includes(ctx.seat);
}

function tableSlots(p) {
  const slots = [];
  for (let i = 0; i < Math.max(p.faceUp.length, p.faceDown.length, 3); i += 1) {
    const up = p.faceUp[i];
    const down = p.faceDown[i];
    slots.push(h("span", { class: "slot" },
      down ? cardEl(null, { extra: { class: up ? "under" : "" } }) : null,
      up ? cardEl(up) : null,
      !up && !down ? h("span", { class: "empty-slot" }) : null));
  }
  return slots;
}

function renderOpponent(ui, ctx, p, shown) {
  const isTurn = waiting(ui.state.view || {}).includes(p.seat) && ui.model.phase !== "swap";
  const out = p.out !== null;
  return h("section", {
    class: `seat-box${isTurn ? " turn" : ""}${out ? " out" : ""}`,
    dataset: { seat: p.seat },
    "aria-label": ctx.seatName(p.seat),
  },
  h("h2", {}, ctx.seatName(p.seat), isTurn ? h("span", { class: "tag" }, t("on turn")) : null,
    out ? h("span", { class: "tag" }, t("out, place {n}", { n: p.out })) : null,
    ui.model.phase === "swap" && p.ready ? h("span", { class: "tag" }, t("ready")) : null),
  actionLine(shown, p.seat),
  h("div", { class: "card-row small-cards table-cards" }, tableSlots(p)),
  p.knownHand.length ? renderKnown(ui, p) : null,
  h("p", { class: "muted counts" },
    h("span", { dataset: { count: "hand" } }, t("Hand: {n}", { n: p.handCount })), " · ",
    h("span", { dataset: { count: "face-down" } }, t("Face-down: {n}", { n: p.faceDownCount }))));
}

const SUIT_SIGN = { s: "♠", h: "♥", d: "♦", c: "♣" };

// The cards an opponent is known to hold (picked up from the pile). On a phone they are one short
// line, so a long row of them does not push the pile below the fold; the button opens the cards.
function renderKnown(ui, p) {
  const cards = sortCards(p.knownHand);
  const open = ui.openKnown.has(p.seat);
  return h("div", { class: `known${open ? " open" : ""}` },
    h("span", { class: "muted" }, t("Known in hand:")),
    h("span", { class: "known-line" }, cards.flatMap((c, i) => [
      i ? " " : "", h("span", { class: `suit-${c[1]}` }, `${rankLabel(c[0])}${SUIT_SIGN[c[1]] || ""}`)])),
    h("button", {
      type: "button", class: "link known-toggle", "aria-expanded": open ? "true" : "false",
      dataset: { role: "known-toggle", seat: p.seat }, onclick: () => ui.toggleKnown(p.seat),
    }, open ? t("Hide the cards") : t("Show the cards")),
    h("div", { class: "card-row small-cards known-cards" }, cards.map((c) => cardEl(c))));
}

function renderCenter(m) {
  // The top cards fanned, so runs toward four of a kind (P16) and 8s over the active card (P13) show.
  const shown = m.pileCards.slice(-4);
  const pile = shown.length
    ? h("div", { class: "pile-fan" }, shown.map((c, i) => cardEl(c, { extra: { class: i === shown.length - 1 ? "pile-top" : "" } })))
    : h("span", { class: "empty-slot" }, t("empty"));
  const activeNote = m.active && m.pileTop && m.active !== m.pileTop
    ? h("div", { class: "active-card" }, h("span", { class: "muted" }, t("Active card under the 8s:")), cardEl(m.active, { extra: { class: "small" } }))
    : null;
  let rule = null;
  if (m.next && m.phase === "play") {
    if (m.next.kind === "at_least") rule = t("Next: {rank} or higher", { rank: rankLabel(m.next.rank) });
    else if (m.next.kind === "at_most") rule = t("Next: {rank} or lower", { rank: rankLabel(m.next.rank) });
    else rule = t("Next: any card");
  }
  return h("section", { class: "center", "aria-label": t("Pile") },
    rule ? h("p", { class: "next-rule", dataset: { rule: m.next.kind } }, rule) : null,
    h("div", { class: "card-stack stock" },
      m.stock ? cardEl(null) : h("span", { class: "empty-slot" }, t("empty")),
      h("span", { class: "muted" }, t("Stock")), h("span", { class: "count", dataset: { count: "stock" } }, m.stock)),
    h("div", { class: "card-stack pile" },
      pile,
      h("span", { class: "muted" }, t("Pile")), h("span", { class: "count", dataset: { count: "pile" } }, m.pileCount)),
    activeNote,
    m.drawn ? h("div", { class: "card-stack drawn" }, cardEl(m.drawn), h("span", { class: "muted" }, t("Drawn card"))) : null,
    h("div", { class: "card-stack burned" },
      h("span", { class: "muted" }, t("Burned")), h("span", { class: "count", dataset: { count: "burned" } }, m.burned)));
}

// The seat's own face-up and face-down cards; those that may be played are buttons.
function renderOwnTable(ui, handlers) {
  const me = ui.model.me;
  const playFromUp = legalOf(ui, "play_face_up");
  const swaps = legalOf(ui, "swap");
  const blind = legalOf(ui, "play_face_down");
  const playableUp = new Set([...playFromUp.flatMap((a) => a.indexes), ...swaps.map((a) => a.index)]);
  const slots = [];
  const count = Math.max(me.faceUp.length, me.faceDown.length, 3);
  for (let i = 0; i < count; i += 1) {
    const up = me.faceUp[i];
    const down = me.faceDown[i];
    let upEl = null;
    if (up) {
      upEl = cardEl(up, {
        button: true,
        selected: ui.selUp.includes(i),
        disabled: !playableUp.has(i),
        extra: { "data-key": `up-${i}`, "data-zone": "face-up", "data-index": i, class: playableUp.has(i) ? "playable" : "" },
      });
      upEl.addEventListener("click", () => handlers.toggleUp(i));
    }
    let downEl = null;
    if (down && !up) {
      const action = blind.find((a) => a.index === i);
      downEl = cardEl(null, {
        button: true,
        disabled: !action,
        extra: {
          "data-key": `down-${i}`, "data-zone": "face-down", "data-index": i,
          class: action ? "playable" : "",
          "aria-label": t("Face-down card {n}: play it blind", { n: i + 1 }),
        },
      });
      // A face-down card is played by clicking it: it is a move control of its own.
      if (action) {
        downEl.dataset.action = "play_face_down";
        downEl.addEventListener("click", () => handlers.act(action));
      }
    } else if (down) {
      downEl = cardEl(null, { extra: { class: "under" } });
    }
    slots.push(h("span", { class: "slot", dataset: { slot: i } }, downEl, upEl, !up && !down ? h("span", { class: "empty-slot" }) : null));
  }
  return h("div", { class: "own-table card-row table-cards own", role: "group", "aria-label": t("Your table cards") }, slots);
}

// The hand in one row of fixed height: it scrolls sideways, and overlaps when it grows long.
function renderHand(ui, hand, handlers) {
  const playableCards = new Set();
  for (const type of ["play", "lay_face_up", "cut_in", "add", "lay_four", "swap"]) {
    for (const a of legalOf(ui, type)) {
      if (Array.isArray(a.cards)) a.cards.forEach((c) => playableCards.add(c));
      if (a.card) playableCards.add(a.card);
    }
  }
  const cards = hand.map((card, index) => {
    const el = cardEl(card, {
      button: true,
      selected: ui.selHand.includes(index),
      extra: {
        "data-key": `hand-${index}`, "data-zone": "hand", "data-index": index,
        class: playableCards.has(card) ? "playable" : "",
      },
    });
    el.addEventListener("click", () => handlers.toggleHand(index));
    el.addEventListener("dblclick", () => {
      if (!ui.selHand.includes(index)) handlers.toggleHand(index);
      handlers.playSelection();
    });
    return el;
  });
  return h("div", { class: `card-row hand${hand.length > 7 ? " crowded" : ""}`, role: "group", "aria-label": t("Your hand") },
    h("span", { class: "hand-count", dataset: { count: "my-hand" }, title: t("Cards in your hand") }, String(hand.length)),
    cards.length ? cards : h("span", { class: "muted" }, t("Your hand is empty.")));
}

function renderControls(ui, ctx, hand, handlers) {
  const buttons = [];
  const n = handlers.selectedCards().length;
  const inPlay = !ctx.replaying && ui.model.phase === "play" && ctx.seat !== null && ui.model.me && ui.model.me.out === null;
  for (const [type, key, label] of WITH_CARDS) {
    // The Play button stays while there is a hand, so a refused play is explained by the server.
    const offered = legalOf(ui, type).length || (type === "play" && inPlay && hand.length);
    if (!offered) continue;
    const action = handlers.matching(type);
    const enabled = type === "play" ? n > 0 : Boolean(action);
    buttons.push(h("button", {
      type: "button", class: type === "play" || type === "lay_face_up" ? "primary" : "",
      dataset: { action: type }, disabled: !enabled,
      title: `${label()} (${keyLabel("palace", type, key)})`,
      onclick: () => (type === "play" ? handlers.playSelection() : action && handlers.act(action)),
    }, n && type === "play" ? t("Play {n}", { n }) : label()));
  }
  if (legalOf(ui, "play_face_up").length) {
    const action = handlers.matching("play_face_up");
    buttons.push(h("button", {
      type: "button", class: "primary", dataset: { action: "play_face_up" }, disabled: !action,
      onclick: () => action && handlers.act(action),
    }, t("Play face-up")));
  }
  if (legalOf(ui, "swap").length) {
    const action = handlers.matching("swap");
    buttons.push(h("button", {
      type: "button", dataset: { action: "swap" }, disabled: !action,
      title: `${t("Swap")} (${keyLabel("palace", "swap", "s")})`, onclick: () => action && handlers.act(action),
    }, t("Swap")));
  }
  for (const [type, key, label] of SIMPLE) {
    const action = legalOf(ui, type)[0];
    if (!action) continue;
    buttons.push(h("button", {
      type: "button", dataset: { action: type }, class: type === "ready" ? "primary" : "",
      title: `${label()} (${keyLabel("palace", type, key)})`, onclick: () => handlers.act(action),
    }, label()));
  }
  if (legalOf(ui, "play_face_down").length) {
    buttons.push(h("p", { class: "hint" }, t("Choose one of your face-down cards: it is turned and played blind.")));
  }
  return h("div", { class: "controls", role: "toolbar", "aria-label": t("Moves") }, buttons);
}

// The keys of keys(): a digit chooses a card, P or Enter plays the choice, letters make the moves.
function handleKey(ui, ctx, handlers, event) {
  const is = (move, english) => key === moveKey("palace", move, english);
  if (!ui.model || ctx.seat === null) return false;
  const key = event.key.toLowerCase();
  if (/^[1-9]$/.test(key)) {
    const n = Number(key) - 1;
    const hand = handlers.handCards();
    if (hand.length) handlers.toggleHand(n);
    else {
      const blind = legalOf(ui, "play_face_down").find((a) => a.index === n);
      if (ui.model.me.faceUp[n]) handlers.toggleUp(n);
      else if (blind) handlers.act(blind);
    }
    return true;
  }
  if (key === "escape") {
    ui.selHand = [];
    ui.selUp = [];
    handlers.draw();
    return true;
  }
  if (key === "enter" || is("play", "p")) {
    if (document.activeElement && document.activeElement.tagName === "BUTTON" && key === "enter") return false;
    handlers.playSelection();
    return true;
  }
  if (is("swap", "s")) {
    const swap = handlers.matching("swap");
    if (swap) handlers.act(swap);
    return Boolean(swap);
  }
  for (const [type, letter] of [...WITH_CARDS.slice(2)]) {
    if (is(type, letter)) {
      const action = handlers.matching(type);
      if (action) handlers.act(action);
      return Boolean(action);
    }
  }
  for (const [type, letter] of SIMPLE) {
    if (is(type, letter)) {
      const action = legalOf(ui, type)[0];
      if (action) handlers.act(action);
      return Boolean(action);
    }
  }
  return false;
}

export function mount(root, ctx) {
  const ui = { selHand: [], selUp: [], state: null, model: null, legal: [], focusKey: null, openKnown: new Set() };
  const actions = seatActions(describeAction, (event) => event.type === "play_started");
  const felt = h("div", { class: "felt palace" });
  const dock = h("div", { class: "dock-palace" });
  replace(root, felt);
  replace(ctx.dock, dock);

  function handCards() {
    const me = ui.model.me;
    return me && me.hand ? sortCards(me.hand) : [];
  }

  function selectedCards() {
    const hand = handCards();
    return ui.selHand.map((i) => hand[i]).filter(Boolean);
  }

  async function act(action) {
    if (await sendMove(dock, ctx, action)) {
      ui.selHand = [];
      ui.selUp = [];
    }
  }

  // The legal action the current selection stands for, if any.
  function matching(type) {
    const cards = selectedCards();
    if (type === "play_face_up") {
      return legalOf(ui, "play_face_up").find((a) => sameMultiset(a.indexes.map(String), ui.selUp.map(String))) || null;
    }
    if (type === "swap") {
      if (cards.length !== 1 || ui.selUp.length !== 1) return null;
      return legalOf(ui, "swap").find((a) => a.card === cards[0] && a.index === ui.selUp[0]) || null;
    }
    if (!cards.length) return null;
    return legalOf(ui, type).find((a) => Array.isArray(a.cards) && sameMultiset(a.cards, cards)) || null;
  }

  function toggleHand(index) {
    const hand = handCards();
    const card = hand[index];
    if (!card) return;
    const at = ui.selHand.indexOf(index);
    if (at >= 0) ui.selHand.splice(at, 1);
    else {
      const swapping = ui.model.phase === "swap";
      const choosing = legalOf(ui, "lay_face_up").length > 0;
      if (swapping && !choosing) ui.selHand = [index];
      else {
        // Plays are of equal rank (P7): picking another rank starts a new selection.
        if (!choosing && ui.selHand.some((i) => hand[i] && hand[i][0] !== card[0])) ui.selHand = [];
        ui.selHand.push(index);
      }
    }
    ui.focusKey = `hand-${index}`;
    draw();
  }

  function toggleUp(index) {
    const at = ui.selUp.indexOf(index);
    if (at >= 0) ui.selUp.splice(at, 1);
    else if (ui.model.phase === "swap") ui.selUp = [index];
    else {
      const faceUp = ui.model.me.faceUp;
      if (ui.selUp.some((i) => faceUp[i] && faceUp[index] && faceUp[i][0] !== faceUp[index][0])) ui.selUp = [];
      ui.selUp.push(index);
    }
    ui.focusKey = `up-${index}`;
    draw();
  }

  function playSelection() {
    for (const type of ["play", "lay_face_up", "cut_in", "add", "lay_four"]) {
      const action = matching(type);
      if (action) return act(action);
    }
    const up = ui.selUp.length ? matching("play_face_up") : null;
    if (up) return act(up);
    const swap = matching("swap");
    if (swap) return act(swap);
    // Not a move the list offers: ask the server anyway, so the player reads the rules' own reason
    // (not your turn, does not fit, must play from the hand first …).
    if (ui.model.phase === "play" && ui.selHand.length) return act({ type: "play", cards: selectedCards() });
    if (ui.model.phase === "play" && ui.selUp.length) return act({ type: "play_face_up", indexes: [...ui.selUp] });
    if (ui.selHand.length || ui.selUp.length) showRefusal(dock, ctx, t("These cards cannot be played now."));
    return null;
  }

  const handlers = { act, toggleHand, toggleUp, playSelection, matching, selectedCards };
  ui.toggleKnown = (seat) => {
    if (ui.openKnown.has(seat)) ui.openKnown.delete(seat);
    else ui.openKnown.add(seat);
    draw();
    const again = felt.querySelector(`[data-role="known-toggle"][data-seat="${seat}"]`);
    if (again) again.focus({ preventScroll: true });
  };

  function drawDock() {
    const me = ui.model.me;
    const hand = handCards();
    const scroller = dock.querySelector(".hand");
    const scrolled = scroller ? scroller.scrollLeft : 0;
    replace(dock,
      h("p", { class: "status-line", role: "status", "aria-live": "polite" }, statusText(ui, ctx)),
      h("p", { class: "refusal", role: "alert", hidden: true }),
      me ? renderControls(ui, ctx, hand, handlers) : null,
      me ? h("div", { class: "own-row" }, renderOwnTable(ui, handlers), renderHand(ui, hand, handlers)) : null);
    const again = dock.querySelector(".hand");
    if (again) again.scrollLeft = scrolled;
  }

  function draw() {
    const focused = document.activeElement && (felt.contains(document.activeElement) || dock.contains(document.activeElement))
      ? document.activeElement.getAttribute("data-key") : null;
    const key = ui.focusKey || focused;
    const m = ui.model;
    const others = m.players.filter((p) => p.seat !== ctx.seat);
    const shown = actions.current(waiting(ui.state.view || {}));
    replace(felt,
      h("div", { class: "opponents" }, others.map((p) => renderOpponent(ui, ctx, p, shown))),
      renderCenter(m));
    drawDock();
    if (key) {
      const target = dock.querySelector(`[data-key="${key}"]`);
      if (target && !target.disabled) target.focus({ preventScroll: true });
    }
    ui.focusKey = null;
  }

  return {
    update(state) {
      actions.note(state);
      ui.state = state;
      ui.legal = state.legal || [];
      const previous = ui.model;
      ui.model = normalize(state.view || {}, ctx.seat);
      // Keep a selection only while the same cards are still in the same places.
      if (previous && previous.me && ui.model.me) {
        const before = previous.me.hand ? sortCards(previous.me.hand) : [];
        const after = handCards();
        ui.selHand = ui.selHand.filter((i) => before[i] && after[i] === before[i]);
        ui.selUp = ui.selUp.filter((i) => previous.me.faceUp[i] && ui.model.me.faceUp[i] === previous.me.faceUp[i]);
      } else {
        ui.selHand = [];
        ui.selUp = [];
      }
      draw();
    },
    onKey(event) {
      return handleKey(ui, ctx, { ...handlers, draw, handCards }, event);
    },
  };
}

export function keys() {
  return [
    ["1–9", t("Choose the card at that place in your hand")],
    [`${keyLabel("palace", "play", "p")} / Enter`, t("Play the chosen cards")],
    ["Esc", t("Clear the choice")],
    [keyLabel("palace", "draw", "d"), t("Draw a card")],
    [keyLabel("palace", "pick_up", "u"), t("Pick up the pile")],
    [`${keyLabel("palace", "burn", "b")} / ${keyLabel("palace", "keep", "k")}`, t("Burn the pile / leave it")],
    [keyLabel("palace", "pass", "n"), t("Pass")],
    [keyLabel("palace", "swap", "s"), t("Swap")],
    [keyLabel("palace", "ready", "r"), t("Ready")],
    [keyLabel("palace", "play_drawn", "y"), t("Play the drawn card")],
    [keyLabel("palace", "cut_in", "c"), t("Cut in")],
    [keyLabel("palace", "add", "a"), t("Add")],
    [keyLabel("palace", "lay_four", "l"), t("Lay four aside")],
  ];
}

function cardsText(cards) {
  return (cards || []).map((c) => (c ? cardName(c) : t("face-down card"))).join(", ");
}

export function describeEvent(event, seatName) {
  const who = event.seat !== undefined && event.seat !== null ? seatName(event.seat) : "";
  switch (event.type) {
    case "played":
      if (event.from === "face_down") return t("{name} played blind: {cards}", { name: who, cards: cardsText(event.cards) });
      if (event.from === "face_up") return t("{name} played from the table: {cards}", { name: who, cards: cardsText(event.cards) });
      return t("{name} played {cards}", { name: who, cards: cardsText(event.cards) });
    case "drew":
      return tn("{name} drew {n} card", "{name} drew {n} cards", event.count, { name: who });
    case "drew_cards":
      return t("You drew {cards}", { cards: cardsText(event.cards) });
    case "burned":
      return event.by === "four"
        ? t("{name} completed four of a kind: the pile is burned", { name: who })
        : t("{name} burned the pile", { name: who });
    case "picked_up":
      return tn("{name} picked up the pile ({n} card)", "{name} picked up the pile ({n} cards)", (event.cards || []).length, { name: who });
    case "out":
      return t("{name} is out (place {n})", { name: who, n: event.place });
    case "game_over":
      return event.reason === "stalemate" ? t("The game ended without progress.") : t("The game is over.");
    case "turned_up":
      return t("The pile starts with {card}", { card: cardName(event.card) });
    case "play_started":
      return t("Play starts: {name} begins", { name: seatName(event.turn) });
    case "swapped":
      return t("{name} swapped {card} to the table", { name: who, card: cardName(event.card) });
    case "ready":
      return t("{name} is ready", { name: who });
    case "laid_face_up":
      return t("{name} laid face up: {cards}", { name: who, cards: cardsText(event.cards) });
    case "turned_up_below":
      return t("{name}'s face-down card turns up: {card}", { name: who, card: cardName(event.card) });
    case "turned_face_down":
      return event.fits
        ? t("{name} turned {card}: it fits", { name: who, card: cardName(event.card) })
        : t("{name} turned {card}: it does not fit", { name: who, card: cardName(event.card) });
    case "passed":
      return t("{name} passed", { name: who });
    case "kept":
      return t("{name} left the pile", { name: who });
    case "laid_four":
      return t("{name} laid four aside: {cards}", { name: who, cards: cardsText(event.cards) });
    default:
      return null;
  }
}

// A seat's own move in a few words, for its seat until its next turn (null: not a move of its own,
// e.g. the refill after a play or a burn by four of a kind, which follow the play).
export function describeAction(event) {
  switch (event.type) {
    case "played":
      if (event.from === "face_down") return t("played blind {cards}", { cards: shortPlay(event.cards) });
      return t("played {cards}", { cards: shortPlay(event.cards) });
    case "picked_up": return t("picked up the pile");
    case "burned": return event.by === "four" ? null : t("burned the pile");
    case "passed": return t("passes");
    case "kept": return t("left the pile");
    case "laid_face_up": return t("laid face up {cards}", { cards: (event.cards || []).map(shortCard).join(" ") });
    case "laid_four": return t("laid four aside");
    case "turned_face_down": return event.fits ? null : t("turned {card}: no fit", { card: shortCard(event.card) });
    default: return null;
  }
}

// Palace's headline names the winner and, when the game was played on to the last (P22), the
// loser, the "turakas"; the score column is the cards still held.
export function describeOutcome(outcome, seatName) {
  const groups = outcome.placings || [];
  const first = groups[0] || [];
  if (!first.length) return null;
  const winners = first.length === 1
    ? t("{name} wins!", { name: seatName(first[0]) })
    : t("{names} share the win!", { names: first.map(seatName).join(", ") });
  const last = groups.length > 1 ? groups[groups.length - 1] : [];
  if (outcome.reason === "stalemate") return { headline: winners, lines: [t("The game ended without progress.")] };
  if (last.length === 1) return { headline: `${winners} ${t("{name} is the loser (turakas).", { name: seatName(last[0]) })}` };
  return { headline: winners };
}

export function scoreLabel() {
  return t("Cards left");
}

export function rankName(rank) {
  return rankLabel(rank);
}
