// The page's part in fair deals (docs/fairness.md): it contributes random bytes to each next deal
// in two phases and keeps receipts of them (receipts.js), checks each sealed round against them,
// verifies what is revealed as it comes and warns loudly when anything is wrong, remembers the
// cards this page was shown at each deal, and offers a "Verify" box on a finished game that checks
// the game record with Web Crypto.

import { h, replace } from "./dom.js";
import { t, tn } from "./i18n.js";
import { Receipts, checkReceipts } from "./receipts.js";
import { verifyRecord } from "./verify.js";

const CARD = /^([2-9TJQKA][cdhs]|X[rb])$/;

/** The page's fair-deal state, made once by the page and handed to each function below that needs it
 * (no module keeps it). */
export function createFairDeal() {
  return {
    dealtSeen: new Map(), // game number -> the card codes this page saw in its first view of the game
    receipts: null, // this room's receipts (startReceipts)
    warningBox: null,
    autoListeners: [], // redraws when the receipts change or an automatic verification ends
    autoResult: null, // the last automatic verification's checks
  };
}

/** The log line of a fairness event (null for other events): never "seat X:", as the seat of the
 * entry these ride in is whoever moved last, not who published them. */
export function describeFairEvent(event) {
  if (event.type === "shuffle_commitment") {
    return t("{shuffle}: its key's commitment is published; the key comes later.", { shuffle: shuffleName(event.label) });
  }
  if (event.type === "shuffle_key") {
    return t("{shuffle}: its key is revealed; the deck can be checked.", { shuffle: shuffleName(event.label) });
  }
  if (event.type === "reveal") return t("The server seed is revealed: the deal can be verified.");
  if (event.type === "fair_round") {
    const count = (event.contributions || []).filter((c) => c !== null && c !== undefined).length;
    const line = tn("{shuffle}: a new round is sealed with the random bytes of {n} seat.",
      "{shuffle}: a new round is sealed with the random bytes of {n} seats.", count, { shuffle: shuffleName(event.label) });
    return `${line}${shortNote(event)}`;
  }
  if (event.type === "round_reveal") {
    const labels = event.labels || [];
    return t("{shuffle}: its round's server seed is revealed; it can be verified.", { shuffle: shuffleName(labels[labels.length - 1]) });
  }
  return null;
}

/** What a sealed round adds to its log line: the seats that sent a hash and never their bytes,
 * and fewer contributors than connected seats. */
export function shortNote(event) {
  const parts = [];
  const count = (event.contributions || []).filter((c) => c !== null && c !== undefined).length;
  if ((event.unrevealed || []).length) {
    parts.push(t("Seats that sent a hash and never their bytes: {seats}.", {
      seats: event.unrevealed.map((s) => s + 1).join(", ") }));
  }
  if (Array.isArray(event.connected) && count < event.connected.length) {
    parts.push(t("Sealed with the bytes of {n} of the {m} connected seats.", { n: count, m: event.connected.length }));
  }
  return parts.length ? ` ${parts.join(" ")}` : "";
}

const WARNINGS = {
  changed_without_deal: () => t("The server replaced the next deal's commitment {hash} without dealing from it: it may have drawn the deck again."),
  commitment_mismatch: () => t("A round was sealed under a commitment this page was never shown ({hash})."),
  bytes_mismatch: () => t("A sealed round does not hold exactly the random bytes this page sent (commitment {hash})."),
  stale_on_show: () => t("The server refused this page's bytes as stale for the commitment it still shows ({hash})."),
  bad_signature: () => t("The server's signature on commitment {hash} does not verify."),
  key_changed: () => t("The server's signing key is not the one this browser first saw ({hash})."),
  record_failed: () => t("The game record does not verify against this page's receipts (commitment {hash})."),
};

function short(hex) {
  return hex ? `${String(hex).slice(0, 8)}…${String(hex).slice(-8)}` : "";
}

