// Provably fair dice in the browser: the derivation of docs/guide/online.md ("Provably fair dice"), with
// WebCrypto, and the check of a match record's rolls against it (as `backgammon verify-dice`
// does). No page here: verify.js shows the check.

const LIMIT = 252; // bytes from 252 up are skipped: 252 = 7 x 36

/** Whether this browser can compute HMACs here (WebCrypto needs https or localhost). */
export function canVerify() {
  return Boolean(globalThis.crypto && crypto.subtle);
}

function hex(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function bytesOf(text) {
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error("not a server seed");
  return new Uint8Array(text.match(/../g).map((pair) => parseInt(pair, 16)));
}

/** The SHA-256 of the server seed's bytes, in hex: what the server committed to. */
export async function commitmentOf(serverSeed) {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytesOf(serverSeed))));
}

/** A signing key of the server seed (hex), for rollOf. */
export function keyOf(serverSeed) {
  return crypto.subtle.importKey(
    "raw", bytesOf(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
  );
}

/** Roll `number` (from 1) of a game: the first byte below 252 of HMAC(seed, "s0:s1:n:block"). */
export async function rollOf(key, seeds, number) {
  for (let block = 0; ; block += 1) {
    const message = new TextEncoder().encode(`${seeds[0]}:${seeds[1]}:${number}:${block}`);
    const bytes = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
    for (const byte of bytes) {
      if (byte < LIMIT) {
        const k = byte % 36;
        return [Math.floor(k / 6) + 1, (k % 6) + 1];
      }
    }
  }
}

/**
 * Check a match record (GET /api/matches/{id}/record): for each game {number, rolls,
 * revealed, kept (the seed hashes to the commitment), replaced (the seats whose seed in the
 * dice is not the one their seed events gave: a match starts from no seeds, a game from the
 * seeds the one before ended with), mismatches: [{roll, recorded, derived}]}. Throws an Error whose message is "notRecord" for what is not a record with
 * fair dice.
 */
export async function checkRecord(record) {
  const games = record && record.games;
  const dice = record && record.dice;
  if (!Array.isArray(games) || !Array.isArray(dice) || games.length !== dice.length) {
    throw new Error("notRecord");
  }
  const checks = [];
  let carried = ["", ""];
  for (const [index, events] of games.entries()) {
    const fair = dice[index] || {};
    const seeds = fair.seeds;
    if (!Array.isArray(events) || !Array.isArray(seeds) || seeds.length !== 2) {
      throw new Error("notRecord");
    }
    const rolls = events.filter((event) => event && event.action === "roll").map((event) => event.dice);
    const given = [...carried];
    for (const event of events) {
      if (event && event.action === "seed" && (event.player === 0 || event.player === 1)) {
        given[event.player] = event.seed;
      }
    }
    const replaced = [0, 1].filter((seat) => given[seat] !== seeds[seat]);
    carried = [...seeds];
    const check = {
      number: index + 1, rolls: rolls.length, revealed: false, kept: false, replaced, mismatches: [],
    };
    checks.push(check);
    if (!fair.server_seed) continue;
    check.revealed = true;
    check.kept = (await commitmentOf(fair.server_seed)) === fair.commitment;
    const key = await keyOf(fair.server_seed);
    for (const [place, recorded] of rolls.entries()) {
      const derived = await rollOf(key, seeds, place + 1);
      if (!Array.isArray(recorded) || recorded[0] !== derived[0] || recorded[1] !== derived[1]) {
        check.mismatches.push({ roll: place + 1, recorded, derived });
      }
    }
  }
  return checks;
}
