/**
 * POST /v1/account: which sub-organization holds a contact or credential, so the client can
 * choose signup or login: `{organizationId}`, or `{}` when none does (spec A: "an empty
 * response"). The lookup is list_suborgs on the configuration's organization; a
 * `verificationToken` or `oidcToken` given as proof is verified there (for an EMAIL or
 * PHONE_NUMBER filter it must prove that very contact; a used token proves nothing any more).
 * With requireVerificationTokenForAccountLookup, every lookup needs such a proof, so it reveals
 * nothing to someone who proved nothing. With the wallet method disabled, PUBLIC_KEY lookups of
 * a secp256k1 key (an external wallet's) are refused (ERR_AUTH_METHOD_DISABLED), as its signup
 * would be.
 */
import { compressPublicKey } from '@walletkit/crypto';
import type { ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { ProxyContext, ProxyRoute } from '../context.js';
import { configuredOidcIdentity, findSubOrganization } from '../tokens.js';
import { requireWalletMethod } from './methods.js';

type Body = ProxyRequestOf<'account'>;

/** Whether `key` is a point of `curve`. */
function onCurve(curve: 'p256' | 'secp256k1', key: string): boolean {
  try {
    compressPublicKey(curve, key);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a PUBLIC_KEY lookup is for an external wallet's key: an uncompressed key on secp256k1
 * and not on P-256, or a key a sub-organization registered as a secp256k1 API key (a
 * compressed key names no curve by itself: its x fits either).
 */
async function isWalletKey(ctx: ProxyContext, value: string): Promise<boolean> {
  const raw = value.trim().toLowerCase();
  if (raw.length === 130 && onCurve('secp256k1', raw) && !onCurve('p256', raw)) return true;
  return (await findSubOrganization(ctx, { filterType: 'PUBLIC_KEY', filterValue: value, apiKeyCurve: 'API_KEY_CURVE_SECP256K1' })) !== undefined;
}

export const account: ProxyRoute<Body, ProxyResponseOf<'account'>> = async (body, ctx) => {
  if (ctx.settings.requireVerificationTokenForAccountLookup && body.verificationToken === undefined && body.oidcToken === undefined) {
    throw new ApiError('ERR_VERIFICATION_TOKEN_REQUIRED', undefined, 'verificationToken');
  }
  if (body.oidcToken !== undefined) configuredOidcIdentity(ctx, body.oidcToken, 'oidcToken');
  if (body.filterType === 'OIDC_TOKEN') configuredOidcIdentity(ctx, body.filterValue, 'filterValue');
  if (body.filterType === 'PUBLIC_KEY' && !ctx.settings.methods.wallet && (await isWalletKey(ctx, body.filterValue)))
    requireWalletMethod(ctx.settings, 'filterValue');
  const organizationId = await findSubOrganization(ctx, {
    filterType: body.filterType,
    filterValue: body.filterValue,
    ...(body.verificationToken !== undefined ? { verificationToken: body.verificationToken } : {}),
    ...(body.oidcToken !== undefined ? { oidcToken: body.oidcToken } : {}),
  });
  return organizationId === undefined ? {} : { organizationId };
};
