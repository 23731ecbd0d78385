// The rule-sheet form's pure parts (static/js/schemaform.js): an option's shape from its JSON
// schema, when it applies, the form's order, the house rules against a preset, the closest preset
// and values in words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticModule, useCatalogue } from "./catalogue.mjs";

useCatalogue("en");
const form = await staticModule("schemaform.js");

const schema = {
  $defs: { Speed: { enum: ["slow", "fast"] } },
  "x-seats": { option: "players", role: "max" },
  "x-groups": ["table", "play"],
  properties: {
    players: { type: "integer", minimum: 2, maximum: 6, "x-group": "table", "x-order": 1 },
    speed: { $ref: "#/$defs/Speed", "x-group": "play", "x-order": 2 },
    jokers: { type: "boolean", "x-group": "play", "x-order": 1 },
    limit: { anyOf: [{ type: "integer", exclusiveMinimum: 0 }, { type: "null" }], "x-group": "play", "x-order": 3,
      "x-shown-when": { speed: ["fast"] } },
    blinds: { type: "array", items: { type: "object", properties: { small_blind: {}, big_blind: {} } } },
    hidden: { type: "string", "x-hidden": true },
  },
};

test("an option's shape: kind, bounds, nullable, a referenced enum", () => {
  assert.deepEqual((({ kind, min, max }) => ({ kind, min, max }))(form.fieldShape(schema, schema.properties.players)),
    { kind: "int", min: 2, max: 6 });
  const speed = form.fieldShape(schema, schema.properties.speed);
  assert.equal(speed.kind, "enum");
  assert.deepEqual(speed.enum, ["slow", "fast"]);
  const limit = form.fieldShape(schema, schema.properties.limit);
  assert.equal(limit.kind, "int");
  assert.equal(limit.nullable, true);
  assert.equal(limit.min, 1);
  assert.equal(form.fieldShape(schema, schema.properties.blinds).kind, "levels");
  assert.equal(form.fieldShape(schema, schema.properties.jokers).kind, "bool");
});

test("an option applies only when its conditions hold, a hidden one never", () => {
  assert.equal(form.applies(schema.properties.limit, { speed: "fast" }), true);
  assert.equal(form.applies(schema.properties.limit, { speed: "slow" }), false);
  assert.equal(form.applies({ "x-shown-when": { speed: { not: ["slow"] } } }, { speed: "slow" }), false);
  assert.equal(form.applies(schema.properties.hidden, {}), false);
});

test("options come in group order, then by their order, the ungrouped last", () => {
  assert.deepEqual(form.orderedOptions(schema), ["players", "jokers", "speed", "limit", "blinds", "hidden"]);
});

test("house rules are the options that differ from the preset; fewer seats than its most are none", () => {
  const base = { players: 4, speed: "slow", jokers: false, limit: null };
  assert.deepEqual(form.houseRules(schema, { ...base, players: 3, jokers: true }, base), ["jokers"]);
  // The seat option is the preset's most (role "max"): a larger table is a rule of this house.
  assert.deepEqual(form.houseRules(schema, { ...base, players: 6 }, base), ["players"]);
});

test("the closest preset is the one with the fewest differences, the first on a tie", () => {
  const presets = {
    calm: { players: 4, speed: "slow", jokers: false },
    wild: { players: 4, speed: "fast", jokers: true },
    other: { players: 4, speed: "slow", jokers: false },
  };
  assert.equal(form.closestPreset(schema, presets, { players: 4, speed: "fast", jokers: true }), "wild");
  assert.equal(form.closestPreset(schema, presets, { players: 4, speed: "slow", jokers: true }), "calm");
});

test("values in words", () => {
  assert.equal(form.formatValue(schema, schema.properties.jokers, true), "yes");
  assert.equal(form.formatValue(schema, schema.properties.limit, null), "none");
  assert.equal(form.formatValue(schema, schema.properties.players, 5), "5");
  assert.equal(form.levelsText([{ small_blind: 1, big_blind: 2 }, { small_blind: 2, big_blind: 4, ante: 1 }]), "1/2, 2/4 (ante 1)");
  assert.equal(form.seatOption(schema), "players");
});