function renderWarnings(fair) {
  const { warningBox, receipts } = fair;
  if (!warningBox || !receipts) return;
  const warnings = receipts.data.warnings;
  warningBox.hidden = warnings.length === 0;
  if (!warnings.length) return;
  const download = h("button", { type: "button", class: "secondary", dataset: { role: "receipts" } }, t("Download receipts"));
  download.addEventListener("click", () => receipts.download());
  replace(warningBox,
    h("h2", {}, t("Warning: this room's deals may not be fair")),
    h("ul", {}, warnings.map((w) => h("li", { dataset: { kind: w.kind } },
      (WARNINGS[w.kind] || (() => w.kind))().replace("{hash}", short(w.commitment))))),
    h("p", { class: "note" }, t("Keep the receipts: with the game record, {command} shows anyone what went wrong.", { command: "python -m app.verify RECORD --receipts FILE" })),
    h("p", {}, download));
}

/** This room's receipts: the page's contributions (hash, then bytes) and the checks of every
 * sealed round and reveal against them; warnings go into `box` (the page's top). */
export function startReceipts(fair, ctx, send, box) {
  fair.warningBox = box;
  fair.receipts = new Receipts(ctx.roomId, {
    send,
    fetchRecord: async () => (await fetchRecord(ctx)).record,
    onChange: () => {
      renderWarnings(fair);
      for (const listener of fair.autoListeners) listener();
    },
  });
  fair.receipts.pinKey();
  renderWarnings(fair);
  return fair.receipts;
}

/** A room message: the receipt for the commitment on show, and this page's hash or bytes for it
 * (always sent, whatever the room message says this seat has given). */
export function contribute(fair, room, seat) {
  if (fair.receipts) fair.receipts.room(room, seat);
}

/** A state message's fair events: sealed rounds against the receipts; reveals verified at once. */
export function noteFairEvents(fair, message, seat, live) {
  const { receipts } = fair;
  if (!receipts) return;
  let revealed = false;
  for (const event of message.events || []) {
    if (event.type === "deal" || event.type === "fair_round") receipts.sealed(event, seat, live);
    if (event.type === "reveal" || event.type === "round_reveal") revealed = true;
  }
  if (revealed) {
    receipts.verifyRevealed((record) => runChecks(fair, record)).then((checks) => {
      fair.autoResult = checks;
      for (const listener of fair.autoListeners) listener();
    });
  }
}

function receiptName(name) {
  if (name === "receipts: server key") return `receipt: ${t("The server's key is the one this browser pinned first")}`;
  if (name === "receipts: room") return `receipt: ${t("This browser's receipts")}`;
  const [label, part] = name.split(": ");
  const what = /^receipt (commitment|bytes|hash)/.exec(part || "");
  const text = {
    commitment: t("The commitment this page was shown before the deal"),
    bytes: t("Your seat holds exactly the bytes this page sent (or none)"),
    hash: t("Your seat's hash is the one this page sent"),
  }[what ? what[1] : ""] || t("This browser's receipts");
  return `receipt: ${label === "deal" ? t("The deal") : shuffleName(label)} — ${text}`;
}

// Every card code anywhere in a view or a record's part of one.
export function cardsIn(value, out = []) {
  if (typeof value === "string") {
    if (CARD.test(value)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) cardsIn(item, out);
  } else if (value && typeof value === "object") {
    for (const item of Object.values(value)) cardsIn(item, out);
  }
  return out;
}

/** The side box while a room is open: the next deal's commitment, whether this seat's bytes are in,
 * and (during a game) the Verify button for what is revealed so far. */
