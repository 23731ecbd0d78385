// Checks a game record in the browser with Web Crypto, as `python -m app.verify` does
// (docs/fairness.md): the commitment from the revealed server seed and nonce, the shuffle seed
// from the contributions in seat order (the game's, and each later hand's or deal's own round),
// each shuffle's key and key commitment, and each deck as
// the Fisher–Yates shuffle of its cards by the key's SHA-256 counter stream. Written on its own,
// so the browser does not take the server's word for anything. No DOM here: the page and the
// tests (node) share it.

const DOMAIN = new TextEncoder().encode("houserules-fair-v1");

function hexBytes(hex, size) {
  if (typeof hex !== "string" || hex.length !== 2 * size || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error(`expected ${2 * size} hexadecimal digits`);
  }
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** SHA-256(server_seed || nonce), hex. */
export async function commitment(serverSeed, nonce) {
  return toHex(await sha256(concat([hexBytes(serverSeed, 32), hexBytes(nonce, 16)])));
}

/** The game's shuffle seed from the server seed and the contributions by seat (null: none). */
export async function shuffleSeed(serverSeed, contributions) {
  const parts = [DOMAIN, hexBytes(serverSeed, 32)];
  for (const given of contributions) {
    if (given === null || given === undefined) parts.push(Uint8Array.of(0));
    else parts.push(Uint8Array.of(1), hexBytes(given, 32));
  }
  return toHex(await sha256(concat(parts)));
}

/** The key of the shuffle `label`: SHA-256 of the UTF-8 text seed + "\0" + label, hex. */
export async function shuffleKey(seed, label) {
  return toHex(await sha256(new TextEncoder().encode(`${seed}\u0000${label}`)));
}

export async function keyCommitment(key) {
  return toHex(await sha256(hexBytes(key, 32)));
}

/** Fisher–Yates of `cards` by the stream SHA-256(key || counter), the counter 8 bytes big-endian;
 * a draw below n takes ceil(bits(n-1)/8) bytes big-endian, masked to bits(n-1) bits, redrawn
 * until below n; for i from the last index down to 1, swap i with a draw below i + 1. */
export async function shuffleWithKey(key, cards) {
  const raw = hexBytes(key, 32);
  let stream = new Uint8Array(0);
  let counter = 0;
  async function take(count) {
    while (stream.length < count) {
      const block = new Uint8Array(8);
      new DataView(block.buffer).setBigUint64(0, BigInt(counter));
      counter += 1;
      stream = concat([stream, await sha256(concat([raw, block]))]);
    }
    const out = stream.slice(0, count);
    stream = stream.slice(count);
    return out;
  }
  async function below(n) {
    const bits = (n - 1).toString(2).length;
    const size = Math.ceil(bits / 8);
    const mask = 2 ** bits - 1;
    for (;;) {
      const bytes = await take(size);
      let value = 0;
      for (const b of bytes) value = value * 256 + b;
      value %= mask + 1; // the low `bits` bits (the mask), exact for decks far below 2^53
      if (value < n) return value;
    }
  }
  const out = Array.from(cards);
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = await below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The canonical text the server signs for a commitment it shows (app/signing.py). */
export function commitmentMessage(room, commitment) {
  return JSON.stringify({ commitment, room, type: "houserules-commitment/1" });
}

/** The canonical text the server signs for a sealed round (app/signing.py): keys sorted. */
export function roundMessage(room, gameNo, label, commitment, contributions, hashes) {
  const value = { commitment, contributions: Array.from(contributions || []), game_no: gameNo };
  if (hashes && hashes.length) value.hashes = Array.from(hashes);
  value.label = label;
  value.room = room;
  value.type = "houserules-round/1";
  return JSON.stringify(value);
}

/** Whether Web Crypto here checks Ed25519 signatures. */
export async function ed25519Available() {
  try {
    await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "Ed25519" }, false, ["verify"]);
    return true;
  } catch (error) {
    return !(error && error.name === "NotSupportedError");
  }
}

/** Whether `signature` (hex) is the Ed25519 signature of the key `publicKey` (hex) on `text`
 * (true / false), or null where this browser has no Ed25519. */
export async function signatureValid(publicKey, text, signature) {
  if (!(await ed25519Available())) return null;
  try {
    const key = await crypto.subtle.importKey("raw", hexBytes(publicKey, 32), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, hexBytes(signature, 64), new TextEncoder().encode(text));
  } catch (error) {
    return false;
  }
}

/** Every contribution is the bytes whose SHA-256 its seat sent before the hashes were sealed. */
async function hashesCheck(name, material) {
  const hashes = material.hashes;
  const given = material.contributions || [];
  if (!Array.isArray(hashes) || hashes.length !== given.length) return { name, ok: false, detail: "one hash per seat" };
  for (let seat = 0; seat < given.length; seat += 1) {
    if (given[seat] === null || given[seat] === undefined) continue;
    let made = "";
    try {
      made = toHex(await sha256(hexBytes(given[seat], 32)));
    } catch (error) {
      made = "";
    }
    if (made !== hashes[seat]) return { name, ok: false, detail: `seat ${seat}'s bytes are not those of its hash` };
  }
  return { name, ok: true };
}

