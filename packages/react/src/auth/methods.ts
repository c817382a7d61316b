import { OAUTH_PROVIDER_IDS, type OAuthProviderId } from '@walletkit/protocol/wire';
import type { WalletKitConfig } from '../client-contract.js';

/** A login method the modal can show. `sms` is the phone-number entry; the social ones are the provider table's. */
export type AuthMethod = 'email' | 'sms' | 'passkey' | OAuthProviderId | 'wallet';

/** The default order: codes first, then passkeys, social providers (in the provider table's order), external wallets. */
export const DEFAULT_METHOD_ORDER: readonly AuthMethod[] = ['email', 'sms', 'passkey', ...OAUTH_PROVIDER_IDS, 'wallet'];

/** Local overrides of the methods `wallet_kit_config` enables. */
export interface AuthMethodOverrides {
  /**
   * Show only these methods. It can hide a method the server enables, never show one it
   * disables (the proxy would refuse it with ERR_AUTH_METHOD_DISABLED).
   */
  methods?: readonly AuthMethod[] | undefined;
  /** Put these methods first, in this order; the others follow in the default order. */
  order?: readonly AuthMethod[] | undefined;
}

/**
 * The methods to render: enabled by the server, kept by `methods`, sorted by `order`.
 * @example resolveAuthMethods({ enabledProviders: ['passkey', 'email'] }, { order: ['passkey'] }) // ['passkey', 'email']
 */
export function resolveAuthMethods(config: Pick<WalletKitConfig, 'enabledProviders'>, overrides: AuthMethodOverrides = {}): AuthMethod[] {
  const enabled = new Set<string>(config.enabledProviders);
  const kept = overrides.methods ? new Set<string>(overrides.methods) : undefined;
  const order = [...(overrides.order ?? []), ...DEFAULT_METHOD_ORDER];
  return [...new Set(order)].filter((m) => enabled.has(m) && (!kept || kept.has(m)));
}
