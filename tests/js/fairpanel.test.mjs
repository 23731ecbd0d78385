// The fair-deal panel's pure parts (static/js/fairpanel.js): the log lines of its records, shuffle
// names, the cards a page was dealt and the Palace seat's cards in a deck; and its state is the
// page's own (createFairDeal), not the module's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticModule, useCatalogue } from "./catalogue.mjs";

useCatalogue("en");
const fair = await staticModule("fairpanel.js");

test("shuffles are named as the table says them", () => {
  assert.equal(fair.shuffleName("deal"), "The deal");
  assert.equal(fair.shuffleName("deal-0"), "Deal 1");
  assert.equal(fair.shuffleName("hand-3"), "Hand 3");
  assert.equal(fair.shuffleName("button-draw"), "The draw for the button");
  assert.equal(fair.shuffleName("other"), "other");
});

test("a record's log line, and the note on seats that withheld their bytes", () => {
  assert.equal(fair.describeFairEvent({ type: "shuffle_key", label: "hand-2" }), "Hand 2: its key is revealed; the deck can be checked.");
  assert.equal(fair.describeFairEvent({ type: "played" }), null);
  assert.equal(fair.shortNote({ contributions: ["a", null, "b"], connected: [0, 1, 2], unrevealed: [1] }),
    " Seats that sent a hash and never their bytes: 2. Sealed with the bytes of 2 of the 3 connected seats.");
  assert.equal(fair.shortNote({ contributions: ["a"], connected: [0] }), "");
});

test("the cards in a view, wherever they are, and nothing that only looks like one", () => {
  const view = { hand: ["Qs", "Xr"], table: { up: [["2c"], "Th"] }, seat: 1, label: "Kx", name: "As a name" };
  assert.deepEqual(fair.cardsIn(view).sort(), ["2c", "Qs", "Th", "Xr"]);
});

test("a Palace seat's hand is its fixed places in the deck", () => {
  const deck = Array.from({ length: 18 }, (_, i) => `c${i}`);
  const record = { players: 2, seat: 1, sheet: { deal: "three_three_three" }, dealt_view: { hand: ["c17", "c15", "c13"] } };
  assert.deepEqual(fair.palaceDealt(record, deck), { hand: ["c13", "c15", "c17"], shown: ["c13", "c15", "c17"] });
  assert.equal(fair.palaceDealt({ ...record, seat: null }, deck), null);
});

test("what a page was dealt is remembered only from a live deal, once per game, per page", () => {
  const page = fair.createFairDeal();
  const other = fair.createFairDeal();
  const dealt = { game_no: 1, view: { hand: ["Qs", "2c"] }, events: [{ type: "deal" }] };
  fair.noteState(page, { ...dealt, view: { hand: ["As"] } }, false);
  assert.equal(page.dealtSeen.size, 0);
  fair.noteState(page, dealt, true);
  fair.noteState(page, { ...dealt, view: { hand: ["Kd"] } }, true);
  assert.deepEqual(page.dealtSeen.get(1), ["2c", "Qs"]);
  assert.equal(other.dealtSeen.size, 0);
});
