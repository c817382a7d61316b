import { checksumAddress, type TypedData } from '@walletkit/crypto';
import type { Translator } from '../i18n/catalog.js';
import { deadlineText } from './time.js';
import { english, integerText } from './words.js';
import { isUnlimitedAmount } from './unlimited.js';

/** When a permit's allowance ends: a Unix time in seconds, never, or within the block that uses it. */
export type PermitExpiry = bigint | 'never' | 'block';

/** One token a permit lets the spender move. */
export interface PermitAllowance {
  /** The token contract (EIP-55). */
  token: string;
  /** The token's name, when the permit's domain carries it (EIP-2612: the token is the domain). */
  tokenName?: string;
  /** In the token's smallest unit (its decimals are not part of the signature). */
  amount: bigint;
  unlimited: boolean;
  until: PermitExpiry;
}

/** A recognised off-chain approval: signing it lets `spender` move the signer's tokens, no transaction needed. */
export interface Permit {
  standard: 'EIP-2612' | 'DAI' | 'Permit2';
  spender: string;
  allowances: PermitAllowance[];
}

/** A JSON object of the typed data whose members named `K` are read (each of any type until decoded). */
type Struct<K extends string> = Record<string, unknown> & { [P in K]?: unknown };

/** The EIP-712 domain members a permit is recognised by. */
type Domain = Struct<'name' | 'verifyingContract'>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** True when `o` has every one of `keys` as an own member (whatever its value). */
const has = <K extends string>(o: Record<string, unknown>, ...keys: K[]): o is Record<string, unknown> & Record<K, unknown> =>
  keys.every((k) => Object.hasOwn(o, k));

/** A uint the app may spell as number, decimal or hex string, or bigint. */
function uint(v: unknown): bigint | undefined {
  try {
    const n = BigInt(v as string | number | bigint);
    return n >= 0n ? n : undefined;
  } catch {
    return undefined;
  }
}

function address(v: unknown): string | undefined {
  return typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v) ? checksumAddress(v) : undefined;
}

function allowance(token: unknown, amount: unknown, bits: number, until: PermitExpiry | undefined, tokenName?: unknown): PermitAllowance | undefined {
  const t = address(token);
  const a = uint(amount);
  if (t === undefined || a === undefined || until === undefined) return undefined;
  return { token: t, ...(typeof tokenName === 'string' ? { tokenName } : {}), amount: a, unlimited: isUnlimitedAmount(a, bits), until };
}

/** Every entry must decode, or the permit is not recognised (and the plain structured view shows it). */
function all(list: Array<PermitAllowance | undefined>): PermitAllowance[] | undefined {
  return list.length > 0 && list.every((x) => x !== undefined) ? (list as PermitAllowance[]) : undefined;
}

/** EIP-2612 `Permit(owner, spender, value, nonce, deadline)`: the domain's contract is the token. */
function eip2612(domain: Domain, m: Record<string, unknown>): Permit | undefined {
  if (!has(m, 'owner', 'spender', 'value', 'nonce', 'deadline')) return undefined;
  const deadline = uint(m.deadline);
  const a = allowance(domain.verifyingContract, m.value, 256, deadline, domain.name);
  const spender = address(m.spender);
  return a && spender ? { standard: 'EIP-2612', spender, allowances: [a] } : undefined;
}

/** DAI's older `Permit(holder, spender, nonce, expiry, allowed)`: all or nothing, expiry 0 = never. */
function dai(domain: Domain, m: Record<string, unknown>): Permit | undefined {
  if (!has(m, 'holder', 'spender', 'nonce', 'expiry', 'allowed')) return undefined;
  const expiry = uint(m.expiry);
  const allowed = m.allowed === true || m.allowed === 'true';
  const a = allowance(domain.verifyingContract, allowed ? 2n ** 256n - 1n : 0n, 256, expiry === 0n ? 'never' : expiry, domain.name);
  const spender = address(m.spender);
  return a && spender ? { standard: 'DAI', spender, allowances: [a] } : undefined;
}

