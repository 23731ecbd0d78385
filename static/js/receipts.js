// The page's receipts for fair deals (docs/fairness.md, "Receipts"): the page never takes the
// server's word for its own part. Per room, in localStorage (so every tab of this browser shares
// them), it keeps for each round it saw: the commitment shown before the deal (and the server's
// signature on it), the bytes it made, their hash, whether the hash and the bytes were
// acknowledged, and how the round was sealed (game, label, this page's seat). It sends its hash and
// then its bytes whatever the room message says; at each deal / fair_round it checks the sealed
// round against the receipt (commitment, its own seat's bytes or none, the signature), and when
// seeds come out it verifies the record against the receipts. Anything wrong is a warning kept
// with the receipts and shown loudly on every page of this room.

import { commitmentMessage, newContribution, roundMessage, signatureValid } from "./verify.js";

export const FORMAT = "houserules-receipts/1";
const KEEP = 300; // receipts per room (the oldest go first)

const storeKey = (roomId) => `houserules-receipts:${roomId}`;

async function sha256Hex(hex) {
  const bytes = new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function loadReceipts(roomId) {
  try {
    const data = JSON.parse(localStorage.getItem(storeKey(roomId)) || "null");
    if (data && data.format === FORMAT && Array.isArray(data.receipts)) {
      data.warnings = Array.isArray(data.warnings) ? data.warnings : [];
      return data;
    }
  } catch (error) {
    // A damaged entry: start again (the server's records still verify on their own).
  }
  return { format: FORMAT, room: roomId, server_key: null, receipts: [], warnings: [] };
}

function contains(record, commitment) {
  if (!record) return false;
  if (record.commitment === commitment) return true;
  return (record.shuffles || []).some((s) => s.round && s.round.commitment === commitment);
}

/** The record checked against the receipts, as `python -m app.verify --receipts` does (app/receipts.py):
 * [{name, ok, detail}]. */
export function checkReceipts(record, data) {
  const checks = [];
  if (data.room !== record.room) return [{ name: "receipts: room", ok: false }];
  if (record.server_key && data.server_key) {
    checks.push({ name: "receipts: server key", ok: record.server_key === data.server_key });
  }
  const rounds = [{ label: null, commitment: record.commitment, contributions: record.contributions || [], hashes: record.hashes }];
  for (const s of record.shuffles || []) {
    if (s.round) rounds.push({ label: s.label, commitment: s.round.commitment, contributions: s.round.contributions || [], hashes: s.round.hashes });
  }
  for (const item of data.receipts) {
    const sent = item.sent ? item.bytes : null;
    const sealed = item.sealed;
    if (sealed && sealed.game_no === record.game_no) {
      const found = rounds.find((r) => r.label === (sealed.label ?? null));
      const name = sealed.label || "deal";
      if (!found) {
        checks.push({ name: `${name}: receipt commitment`, ok: false });
        continue;
      }
      checks.push({ name: `${name}: receipt commitment`, ok: found.commitment === item.commitment });
      const seat = sealed.seat;
      if (Number.isInteger(seat)) {
        const given = found.contributions[seat] ?? null;
        if (sent === null || item.acked || given !== null) {
          checks.push({ name: `${name}: receipt bytes (seat ${seat})`, ok: given === sent });
        }
        if (item.hash_acked && Array.isArray(found.hashes)) {
          checks.push({ name: `${name}: receipt hash (seat ${seat})`, ok: (found.hashes[seat] ?? null) === item.hash });
        }
      }
      continue;
    }
    for (const r of rounds) {
      if (r.commitment === item.commitment && sent !== null && item.acked) {
        checks.push({ name: `${r.label || "deal"}: receipt bytes`, ok: r.contributions.includes(sent) });
      }
    }
  }
  return checks;
}

/**
 * The receipts of one room for this page. `send(message)` sends on the socket (a promise of the
 * answer); `fetchRecord()` downloads the current record; `onChange()` redraws the warnings.
 */
export class Receipts {
  constructor(roomId, { send, fetchRecord, onChange }) {
    this.roomId = roomId;
    this.send = send;
    this.fetchRecord = fetchRecord;
    this.onChange = onChange;
    this.onShow = null; // the commitment on show now
    this.live = new Set(); // commitments this page saw on show
    this.sealedLive = new Set(); // commitments this page saw sealed (deal, fair_round)
    this.busy = new Set(); // commitment:phase sends in flight
    this.changeTimer = null;
    window.addEventListener("storage", (event) => {
      if (event.key === storeKey(roomId)) this.onChange();
    });
  }

  get data() {
    return loadReceipts(this.roomId);
  }

  update(change) {
    const data = loadReceipts(this.roomId);
    change(data);
    data.receipts = data.receipts.slice(-KEEP);
    data.warnings = data.warnings.slice(-50);
    localStorage.setItem(storeKey(this.roomId), JSON.stringify(data));
    return data;
  }

  receipt(data, commitment) {
    return data.receipts.find((r) => r.commitment === commitment) || null;
  }

  warn(kind, details = {}) {
    const at = Date.now();
    const same = (w) => w.kind === kind && w.commitment === details.commitment && w.record === details.record;
    this.update((data) => {
      if (data.warnings.some(same)) return;
      data.warnings.push({ kind, at, ...details });
    });
    this.onChange();
  }

  /** A record that does not verify (with the receipts): a warning per record told apart. */
  recordFailed(record, checks) {
    const failed = checks.filter((c) => c.ok === false).map((c) => c.name);
    const text = JSON.stringify([record.commitment, record.contributions, record.server_seed ?? null, failed]);
    let fnv = 0x811c9dc5; // FNV-1a of the record's material: one warning per record told apart
    for (let i = 0; i < text.length; i += 1) fnv = Math.imul(fnv ^ text.charCodeAt(i), 0x01000193) >>> 0;
    this.warn("record_failed", { commitment: record.commitment, record: fnv.toString(16), failed });
  }

  /** The server's public key, pinned with the receipts the first time it is fetched. */
  async pinKey() {
    try {
      const response = await fetch("/api/fairness/key");
      if (!response.ok) return null;
      const key = (await response.json()).public_key;
      let changed = false;
      this.update((data) => {
        if (data.server_key && data.server_key !== key) changed = data.server_key;
        else data.server_key = key;
      });
      if (changed) this.warn("key_changed", { commitment: key, pinned: changed });
      this.onChange();
      return key;
    } catch (error) {
      return null;
    }
  }

  /** A room message: a receipt for the commitment on show; this page's hash, then its bytes. */
  room(message, seat) {
    const fair = message && message.fair;
    if (!fair || !fair.commitment) return;
    const commitment = fair.commitment;
    const before = this.onShow;
    this.onShow = commitment;
    if (before && before !== commitment && !this.sealedLive.has(before)) this.changed(before);
    this.live.add(commitment);
    const data = this.update((d) => {
      if (!this.receipt(d, commitment)) {
        d.receipts.push({ commitment, signature: fair.signature ?? null, shown_at: Date.now(), seat_shown: seat ?? null,
          bytes: null, hash: null, hash_acked: false, sent: false, acked: false, sealed: null });
      }
    });
    const key = data.server_key;
    if (key && fair.signature) {
      signatureValid(key, commitmentMessage(this.roomId, commitment), fair.signature).then((ok) => {
        if (ok === false) this.warn("bad_signature", { commitment });
      });
    }
    if (seat === null || seat === undefined) return;
    const mine = this.receipt(data, commitment);
    if (!mine.hash_acked && !mine.late) this.sendHash(commitment);
    else if (fair.sealed && mine.hash_acked && !mine.acked && !mine.refused) this.sendBytes(commitment);
  }

  async sendHash(commitment) {
    const flight = `${commitment}:hash`;
    if (this.busy.has(flight)) return;
    this.busy.add(flight);
    try {
      let mine = this.receipt(this.data, commitment);
      if (!mine.bytes) {
        // Made and kept before anything is sent: the receipt holds exactly the bytes that go out.
        const bytes = newContribution();
        const hash = await sha256Hex(bytes);
        this.update((d) => Object.assign(this.receipt(d, commitment), { bytes, hash }));
        mine = this.receipt(this.data, commitment);
      }
      await this.send({ type: "entropy", commitment, hash: mine.hash });
      this.update((d) => { this.receipt(d, commitment).hash_acked = true; });
      if (this.sealedNow) this.sendBytes(commitment);
    } catch (error) {
      this.refused(commitment, error, "hash");
    } finally {
      this.busy.delete(flight);
    }
  }

  async sendBytes(commitment) {
    const flight = `${commitment}:bytes`;
    if (this.busy.has(flight)) return;
    this.busy.add(flight);
    try {
      const mine = this.receipt(this.data, commitment);
      this.update((d) => { this.receipt(d, commitment).sent = true; });
      await this.send({ type: "entropy", commitment, bytes: mine.bytes });
      this.update((d) => { this.receipt(d, commitment).acked = true; });
    } catch (error) {
      this.refused(commitment, error, "bytes");
    } finally {
      this.busy.delete(flight);
    }
  }

  refused(commitment, error, phase) {
    const code = error && error.code;
    if (code === "hashes_sealed") {
      this.update((d) => { this.receipt(d, commitment).late = true; });
    } else if (code === "stale_commitment" && this.onShow === commitment) {
      // Refused as stale while the server still shows it as the next deal's.
      this.warn("stale_on_show", { commitment });
    } else if (phase === "bytes" && code) {
      this.update((d) => { this.receipt(d, commitment).refused = code; });
    }
  }

  get sealedNow() {
    const room = window.houserules && window.houserules.room;
    return Boolean(room && room.fair && room.fair.sealed);
  }

  /** The commitment on show changed: unless a deal sealed it, that is a re-roll. The deal event may
   * come just after the room message (a host's start) or have been missed (a reconnect): the record
   * is asked before warning. */
  changed(before) {
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(async () => {
      if (this.sealedLive.has(before)) return;
      let record = null;
      try {
        record = await this.fetchRecord();
      } catch (error) {
        record = null;
      }
      if (contains(record, before)) {
        this.sealedLive.add(before);
        return;
      }
      this.warn("changed_without_deal", { commitment: before });
    }, 1500);
  }

  /** A deal or fair_round event (`live`: pushed as it happened, not a catch-up after a
   * reconnect): the sealed round against this page's receipt. */
  async sealed(event, seat, live) {
    const commitment = event.commitment;
    if (!commitment) return;
    this.sealedLive.add(commitment);
    const data = this.data;
    const mine = this.receipt(data, commitment);
    if (!mine) {
      // A connected page is sent every room message, so it saw every commitment shown before a
      // deal it watches live: a round sealed under another one was never on show.
      if (live && this.live.size) this.warn("commitment_mismatch", { commitment });
      return;
    }
    const label = event.type === "fair_round" ? (event.label ?? null) : null;
    const given = seat === null || seat === undefined ? undefined : (event.contributions || [])[seat] ?? null;
    this.update((d) => {
      // `at`: when this page learned of it (its own clock), so a verification only holds a record
      // asked for after that to this round (see verifyRevealed).
      this.receipt(d, commitment).sealed = { game_no: event.game_no, label, commitment, seat: seat ?? null, at: Date.now() };
    });
    if (given !== undefined) {
      const sent = mine.sent ? mine.bytes : null;
      const wrong = sent === null ? given !== null : (given !== sent && (mine.acked || given !== null));
      if (wrong) this.warn("bytes_mismatch", { commitment, seat });
      if (mine.hash_acked && Array.isArray(event.hashes) && (event.hashes[seat] ?? null) !== mine.hash) {
        this.warn("bytes_mismatch", { commitment, seat });
      }
    }
    if (data.server_key && event.signature) {
      const text = roundMessage(this.roomId, event.game_no, label, commitment, event.contributions || [], event.hashes || []);
      if ((await signatureValid(data.server_key, text, event.signature)) === false) this.warn("bad_signature", { commitment });
    }
  }

  /** Keys and seeds came out: the record verifies and agrees with the receipts, or a warning. */
  async verifyRevealed(runChecks) {
    let record;
    const asked = Date.now();
    try {
      record = await this.fetchRecord();
    } catch (error) {
      return null;
    }
    // A round sealed before the record was asked for is in it (the page heard of the seal from the
    // server first); one this page heard of only while the record was on its way may be sealed
    // after the record was made (bots at no delay): it is checked at the next verification.
    const data = this.data;
    const settled = { ...data, receipts: data.receipts.filter((item) => !(item.sealed && item.sealed.at >= asked)) };
    const checks = [...(await runChecks(record)), ...checkReceipts(record, settled)];
    if (checks.some((c) => c.ok === false)) this.recordFailed(record, checks);
    return checks;
  }

  download() {
    const data = this.data;
    const body = { format: FORMAT, room: data.room, server_key: data.server_key, receipts: data.receipts };
    const blob = new Blob([JSON.stringify(body, null, 1)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = `houserules-receipts-${this.roomId}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
