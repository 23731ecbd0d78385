// Card names and ordering (static/js/cards.js) as an English page words them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticModule, useCatalogue } from "./catalogue.mjs";

useCatalogue("en");
const { cardName, rankLabel, sortCards } = await staticModule("cards.js");

test("a card is named by its rank and suit words from the catalogue", () => {
  assert.equal(cardName("Qs"), "Queen of spades");
  assert.equal(cardName("Th"), "Ten of hearts");
  assert.equal(cardName("2c"), "Two of clubs");
});

test("a joker, a face-down card and a code that is no card", () => {
  assert.equal(cardName("Xr"), "Joker");
  assert.equal(cardName(null), "face-down card");
  assert.equal(cardName("Zz"), "Zz");
});

test("the ten is written 10, other ranks as they are", () => {
  assert.equal(rankLabel("T"), "10");
  assert.equal(rankLabel("Q"), "Q");
});

test("cards sort by rank, low to high", () => {
  assert.deepEqual(sortCards(["As", "2h", "Td", "9c"]), ["2h", "9c", "Td", "As"]);
});