export function sideBox(fair, ctx) {
  const commitmentLine = h("p", { class: "note commitment", dataset: { role: "commitment" } });
  const mineLine = h("p", { class: "note", dataset: { role: "contributed" } });
  const keyLine = h("p", { class: "note commitment", dataset: { role: "server-key" } });
  const autoLine = h("p", { class: "note", dataset: { role: "auto-verify" }, hidden: true });
  const receiptsLink = h("a", { class: "link", href: "#", dataset: { role: "receipts" } }, t("Download receipts"));
  receiptsLink.addEventListener("click", (event) => {
    event.preventDefault();
    if (fair.receipts) fair.receipts.download();
  });
  const verify = verifyBox(fair, { ...ctx, heading: "h2" });
  const box = h("section", { class: "box fair", id: "fair-box", hidden: true }, verify);
  verify.insertBefore(mineLine, verify.children[1]);
  verify.insertBefore(commitmentLine, mineLine);
  verify.append(keyLine, autoLine, h("p", {}, receiptsLink));
  let last = [null, null, null];
  const redraw = () => {
    const data = fair.receipts ? fair.receipts.data : null;
    const { autoResult } = fair;
    keyLine.hidden = !(data && data.server_key);
    if (data && data.server_key) {
      keyLine.textContent = t("Server key: {key}", { key: short(data.server_key) });
      keyLine.title = data.server_key;
    }
    autoLine.hidden = !autoResult;
    if (autoResult) {
      const failed = autoResult.some((c) => c.ok === false);
      autoLine.textContent = failed ? t("Checked automatically: ✗ something does not verify.")
        : t("Checked automatically: ✓ everything revealed so far verifies.");
      autoLine.className = failed ? "note bad" : "note good";
    }
    const [room, seat] = last;
    const shown = room && room.fair;
    if (!shown || !data) return;
    const mine = data.receipts.find((r) => r.commitment === shown.commitment);
    mineLine.textContent = mine && mine.acked ? t("Your random bytes for the next deal are in.")
      : mine && mine.hash_acked ? t("Your bytes' hash is in; the bytes follow when the round's hashes are sealed.")
        : mine && mine.late ? t("This round's hashes were sealed before yours: your bytes count from the next one.")
          : t("Adding your random bytes to the next deal…");
    mineLine.hidden = seat === null || seat === undefined;
  };
  fair.autoListeners.push(redraw);
  return {
    element: box,
    update(room, seat, state) {
      const shown = room && room.fair;
      box.hidden = !shown;
      if (!shown) return;
      last = [room, seat, state];
      commitmentLine.textContent = t("Next deal's commitment: {hash}", { hash: short(shown.commitment) });
      commitmentLine.title = shown.commitment;
      redraw();
      // During a game only: a finished game's result box has its own.
      verify.querySelector("[data-role=verify]").parentElement.hidden = !(state && state.view) || Boolean(state.outcome);
    },
    reset() {
      replace(verify.querySelector(".verify-result"));
    },
  };
}

/** Remember the cards of the view this page was pushed live with a game's deal event (it was there). */
export function noteState(fair, message, live) {
  if (!live || !message.view || fair.dealtSeen.has(message.game_no)) return;
  if ((message.events || []).some((e) => e.type === "deal")) {
    fair.dealtSeen.set(message.game_no, cardsIn(message.view).sort());
  }
}

// Palace deals 3 face-down cards to each seat in turn, then (three-three-three) 3 face-up and 3
// to the hand, or 6 to the hand: the seat's cards are at fixed places of the deck (engine docstring).
export function palaceDealt(record, deck) {
  const n = record.players;
  const seat = record.seat;
  if (seat === null || seat === undefined || !deck) return null;
  const at = (round) => deck[round * n + seat];
  const three = record.sheet.deal === "three_three_three";
  const hand = three ? [6, 7, 8].map(at) : [3, 4, 5, 6, 7, 8].map(at);
  return { hand: hand.sort(), shown: (record.dealt_view.hand || []).slice().sort() };
}

async function runChecks(fair, record) {
  const checks = await verifyRecord(record);
  if (record.game === "palace") {
    const deal = checks.find((c) => c.name === "deal: deck" && c.deck);
    const dealt = palaceDealt(record, deal && deal.deck);
    if (dealt) {
      checks.push({ name: t("Your hand is the deck's cards for your seat"), ok: JSON.stringify(dealt.hand) === JSON.stringify(dealt.shown) });
    }
  }
  const seen = fair.dealtSeen.get(record.game_no);
  if (seen) {
    checks.push({ name: t("The record shows the cards this page was dealt"), ok: JSON.stringify(cardsIn(record.dealt_view).sort()) === JSON.stringify(seen) });
  }
  return checks;
}

// A shuffle's label as the table says it (docs/fairness.md lists the labels).
export function shuffleName(label) {
  const match = /^(deal|hand)-(\d+)$/.exec(label);
  if (label === "deal") return t("The deal");
  if (label === "button-draw") return t("The draw for the button");
  if (match && match[1] === "deal") return t("Deal {n}", { n: Number(match[2]) + 1 });
  if (match) return t("Hand {n}", { n: Number(match[2]) });
  return label;
}