async function signedCheck(name, record, label, material) {
  if (material.signature === null || material.signature === undefined) {
    return { name, ok: null, detail: "this round was sealed unsigned" };
  }
  const text = roundMessage(String(record.room), Number(record.game_no || 0), label, String(material.commitment),
    material.contributions || [], material.hashes || []);
  return { name, ok: await signatureValid(record.server_key, text, material.signature) };
}

/** A later shuffle's own round (a Hold'em hand, a Thousand deal): its commitment and seed are
 * checked as the game's; returns the seed keying the shuffle, or null before the round's reveal. */
async function roundSeed(checks, label, round) {
  if (round.server_seed == null || round.nonce == null) {
    checks.push({ name: `${label}: round`, ok: null, detail: "not revealed yet" });
    return null;
  }
  let seed;
  try {
    const made = await commitment(round.server_seed, round.nonce);
    checks.push({ name: `${label}: round commitment`, ok: made === round.commitment, detail: made });
    seed = await shuffleSeed(round.server_seed, round.contributions || []);
  } catch (error) {
    checks.push({ name: `${label}: round commitment`, ok: false, detail: String(error.message || error) });
    return null;
  }
  checks.push({ name: `${label}: round seed`, ok: !("seed" in round) || seed === round.seed, detail: seed });
  return seed;
}

/**
 * Every check of the record, in the order and with the names `app.verify` uses:
 * [{name, ok (true, false, or null when not yet revealed), detail}]. The page adds its own check of
 * the cards it was dealt; `app.verify` checks them with the game's rules.
 */
export async function verifyRecord(record) {
  if (!record || record.format !== "houserules-game-record/1") throw new Error("not a game record");
  const checks = [];
  let seed = null;
  if (record.server_seed == null || record.nonce == null) {
    checks.push({ name: "commitment", ok: null, detail: "not revealed yet" });
  } else {
    try {
      const made = await commitment(record.server_seed, record.nonce);
      checks.push({ name: "commitment", ok: made === record.commitment, detail: made });
      seed = await shuffleSeed(record.server_seed, record.contributions || []);
      checks.push({ name: "seed", ok: !("seed" in record) || seed === record.seed, detail: seed });
    } catch (error) {
      checks.push({ name: "commitment", ok: false, detail: String(error.message || error) });
      seed = null;
    }
  }
  if (record.hashes !== null && record.hashes !== undefined) checks.push(await hashesCheck("hashes", record));
  const signed = record.server_key !== null && record.server_key !== undefined;
  if (signed) checks.push(await signedCheck("signature", record, null, record));
  const sealedAs = new Map(); // a round's commitment -> the label it was sealed for
  for (const shuffle of record.shuffles || []) {
    const label = String(shuffle.label);
    let key = shuffle.key ?? null;
    let keyedBy = seed;
    if (shuffle.round && typeof shuffle.round === "object") {
      if (shuffle.round.hashes !== null && shuffle.round.hashes !== undefined) {
        checks.push(await hashesCheck(`${label}: round hashes`, shuffle.round));
      }
      // A round keys every shuffle up to the next one (a Thousand redeal in the same move as its
      // deal shares the deal's round): it was sealed, and signed, for the first of them.
      const roundKey = String(shuffle.round.commitment);
      if (!sealedAs.has(roundKey)) sealedAs.set(roundKey, label);
      if (signed) checks.push(await signedCheck(`${label}: round signature`, record, sealedAs.get(roundKey), shuffle.round));
      keyedBy = await roundSeed(checks, label, shuffle.round);
    }
    if (keyedBy !== null) {
      const expected = await shuffleKey(keyedBy, label);
      checks.push({ name: `${label}: key`, ok: key === null || key === expected, detail: expected });
      key = expected;
    }
    if (key === null) {
      checks.push({ name: `${label}: deck`, ok: null, detail: "not revealed yet" });
      continue;
    }
    let deck;
    try {
      checks.push({ name: `${label}: key commitment`, ok: (await keyCommitment(key)) === shuffle.commitment });
      deck = await shuffleWithKey(key, shuffle.cards || []);
    } catch (error) {
      checks.push({ name: `${label}: key commitment`, ok: false, detail: String(error.message || error) });
      continue;
    }
    checks.push({ name: `${label}: deck`, ok: !("deck" in shuffle) || same(deck, shuffle.deck), detail: deck.join(" "), deck });
  }
  return checks;
}

/** A contribution to the next deal: 32 bytes from the browser's CSPRNG, hex. */
export function newContribution() {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}
