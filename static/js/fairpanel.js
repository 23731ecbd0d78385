// The page's part in fair deals (docs/fairness.md): it contributes random bytes to each next deal
// when it sees that deal's commitment, remembers the cards this page was shown at each deal, and
// offers a "Verify" box on a finished game that checks the game record with Web Crypto.

import { h, replace } from "./dom.js";
import { t, tn } from "./i18n.js";
import { newContribution, verifyRecord } from "./verify.js";

const CARD = /^([2-9TJQKA][cdhs]|X[rb])$/;
const given = new Set(); // commitments this page has contributed to
const dealtSeen = new Map(); // game number -> the card codes this page saw in its first view of the game

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
    return tn("{shuffle}: a new round is sealed with the random bytes of {n} seat.",
      "{shuffle}: a new round is sealed with the random bytes of {n} seats.", count, { shuffle: shuffleName(event.label) });
  }
  if (event.type === "round_reveal") {
    const labels = event.labels || [];
    return t("{shuffle}: its round's server seed is revealed; it can be verified.", { shuffle: shuffleName(labels[labels.length - 1]) });
  }
  return null;
}

/** Send this seat's contribution for the next deal's commitment, once per commitment. */
export function contribute(room, seat, send) {
  const commitment = room && room.fair && room.fair.commitment;
  if (seat === null || seat === undefined || !commitment || given.has(commitment)) return;
  if ((room.fair.contributed || []).includes(seat)) return;
  given.add(commitment);
  send({ type: "entropy", commitment, bytes: newContribution() }).catch(() => given.delete(commitment));
}

function cardsIn(value, out = []) {
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
export function sideBox(ctx) {
  const commitmentLine = h("p", { class: "note commitment", dataset: { role: "commitment" } });
  const mineLine = h("p", { class: "note", dataset: { role: "contributed" } });
  const verify = verifyBox({ ...ctx, heading: "h2" });
  const box = h("section", { class: "box fair", id: "fair-box", hidden: true }, verify);
  verify.insertBefore(mineLine, verify.children[1]);
  verify.insertBefore(commitmentLine, mineLine);
  return {
    element: box,
    update(room, seat, state) {
      const fair = room && room.fair;
      box.hidden = !fair;
      if (!fair) return;
      const short = `${fair.commitment.slice(0, 8)}…${fair.commitment.slice(-8)}`;
      commitmentLine.textContent = t("Next deal's commitment: {hash}", { hash: short });
      commitmentLine.title = fair.commitment;
      mineLine.hidden = seat === null || seat === undefined;
      mineLine.textContent = (fair.contributed || []).includes(seat)
        ? t("Your random bytes for the next deal are in.") : t("Adding your random bytes to the next deal…");
      // During a game only: a finished game's result box has its own.
      verify.querySelector("[data-role=verify]").parentElement.hidden = !(state && state.view) || Boolean(state.outcome);
    },
    reset() {
      replace(verify.querySelector(".verify-result"));
    },
  };
}

/** Remember the cards of the view this page was pushed live with a game's deal event (it was there). */
export function noteState(message, live) {
  if (!live || !message.view || dealtSeen.has(message.game_no)) return;
  if ((message.events || []).some((e) => e.type === "deal")) {
    dealtSeen.set(message.game_no, cardsIn(message.view).sort());
  }
}

// Palace deals 3 face-down cards to each seat in turn, then (three-three-three) 3 face-up and 3
// to the hand, or 6 to the hand: the seat's cards are at fixed places of the deck (engine docstring).
function palaceDealt(record, deck) {
  const n = record.players;
  const seat = record.seat;
  if (seat === null || seat === undefined || !deck) return null;
  const at = (round) => deck[round * n + seat];
  const three = record.sheet.deal === "three_three_three";
  const hand = three ? [6, 7, 8].map(at) : [3, 4, 5, 6, 7, 8].map(at);
  return { hand: hand.sort(), shown: (record.dealt_view.hand || []).slice().sort() };
}

async function runChecks(record) {
  const checks = await verifyRecord(record);
  if (record.game === "palace") {
    const deal = checks.find((c) => c.name === "deal: deck" && c.deck);
    const dealt = palaceDealt(record, deal && deal.deck);
    if (dealt) {
      checks.push({ name: t("Your hand is the deck's cards for your seat"), ok: JSON.stringify(dealt.hand) === JSON.stringify(dealt.shown) });
    }
  }
  const seen = dealtSeen.get(record.game_no);
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
  };
  if (part === undefined) return parts[label] || label;
  return `${shuffleName(label)} — ${parts[part] || part}`;
}

let boxes = 0;

/** The "Verify" box: a button that downloads the current game's record and checks it (all of it once
 * the game is over; during a game what is revealed so far, e.g. Hold'em's finished hands). */
export function verifyBox(ctx) {
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
      const checks = await runChecks(record);
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
  if (!response.ok) throw new Error(ctx.errorText(body.code, body.message));
  const disposition = response.headers.get("Content-Disposition") || "";
  const match = /filename="([^"]+)"/.exec(disposition);
  return { record: body, name: match ? match[1] : "game-record.json" };
}
