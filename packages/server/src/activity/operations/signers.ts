/**
 * The key behind a signing request's `signWith`, within the target organization only: an
 * unknown value and another organization's account get the same ERR_WALLET_ACCOUNT_NOT_FOUND.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import type { Curve } from '@walletkit/crypto';
import type { SigningKey } from '../../enclave/index.js';
import { ApiError } from '../../errors.js';
import type { Tx } from '../../store/db.js';
import { privateKeys, walletAccounts, wallets } from '../../store/schema.js';
import { canonicalAddress } from './wallets.js';

/** A sealed key that can sign, with its public key (hex, as stored) to place its signature. */
export interface Signer {
  key: SigningKey;
  publicKey: string;
}

/**
 * A wallet account by address first (indexed), then a private key by id or by one of its
 * addresses; all within `organizationId`.
 * @throws ApiError ERR_WALLET_ACCOUNT_NOT_FOUND
 * @example const { key } = await resolveSigner(ctx.tx, ctx.organizationId, params.signWith);
 */
export async function resolveSigner(tx: Tx, organizationId: string, signWith: string): Promise<Signer> {
  const address = canonicalAddress(signWith);
  const [account] = await tx
    .select({
      curve: walletAccounts.curve,
      path: walletAccounts.path,
      publicKey: walletAccounts.publicKey,
      sealedMnemonic: wallets.mnemonicEncrypted,
    })
    .from(walletAccounts)
    .innerJoin(wallets, eq(wallets.id, walletAccounts.walletId))
    .where(and(eq(walletAccounts.organizationId, organizationId), eq(walletAccounts.address, address)))
    .limit(1);
  if (account) {
    return {
      key: { kind: 'walletAccount', sealedMnemonic: account.sealedMnemonic, curve: account.curve as Curve, path: account.path },
      publicKey: account.publicKey,
    };
  }
  const [key] = await tx
    .select({ curve: privateKeys.curve, publicKey: privateKeys.publicKey, sealedPrivateKey: privateKeys.privateKeyEncrypted })
    .from(privateKeys)
    .where(
      and(
        eq(privateKeys.organizationId, organizationId),
        or(eq(privateKeys.id, signWith), sql`${privateKeys.addresses} @> ${JSON.stringify([{ address }])}::jsonb`),
      ),
    )
    .limit(1);
  if (key) return { key: { kind: 'privateKey', sealedPrivateKey: key.sealedPrivateKey, curve: key.curve as Curve }, publicKey: key.publicKey };
  throw new ApiError('ERR_WALLET_ACCOUNT_NOT_FOUND', `no wallet account or private key ${signWith} in this organization`, 'signWith');
}
