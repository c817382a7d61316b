/**
 * Tokens of the enclave's own (ES256 JWTs by its signing key) checked on a signer thread, each
 * remembered once it verified (decision 0029): its claims, frozen, by its exact text, at most LIMIT,
 * the oldest out first. A token's next check here is its times alone (`checkJwtTimes`), so the
 * proxy's account lookup checks an OTP login's verification token and otp_login, which checks it
 * next, does not verify its signature again. A token that fails is never remembered. Only public
 * data is kept: the claims any holder of the token can read.
 *
 * A token the enclave has just signed itself is remembered as it leaves its job (`signed`): a
 * right OTP attempt's verification token (decision 0035). Its signature is the enclave's by
 * construction, so checking it on a thread proves nothing new; its times are checked at each use
 * as for any other.
 */
import { checkJwtTimes, CryptoError, decodeJwt } from '@walletkit/crypto';
import type { JwtChecked, JwtCheckJob } from './signer-core.js';

const LIMIT = 1024;

export class VerifiedTokens {
  private readonly verified = new Map<string, Readonly<Record<string, unknown>>>();

  /** @param check a token's check on a signer thread (signer-pool.ts `verifyJwt`) */
  constructor(private readonly check: (job: JwtCheckJob) => Promise<JwtChecked>) {}

  /**
   * The claims of a token of the enclave's at `now`: its signature checked on a thread the first
   * time, its times at every check.
   * @throws CryptoError ERR_JWT_INVALID | ERR_JWT_EXPIRED, as verifyJwt
   */
  async verify<T>(token: string, now: () => number): Promise<T> {
    const known = this.verified.get(token);
    if (known !== undefined) {
      checkJwtTimes(known, now());
      return known as T;
    }
    const checked = await this.check({ token, nowMs: now() });
    if ('refused' in checked) {
      throw new CryptoError(checked.refused, checked.refused === 'ERR_JWT_EXPIRED' ? 'JWT has expired' : 'JWT does not verify');
    }
    return this.remember(token, checked.claims) as T;
  }

  /**
   * Remember a token the enclave's own job has just signed, its claims read off its text (what a
   * check would answer). Never a token from outside: only the signer's own output comes here.
   */
  signed(token: string): void {
    this.remember(token, decodeJwt<Record<string, unknown>>(token));
  }

  private remember(token: string, claims: Record<string, unknown>): Readonly<Record<string, unknown>> {
    const frozen = Object.freeze(claims);
    if (this.verified.size >= LIMIT) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, frozen);
    return frozen;
  }
}