/** Permit2 AllowanceTransfer `PermitDetails(token, amount uint160, expiration uint48, nonce)`; expiration 0 = this block only. */
function permit2Details(d: unknown): PermitAllowance | undefined {
  if (!isRecord(d)) return undefined;
  const { token, amount, expiration } = d;
  const until = uint(expiration);
  return allowance(token, amount, 160, until === 0n ? 'block' : until);
}

/** Permit2 (domain name "Permit2"), by shape: `details` (PermitSingle, PermitBatch) or `permitted` (PermitTransferFrom, batch, witness variants). */
function permit2(m: Struct<'spender' | 'details' | 'permitted' | 'deadline'>): Permit | undefined {
  const spender = address(m.spender);
  if (!spender) return undefined;
  let allowances: PermitAllowance[] | undefined;
  if (has(m, 'details')) {
    allowances = all(Array.isArray(m.details) ? m.details.map(permit2Details) : [permit2Details(m.details)]);
  } else if (has(m, 'permitted', 'deadline')) {
    const deadline = uint(m.deadline);
    const one = (p: unknown) => (isRecord(p) ? allowance(p['token'], p['amount'], 256, deadline) : undefined);
    allowances = all(Array.isArray(m.permitted) ? m.permitted.map(one) : [one(m.permitted)]);
  }
  return allowances ? { standard: 'Permit2', spender, allowances } : undefined;
}

/**
 * Recognise a token permit in typed data: EIP-2612 `Permit` (and DAI's variant) and Uniswap
 * Permit2 (`PermitSingle`, `PermitBatch`, `PermitTransferFrom` and their batch and witness
 * forms). Undefined for anything else, or when a field does not decode exactly.
 * @example recognizePermit(usdcPermit) // { standard: 'EIP-2612', spender: '0x..', allowances: [{ token, tokenName: 'USD Coin', amount, unlimited, until }] }
 */
export function recognizePermit(typedData: TypedData): Permit | undefined {
  const domain: Domain = isRecord(typedData.domain) ? typedData.domain : {};
  const message = isRecord(typedData.message) ? typedData.message : undefined;
  if (!message) return undefined;
  if (domain.name === 'Permit2') return permit2(message);
  if (typedData.primaryType !== 'Permit') return undefined;
  return eip2612(domain, message) ?? dai(domain, message);
}

/**
 * When an allowance ends, in words of the translator's language (dates in UTC, so the same
 * request reads the same for everyone).
 * @example expiryText('block') // 'the block it is used in'
 * @example expiryText(1_893_456_000n) // 'Jan 1, 2030, 12:00 AM UTC'
 */
export function expiryText(until: PermitExpiry, translator: Translator = english): string {
  if (until === 'block') return translator.t('confirm.permitBlock');
  return until === 'never' ? translator.t('confirm.noExpiry') : (deadlineText(until, translator) ?? translator.t('confirm.noExpiry'));
}

/**
 * The one sentence a person needs: who may spend how much of what, until when.
 * @example permitSentence(permit.spender, permit.allowances[0]) // 'Permit: 0x5pen… may spend an unlimited amount of USD Coin (0xA0b8…) with no expiry'
 */
export function permitSentence(spender: string, a: PermitAllowance, translator: Translator = english): string {
  const { t } = translator;
  const amount = a.unlimited ? t('confirm.permitUnlimited') : t('confirm.permitAmount', { amount: integerText(a.amount, translator) });
  const token = a.tokenName ? t('confirm.permitToken', { name: a.tokenName, address: a.token }) : a.token;
  if (a.until === 'block') return t('confirm.permitSentenceBlock', { spender, amount, token });
  const date = a.until === 'never' ? undefined : deadlineText(a.until, translator);
  return date === undefined ? t('confirm.permitSentenceNever', { spender, amount, token }) : t('confirm.permitSentenceUntil', { spender, amount, token, date });
}
