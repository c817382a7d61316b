/**
 * The key behind a signing request's `signWith`, within the target organization only: an
 * unknown value and another organization's account get the same ERR_WALLET_ACCOUNT_NOT_FOUND.
 */
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Curve } from '@walletkit/crypto';
import { isAeadSealed } from '../../enclave/at-rest.js';
import type { Enclave, RawSignature, SigningKey } from '../../enclave/index.js';
import { ApiError } from '../../errors.js';
import type { Executor } from '../../store/db.js';
import type { Caller } from '../context.js';
import { privateKeys, walletAccounts, wallets } from '../../store/schema.js';
import { canonicalAddress } from './wallets.js';

/** A sealed key that can sign, with its public key (hex, as stored) to place its signature. */
export interface Signer {
  key: SigningKey;
  publicKey: string;
  /** A wallet account stored before its private key was sealed on its own (migration 0007): its id, to store it at this signature. */
  unsealedAccountId?: string;
  /** A key sealed with HPKE before AES-256-GCM (enclave/at-rest.ts): its row, to store it sealed again at this signature. */
  hpkeSealed?: { table: 'walletAccounts' | 'privateKeys'; id: string };
}

/**
 * A wallet account by address first (indexed), then a private key by id or by one of its
 * addresses; all within `organizationId`.
 * @throws ApiError ERR_WALLET_ACCOUNT_NOT_FOUND
 * @example const { key } = await resolveSigner(ctx.tx, ctx.organizationId, params.signWith);
 */
export async function resolveSigner(tx: Executor, organizationId: string, signWith: string): Promise<Signer> {
  const address = canonicalAddress(signWith);
  const [account] = await tx
    .select({
      id: walletAccounts.id,
      curve: walletAccounts.curve,
      path: walletAccounts.path,
      publicKey: walletAccounts.publicKey,
      sealedPrivateKey: walletAccounts.privateKeyEncrypted,
      sealedMnemonic: wallets.mnemonicEncrypted,
    })
    .from(walletAccounts)
    .innerJoin(wallets, eq(wallets.id, walletAccounts.walletId))
    .where(and(eq(walletAccounts.organizationId, organizationId), eq(walletAccounts.address, address)))
    .limit(1);
  if (account?.sealedPrivateKey) {
    return {
      key: { kind: 'privateKey', sealedPrivateKey: account.sealedPrivateKey, curve: account.curve as Curve },
      publicKey: account.publicKey,
      ...(isAeadSealed(account.sealedPrivateKey) ? {} : { hpkeSealed: { table: 'walletAccounts', id: account.id } }),
    };
  }
  if (account) {
    return {
      key: { kind: 'walletAccount', sealedMnemonic: account.sealedMnemonic, curve: account.curve as Curve, path: account.path },
      publicKey: account.publicKey,
      unsealedAccountId: account.id,
    };
  }
  const [key] = await tx
    .select({ id: privateKeys.id, curve: privateKeys.curve, publicKey: privateKeys.publicKey, sealedPrivateKey: privateKeys.privateKeyEncrypted })
    .from(privateKeys)
    .where(
      and(
        eq(privateKeys.organizationId, organizationId),
        or(eq(privateKeys.id, signWith), sql`${privateKeys.addresses} @> ${JSON.stringify([{ address }])}::jsonb`),
      ),
    )
    .limit(1);
  if (key) {
    return {
      key: { kind: 'privateKey', sealedPrivateKey: key.sealedPrivateKey, curve: key.curve as Curve },
      publicKey: key.publicKey,
      ...(isAeadSealed(key.sealedPrivateKey) ? {} : { hpkeSealed: { table: 'privateKeys', id: key.id } }),
    };
  }
  throw new ApiError('ERR_WALLET_ACCOUNT_NOT_FOUND', `no wallet account or private key ${signWith} in this organization`, 'signWith');
}

/**
 * Sign `messages` with the signer's key (one unseal). An account stored before migration 0007
 * derives its key from the mnemonic this once and stores it sealed, so its next signature opens
 * one key like every other (the account never stops signing while it migrates). `keccak`: the
 * messages are `payloadToSign`'s, hashed with keccak-256 where they are signed.
 * @example const [signature] = await signWithSigner(ctx, signer, [digest]);
 */
export async function signWithSigner(
  ctx: { db: Executor; enclave: Enclave; caller: Pick<Caller, 'stamp'> },
  signer: Signer,
  messages: readonly Uint8Array[],
  keccak = false,
): Promise<RawSignature[]> {
  // The request's stamp, when still unchecked, is checked by the signature's own job.
  const signatures = await ctx.enclave.signMessages(signer.key, messages, ctx.caller.stamp, keccak);
  if (signer.unsealedAccountId !== undefined && signer.key.kind === 'walletAccount') {
    const sealed = await ctx.enclave.sealAccountKey(signer.key.sealedMnemonic, signer.key);
    await ctx.db
      .update(walletAccounts)
      .set({ privateKeyEncrypted: sealed })
      .where(and(eq(walletAccounts.id, signer.unsealedAccountId), isNull(walletAccounts.privateKeyEncrypted)));
  }
  if (signer.hpkeSealed !== undefined && signer.key.kind === 'privateKey') {
    // Sealed again with AES-256-GCM, so that its next signature opens it for a few microseconds;
    // only over the value it was read with (a racing signature's copy is as good).
    const old = signer.key.sealedPrivateKey;
    const sealed = await ctx.enclave.sealAgain(old);
    const { id, table } = signer.hpkeSealed;
    const column = table === 'walletAccounts' ? walletAccounts : privateKeys;
    await ctx.db
      .update(column)
      .set({ privateKeyEncrypted: sealed })
      .where(and(eq(column.id, id), sql`${column.privateKeyEncrypted} = ${JSON.stringify(old)}::jsonb`));
  }
  return signatures;
}
