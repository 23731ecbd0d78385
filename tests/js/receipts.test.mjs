// A record checked against this browser's receipts (static/js/receipts.js checkReceipts), as
// `python -m app.verify --receipts` does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticModule } from "./catalogue.mjs";

const { checkReceipts, FORMAT } = await staticModule("receipts.js");

const mine = "ab".repeat(32);
const record = {
  room: "room-1",
  game_no: 2,
  commitment: "c1".repeat(32),
  contributions: [null, mine],
  hashes: [null, "h1"],
  shuffles: [{ label: "hand 2", round: { commitment: "c2".repeat(32), contributions: [mine, null] } }],
};

function receipts(...items) {
  return { format: FORMAT, room: "room-1", server_key: null, receipts: items, warnings: [] };
}

const sealedDeal = { commitment: record.commitment, sent: true, acked: true, bytes: mine, hash: "h1", hash_acked: true,
  sealed: { game_no: 2, label: null, seat: 1 } };

test("bytes the record holds for the seat that sent them pass", () => {
  const checks = checkReceipts(record, receipts(sealedDeal));
  assert.deepEqual(checks.map((c) => [c.name, c.ok]), [
    ["deal: receipt commitment", true],
    ["deal: receipt bytes (seat 1)", true],
    ["deal: receipt hash (seat 1)", true],
  ]);
});

test("a record that dropped acknowledged bytes fails", () => {
  const dropped = { ...record, contributions: [null, null] };
  const checks = checkReceipts(dropped, receipts(sealedDeal));
  assert.equal(checks.find((c) => c.name === "deal: receipt bytes (seat 1)").ok, false);
});

test("a later round is found by its label; a label the record lacks fails", () => {
  const hand = { commitment: "c2".repeat(32), sent: true, acked: true, bytes: mine, sealed: { game_no: 2, label: "hand 2", seat: 0 } };
  assert.deepEqual(checkReceipts(record, receipts(hand)).map((c) => c.ok), [true, true]);
  const missing = { ...hand, sealed: { ...hand.sealed, label: "hand 9" } };
  assert.deepEqual(checkReceipts(record, receipts(missing)), [{ name: "hand 9: receipt commitment", ok: false }]);
});

test("receipts of another room or another server key do not pass", () => {
  assert.deepEqual(checkReceipts(record, { ...receipts(), room: "room-2" }), [{ name: "receipts: room", ok: false }]);
  const keyed = checkReceipts({ ...record, server_key: "k1" }, { ...receipts(), server_key: "k2" });
  assert.deepEqual(keyed, [{ name: "receipts: server key", ok: false }]);
});

test("an unsealed acknowledged contribution must be among the round's", () => {
  const loose = { commitment: record.commitment, sent: true, acked: true, bytes: "cd".repeat(32) };
  assert.deepEqual(checkReceipts(record, receipts(loose)), [{ name: "deal: receipt bytes", ok: false }]);
  assert.deepEqual(checkReceipts(record, receipts({ ...loose, bytes: mine })), [{ name: "deal: receipt bytes", ok: true }]);
});
