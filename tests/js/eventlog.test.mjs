// Log wording (static/js/eventlog.js): the room's own lines, the fair deal's records, the table
// module's lines (Palace's, the real module) and the fallback for an event no one words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticModule, useCatalogue } from "./catalogue.mjs";

useCatalogue("en");
const { eventText, describeEvent, isFairEvent } = await staticModule("eventlog.js");
const palace = await staticModule("tables/palace.js");

const names = ["Ann", "Ben", "Cid"];
const seatName = (seat) => names[seat];

test("a game's result names its winner and its last player", () => {
  const line = eventText({ type: "game_result", winners: ["Ann"], losers: ["Cid"] }, null, seatName);
  assert.deepEqual(line, { text: "Ann wins! Cid is last.", worded: true });
  assert.equal(describeEvent({ type: "game_result", winners: ["Ann", "Ben"] }, null, seatName), "Ann, Ben share the win!");
});

test("the table module words its own events, with card names", () => {
  const line = eventText({ type: "played", seat: 1, cards: ["Qs", "Qh"] }, palace, seatName);
  assert.equal(line.worded, true);
  assert.match(line.text, /^Ben played /);
  assert.match(line.text, /Q/);
  assert.equal(describeEvent({ type: "out", seat: 2, place: 1 }, palace, seatName), "Cid is out (place 1)");
});

test("a deal with no module wording gets the room's line and its seats' note", () => {
  assert.equal(describeEvent({ type: "deal" }, null, seatName), "The cards are dealt.");
  const noted = describeEvent({ type: "deal", contributions: ["aa", null], connected: [0, 1] }, null, seatName);
  assert.equal(noted, "The cards are dealt. Sealed with the bytes of 1 of the 2 connected seats.");
});

test("the fair deal's records are worded by the fair panel and told apart", () => {
  const reveal = { type: "reveal" };
  assert.equal(isFairEvent(reveal), true);
  assert.equal(isFairEvent({ type: "played" }), false);
  assert.equal(eventText(reveal, palace, seatName).text, "The server seed is revealed: the deal can be verified.");
  const round = eventText({ type: "fair_round", label: "hand 2", contributions: ["aa", "bb", null] }, null, seatName);
  assert.equal(round.worded, true);
  assert.match(round.text, /2 seats\.$/);
});

test("an event nobody words falls back to its type in words and says so", () => {
  assert.deepEqual(eventText({ type: "brand_new_thing" }, palace, seatName), { text: "brand new thing", worded: false });
});

test("a fold or a straddle is the last move on the felt; a blind the table posts is not", async () => {
  const { lastMoveOf } = await staticModule("eventlog.js");
  const holdem = await staticModule("tables/holdem.js");
  const hand = [
    { type: "hand_started", hand: 3, button: 0 },
    { type: "posted", seat: 1, kind: "small_blind", amount: 1 },
    { type: "posted", seat: 2, kind: "big_blind", amount: 2 },
    { type: "no_straddle", seat: 0 },
    { type: "fold", seat: 0 },
    { type: "fold", seat: 1 },
    { type: "pot_won", shares: { 2: 3 } },
  ];
  assert.equal(describeEvent(lastMoveOf(hand, holdem), holdem, seatName), "Ben folds");
  assert.equal(lastMoveOf(hand.slice(0, 3), holdem), null);
  const straddled = [...hand.slice(0, 3), { type: "posted", seat: 0, kind: "straddle", amount: 4 }];
  assert.equal(describeEvent(lastMoveOf(straddled, holdem), holdem, seatName), "Ann straddles 4");
  // A module without isMove: the events its describeAction words (Palace's plays).
  const played = { type: "played", seat: 2, cards: ["5h"] };
  assert.equal(lastMoveOf([played, { type: "hand_size", seat: null }], palace), played);
});
