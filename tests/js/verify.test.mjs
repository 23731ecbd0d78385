// The browser's verifier (static/js/verify.js) on a fixture made by the server's own code
// (fixtures/fair.json: app.games.fair and app.signing, see its _made_by), under node's Web Crypto.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { staticModule } from "./catalogue.mjs";

const fair = JSON.parse(readFileSync(new URL("./fixtures/fair.json", import.meta.url), "utf8"));
const verify = await staticModule("verify.js");

function record(changes = {}) {
  return {
    format: "houserules-game-record/1",
    room: "room-1",
    game_no: 1,
    server_seed: fair.server_seed,
    nonce: fair.nonce,
    commitment: fair.commitment,
    contributions: fair.contributions,
    seed: fair.seed,
    shuffles: [{ label: fair.label, commitment: fair.key_commitment, cards: fair.cards, deck: fair.deck }],
    ...changes,
  };
}

const failed = (checks) => checks.filter((c) => c.ok === false).map((c) => c.name);

test("each step gives the server's value", async () => {
  assert.equal(await verify.commitment(fair.server_seed, fair.nonce), fair.commitment);
  assert.equal(await verify.shuffleSeed(fair.server_seed, fair.contributions), fair.seed);
  assert.equal(await verify.shuffleKey(fair.seed, fair.label), fair.key);
  assert.equal(await verify.keyCommitment(fair.key), fair.key_commitment);
  assert.deepEqual(await verify.shuffleWithKey(fair.key, fair.cards), fair.deck);
});

test("a missing contribution is not the same as none at all", async () => {
  assert.notEqual(await verify.shuffleSeed(fair.server_seed, [fair.contributions[0], fair.contributions[2]]), fair.seed);
});

test("an honest record passes every check", async () => {
  const checks = await verify.verifyRecord(record());
  assert.deepEqual(failed(checks), []);
  assert.deepEqual(checks.map((c) => c.name), ["commitment", "seed", "deal 1: key", "deal 1: key commitment", "deal 1: deck"]);
});

test("a changed contribution, nonce or card of the deck is caught", async () => {
  const contributions = [fair.contributions[0], null, "55".repeat(32)];
  // The seed changes, so does every key drawn from it: the deck no longer matches its commitment.
  assert.deepEqual(failed(await verify.verifyRecord(record({ contributions }))),
    ["seed", "deal 1: key commitment", "deal 1: deck"]);
  assert.deepEqual(failed(await verify.verifyRecord(record({ nonce: "23".repeat(16) }))), ["commitment"]);
  const deck = fair.deck.slice();
  [deck[0], deck[1]] = [deck[1], deck[0]];
  const shuffles = [{ ...record().shuffles[0], deck }];
  assert.deepEqual(failed(await verify.verifyRecord(record({ shuffles }))), ["deal 1: deck"]);
});

test("before the reveal nothing is failed, only not yet checked", async () => {
  const checks = await verify.verifyRecord(record({ server_seed: null, nonce: null }));
  assert.deepEqual(failed(checks), []);
  assert.equal(checks[0].ok, null);
});

test("something that is no game record is refused", async () => {
  await assert.rejects(verify.verifyRecord({ format: "other" }), /not a game record/);
});

test("the signed text is the server's and its signature checks; another text's does not", async () => {
  const { room, message, signature, public_key: key } = fair.signing;
  assert.equal(verify.commitmentMessage(room, fair.commitment), message);
  if (!(await verify.ed25519Available())) return;
  assert.equal(await verify.signatureValid(key, message, signature), true);
  assert.equal(await verify.signatureValid(key, verify.commitmentMessage("room-2", fair.commitment), signature), false);
});

test("a contribution is 32 random bytes in hex", () => {
  const a = verify.newContribution();
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.notEqual(a, verify.newContribution());
});
