/**
 * Stamps this enclave made (`Enclave.stampWith`: the auth proxy's requests to the activity API),
 * each remembered until its check, and passes it gave for calls that stay in this process
 * (`Enclave.stampInProcess`), each good until its call returned.
 *
 * A stamp: when the proxy and the activity API are one process (the default, `inject()`), the
 * activity API checks every proxy request's stamp. A stamp this enclave made is a valid signature
 * by construction (stampApiKey derives the stamp's public key from the private key it signs
 * with), so its check is answered from here, without a signer thread's job: the same answer,
 * about 100 µs of CPU and two thread hand-offs less (issue 14). An entry answers only for the very
 * stamp it was made as (public key, scheme and signature as written) over the very bytes it
 * signed; anything else, a changed body or a stamp written another way, is checked as any other.
 * Each answers once (a request run again checks its stamp again) and at most LIMIT wait, the
 * oldest dropped first (stamps posted to another server over HTTP are never checked here).
 *
 * A pass (decision 0027), given only for a sealed key a stamp here proved to be its public key's
 * (`proven`, then `passFor`): where a stamp is a signature, a pass is a random value in the stamp's
 * signature field, which only this table makes good: for its public key and scheme, over its very
 * body, from when it was given until it is released (the caller releases it when its in-process
 * call returned, whichever way). Anything that checks it as a signature refuses it, so a pass that
 * somehow left the process, or outlived its call, or meets another body, is worth nothing. Passes
 * are not dropped for room (a dropped one would refuse an honest call): they are as many as the
 * calls in flight.
 *
 * Nothing secret is kept: a stamp and its body travel in the clear, and a pass is the key to
 * nothing once its call is over.
 */
import { randomBytes } from 'node:crypto';
import type { ParsedStamp, StampScheme } from '@walletkit/crypto';
import type { Sealed } from './types.js';

const LIMIT = 256;
/** Sealed keys whose owner is remembered for passes (one a proxy configuration in use). */
const OWNERS = 1024;

interface Entry {
  publicKey: string;
  scheme: string;
  body: Buffer;
}

export class OwnStamps {
  /** By signature (as written): the stamp's key, scheme and the body it signed. */
  private readonly made = new Map<string, Entry>();
  /** By their random value: the passes given and not yet released. */
  private readonly passes = new Map<string, Entry>();
  /**
   * By sealed value: the public key a stamp showed it to be, and the key and scheme its stamps
   * name. Public data only; the oldest out first.
   */
  private readonly owners = new Map<string, { publicKey: string; stamped: Pick<ParsedStamp, 'publicKey' | 'scheme'> }>();

  /** `stamp` was just made over `body`. */
  remember(stamp: ParsedStamp, body: string): void {
    if (this.made.size >= LIMIT) this.made.delete(this.made.keys().next().value as string);
    this.made.set(stamp.signature, { publicKey: stamp.publicKey, scheme: stamp.scheme, body: Buffer.from(body, 'utf8') });
  }

  /** `stamp`, just made by `sealed` for `publicKey`, proved that sealed value to be `publicKey`'s. */
  proven(sealed: Sealed, publicKey: string, stamp: ParsedStamp): void {
    if (this.owners.size >= OWNERS) this.owners.delete(this.owners.keys().next().value as string);
    this.owners.set(sealedId(sealed), { publicKey, stamped: { publicKey: stamp.publicKey, scheme: stamp.scheme } });
  }

  /** A pass for `body` when `sealed` was proven to be `publicKey`'s; undefined when not (then stamp it). */
  passFor(sealed: Sealed, publicKey: string, body: string): { stamp: ParsedStamp; release(): void } | undefined {
    const owner = this.owners.get(sealedId(sealed));
    return owner === undefined || owner.publicKey !== publicKey ? undefined : this.pass(owner.stamped.publicKey, owner.stamped.scheme, body);
  }

  /** A pass for `body` under `publicKey` and `scheme` (as a stamp of that key would name them), good until `release`. */
  private pass(publicKey: string, scheme: StampScheme, body: string): { stamp: ParsedStamp; release(): void } {
    const signature = passValue();
    this.passes.set(signature, { publicKey, scheme, body: Buffer.from(body, 'utf8') });
    return { stamp: { publicKey, scheme, signature }, release: () => this.passes.delete(signature) };
  }

  /** How many passes are given and not released (tests). */
  get passesHeld(): number {
    return this.passes.size;
  }

  /**
   * Whether `stamp` over `body` is one this enclave made (it then answers no second time) or a
   * pass it gave that is still held (as often as it is checked, until released).
   */
  take(stamp: ParsedStamp, body: Uint8Array): boolean {
    const pass = this.passes.get(stamp.signature);
    if (pass !== undefined) return matches(pass, stamp, body);
    const made = this.made.get(stamp.signature);
    if (made === undefined || !matches(made, stamp, body)) return false;
    this.made.delete(stamp.signature);
    return true;
  }
}

/** Random bytes drawn for passes, PASS_BYTES at a time: one draw from the system for 128 passes. */
let entropy = Buffer.alloc(0);
let taken = 0;
const PASS_BYTES = 32;

/**
 * A pass's value: 32 random bytes, hex. A `randomBytes(32)` per pass took about 16 µs of the event
 * loop under load in the profile of OTP logins (1.7 µs in a tight loop on an idle machine), as much
 * as the rest of a pass; drawn 4 KiB at a time they cost a slice of a buffer (decision 0029).
 */
function passValue(): string {
  if (taken + PASS_BYTES > entropy.length) {
    entropy = randomBytes(PASS_BYTES * 128);
    taken = 0;
  }
  const value = entropy.toString('hex', taken, taken + PASS_BYTES);
  // Each value is given once: its bytes are wiped as they are handed out.
  entropy.fill(0, taken, taken + PASS_BYTES);
  taken += PASS_BYTES;
  return value;
}

/** A sealed value as the exact strings it is stored as. */
function sealedId(sealed: Sealed): string {
  return 'nonce' in sealed ? `aead|${sealed.nonce}|${sealed.ciphertext}` : `hpke|${sealed.encappedPublic}|${sealed.ciphertext}`;
}

function matches(entry: Entry, stamp: ParsedStamp, body: Uint8Array): boolean {
  return entry.publicKey === stamp.publicKey && entry.scheme === stamp.scheme && entry.body.equals(body);
}
