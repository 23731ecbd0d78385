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
