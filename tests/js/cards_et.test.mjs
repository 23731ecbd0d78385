// The same card names in Estonian: the catalogue's template puts the suit first ("potiemand").
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticModule, useCatalogue } from "./catalogue.mjs";

useCatalogue("et");
const { cardName } = await staticModule("cards.js");
const { tn } = await staticModule("i18n.js");

test("an Estonian card name is one word, suit then rank", () => {
  assert.equal(cardName("Qs"), "potiemand");
  assert.equal(cardName("Xb"), "Jokker");
});

test("Estonian plurals follow the language's rule", () => {
  assert.equal(tn("{n} card", "{n} cards", 1), "1 kaart");
  assert.equal(tn("{n} card", "{n} cards", 3), "3 kaarti");
});

test("a refused rule sheet names the option by its Estonian label, not its key", async () => {
  const { refusalText } = await staticModule("i18n.js");
  const error = { code: "invalid_sheet", message: "“Turn timer”: at least 0.", template: "“{label}”: at least {ge}.",
    params: { key: "turn_timer_seconds", label: "Turn timer", ge: 0 } };
  const text = refusalText(error);
  assert.match(text, /^„.+”: vähemalt 0\.$/);
  assert.doesNotMatch(text, /turn_timer_seconds|Turn timer/);
});
