/**
 * Stamps this enclave made (`Enclave.stampWith`: the auth proxy's requests to the activity API),
 * each remembered until its check. When the proxy and the activity API are one process (the
 * default, `inject()`), the activity API checks every proxy request's stamp: four a login. A stamp
 * this enclave made is a valid signature by construction (stampApiKey derives the stamp's public
 * key from the private key it signs with), so its check is answered from here, without a signer
 * thread's job: the same answer, about 100 µs of CPU and two thread hand-offs less (issue 14).
 *
 * An entry answers only for the very stamp it was made as (public key, scheme and signature as
 * written) over the very bytes it signed; anything else, a changed body or a stamp written another
 * way, is checked as any other. Each answers once (a request run again checks its stamp again) and
 * at most LIMIT wait, the oldest dropped first (stamps posted to another server over HTTP are
 * never checked here). Nothing secret is kept: a stamp and its body travel in the clear.
 */
import type { ParsedStamp } from '@walletkit/crypto';

const LIMIT = 256;

export class OwnStamps {
  /** By signature (as written): the stamp's key, scheme and the body it signed. */
  private readonly made = new Map<string, { publicKey: string; scheme: string; body: Buffer }>();

  /** `stamp` was just made over `body`. */
  remember(stamp: ParsedStamp, body: string): void {
    if (this.made.size >= LIMIT) this.made.delete(this.made.keys().next().value as string);
    this.made.set(stamp.signature, { publicKey: stamp.publicKey, scheme: stamp.scheme, body: Buffer.from(body, 'utf8') });
  }

  /** Whether `stamp` over `body` is one this enclave made; it then answers no second time. */
  take(stamp: ParsedStamp, body: Uint8Array): boolean {
    const made = this.made.get(stamp.signature);
    if (made === undefined || made.publicKey !== stamp.publicKey || made.scheme !== stamp.scheme || !made.body.equals(body)) return false;
    this.made.delete(stamp.signature);
    return true;
  }
}