function checkName(name) {
  if (name.startsWith("receipt: ")) return name.slice("receipt: ".length);
  const [label, part] = name.split(": ");
  const parts = {
    commitment: t("Commitment matches the revealed server seed"),
    seed: t("Shuffle seed from the server seed and every contribution"),
    key: t("Shuffle key from the seed"),
    "key commitment": t("Shuffle key matches its commitment"),
    deck: t("Deck order from the shuffle"),
    round: t("Its own round's server seed"),
    "round commitment": t("Its round's commitment matches the revealed server seed"),
    "round seed": t("Its round's seed from the server seed and every contribution"),
    hashes: t("Each seat's bytes are those whose hash it sent first"),
    signature: t("The server's signature on the sealed deal"),
    "round hashes": t("Its round's bytes are those whose hashes were sent first"),
    "round signature": t("The server's signature on its sealed round"),
  };
  if (part === undefined) return parts[label] || label;
  return `${shuffleName(label)} — ${parts[part] || part}`;
}

let boxes = 0;

/** The "Verify" box: a button that downloads the current game's record and checks it (all of it once
 * the game is over; during a game what is revealed so far, e.g. Hold'em's finished hands). */
export function verifyBox(fair, ctx) {
  boxes += 1;
  const titleId = `verify-title-${boxes}`;
  const out = h("div", { class: "verify-result", "aria-live": "polite" });
  const link = h("a", { class: "link", href: "#", dataset: { role: "record" } }, t("Download the game record"));
  link.addEventListener("click", (event) => {
    event.preventDefault();
    fetchRecord(ctx).then(({ record, name }) => {
      const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      h("a", { href: url, download: name }).click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    }).catch((error) => replace(out, h("p", { class: "error" }, error.message || String(error))));
  });
  const button = h("button", { type: "button", class: "secondary", dataset: { role: "verify" } }, t("Verify the deal"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    replace(out, h("p", {}, t("Checking…")));
    try {
      const { record } = await fetchRecord(ctx);
      const checks = await runChecks(fair, record);
      const { receipts } = fair;
      if (receipts) {
        // This browser's receipts too: the record must hold what this page was shown and sent.
        const own = checkReceipts(record, receipts.data);
        if ([...checks, ...own].some((c) => c.ok === false)) receipts.recordFailed(record, [...checks, ...own]);
        checks.push(...own.map((c) => ({ ...c, name: receiptName(c.name) })));
      }
      const failed = checks.some((c) => c.ok === false);
      const passed = checks.some((c) => c.ok === true);
      const partial = checks.some((c) => c.ok === null);
      let verdict = "verified";
      let text = t("✓ The deal verifies.");
      if (failed) {
        verdict = "failed";
        text = t("✗ This deal does not verify.");
      } else if (!passed) {
        verdict = "waiting";
        text = t("Nothing to check yet: the keys come when the cards may be shown.");
      } else if (partial) {
        verdict = "partial";
        text = t("✓ Everything revealed so far verifies.");
      }
      replace(out,
        h("p", { class: failed ? "verdict bad" : "verdict good", dataset: { verdict } }, text),
        h("p", { class: "note" }, t("Seats that added random bytes: {n} of {m}.", {
          n: (record.contributions || []).filter((c) => c).length, m: (record.contributions || []).length })),
        h("ul", { class: "checks" }, checks.map((c) => h("li", { dataset: { ok: String(c.ok) } },
          `${c.ok === true ? "✓" : c.ok === false ? "✗" : "·"} ${checkName(c.name)}`))));
    } catch (error) {
      replace(out, h("p", { class: "error" }, error.message || String(error)));
    } finally {
      button.disabled = false;
    }
  });
  return h("section", { class: "verify", "aria-labelledby": titleId },
    h(ctx.heading || "h3", { id: titleId }, t("Fair deal")),
    h("p", { class: "note" }, t("Each seat may add random bytes to the shuffle; check the deal yourself.")),
    h("p", {}, button, " ", link), out);
}

async function fetchRecord(ctx) {
  const token = ctx.token();
  const response = await fetch(`/api/rooms/${encodeURIComponent(ctx.roomId)}/record`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const body = await response.json();
  if (!response.ok) throw new Error(ctx.errorText(body));
  const disposition = response.headers.get("Content-Disposition") || "";
  const match = /filename="([^"]+)"/.exec(disposition);
  return { record: body, name: match ? match[1] : "game-record.json" };
}
