/**
 * sign_raw_payloads (spec B): resolve `signWith` within the organization, check and hash
 * every payload, then one enclave call: one unseal and at most one derivation per request.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import { isCryptoError, payloadDigest, type Curve } from '@walletkit/crypto';
import type { SigningKey } from '../../enclave';
import { ApiError } from '../../errors';
import type { Tx } from '../../store/db';
import { privateKeys, walletAccounts, wallets } from '../../store/schema';
import type { HandlerTable } from '../context';
import { canonicalAddress } from './wallets';

/**
 * The key behind `signWith`: a wallet account address first (indexed), then a private key
 * by id or by one of its addresses; all within `organizationId`.
 */
async function resolveSigningKey(tx: Tx, organizationId: string, signWith: string): Promise<SigningKey> {
  const address = canonicalAddress(signWith);
  const [account] = await tx
    .select({ curve: walletAccounts.curve, path: walletAccounts.path, sealedMnemonic: wallets.mnemonicEncrypted })
    .from(walletAccounts)
    .innerJoin(wallets, eq(wallets.id, walletAccounts.walletId))
    .where(and(eq(walletAccounts.organizationId, organizationId), eq(walletAccounts.address, address)))
    .limit(1);
  if (account) return { kind: 'walletAccount', sealedMnemonic: account.sealedMnemonic, curve: account.curve as Curve, path: account.path };
  const [key] = await tx
    .select({ curve: privateKeys.curve, sealedPrivateKey: privateKeys.privateKeyEncrypted })
    .from(privateKeys)
    .where(
      and(
        eq(privateKeys.organizationId, organizationId),
        or(eq(privateKeys.id, signWith), sql`${privateKeys.addresses} @> ${JSON.stringify([{ address }])}::jsonb`),
      ),
    )
    .limit(1);
  if (key) return { kind: 'privateKey', sealedPrivateKey: key.sealedPrivateKey, curve: key.curve as Curve };
  throw new ApiError('ERR_WALLET_ACCOUNT_NOT_FOUND', `no wallet account or private key ${signWith} in this organization`, 'signWith');
}

export const signingHandlers = {
  /**
   * secp256k1: ECDSA over the 32-byte digest (low-S, `v` = recovery id 00/01); ed25519: over
   * the message itself (`v` = 00). Invalid encoding/hash combinations are ERR_INVALID_PAYLOAD.
   */
  sign_raw_payloads: async (params, ctx) => {
    const key = await resolveSigningKey(ctx.tx, ctx.organizationId, params.signWith);
    // Hash every payload before the enclave opens anything: a bad payload costs no unseal.
    const messages = params.payloads.map((payload, i) => {
      try {
        return payloadDigest({ payload, encoding: params.encoding, hashFunction: params.hashFunction, curve: key.curve });
      } catch (cause) {
        // payloadDigest is pure over the request: whatever it rejects is a bad payload.
        const message = isCryptoError(cause) ? cause.message : 'the payload cannot be decoded or hashed as requested';
        throw new ApiError('ERR_INVALID_PAYLOAD', message, `payloads.${i}`, { cause });
      }
    });
    return { signatures: await ctx.enclave.signMessages(key, messages) };
  },
} satisfies HandlerTable;
