import type { ProxyEndpointName, ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { PROXY_CONFIG_ID_HEADER, proxyPath } from '@walletkit/protocol/wire';
import { WalletKitError, isWalletKitError } from './errors.js';
import { postJson, type FetchLike } from './transport.js';

/**
 * The authentication proxy (`/v1`), one typed method per endpoint of `@walletkit/protocol`'s
 * `proxy.ts`. Requests carry `X-Auth-Proxy-Config-Id` and are never stamped: the proxy stamps
 * what it forwards with its own key. A call the browser blocks although the proxy is reachable
 * (its CORS refusal of an origin no configuration allows) fails with `ERR_ORIGIN_NOT_ALLOWED`.
 *
 * @example
 * ```ts
 * const proxy = createProxyClient({ proxyUrl: 'https://auth.example', configId, fetch });
 * const { otpId, otpEncryptionTargetBundle } = await proxy.otpInit({ otpType: 'OTP_TYPE_EMAIL', contact: 'a@example.com' });
 * ```
 */
export interface ProxyClient {
  /** Any endpoint by name. */
  call<N extends ProxyEndpointName>(name: N, request: ProxyRequestOf<N>): Promise<ProxyResponseOf<N>>;
  otpInit(request: ProxyRequestOf<'otp_init_v2'>): Promise<ProxyResponseOf<'otp_init_v2'>>;
  otpVerify(request: ProxyRequestOf<'otp_verify_v2'>): Promise<ProxyResponseOf<'otp_verify_v2'>>;
  otpLogin(request: ProxyRequestOf<'otp_login_v2'>): Promise<ProxyResponseOf<'otp_login_v2'>>;
  oauthLogin(request: ProxyRequestOf<'oauth_login'>): Promise<ProxyResponseOf<'oauth_login'>>;
  oauth2Authenticate(request: ProxyRequestOf<'oauth2_authenticate'>): Promise<ProxyResponseOf<'oauth2_authenticate'>>;
  signup(request: ProxyRequestOf<'signup_v2'>): Promise<ProxyResponseOf<'signup_v2'>>;
  account(request: ProxyRequestOf<'account'>): Promise<ProxyResponseOf<'account'>>;
  walletKitConfig(): Promise<ProxyResponseOf<'wallet_kit_config'>>;
}

/**
 * True when a no-cors request reaches `url` (any reply, even an opaque one). After a failed
 * proxy call this tells a CORS refusal, which the proxy gives to origins no configuration
 * allows (the browser hides that reply), from a server that cannot be reached at all.
 * @internal
 */
async function reachable(fetchFn: FetchLike, url: string): Promise<boolean> {
  try {
    await fetchFn(url, { method: 'GET', mode: 'no-cors', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates a {@link ProxyClient}.
 *
 * @example
 * ```ts
 * const config = await createProxyClient({ proxyUrl, configId }).walletKitConfig();
 * config.enabledProviders; // ['email', 'passkey', 'google']
 * ```
 */
export function createProxyClient(opts: { proxyUrl: string; configId: string; fetch: FetchLike }): ProxyClient {
  const base = opts.proxyUrl.replace(/\/+$/, '');
  const call = async <N extends ProxyEndpointName>(name: N, request: ProxyRequestOf<N>) => {
    try {
      return await postJson<ProxyResponseOf<N>>(opts.fetch, `${base}${proxyPath(name)}`, JSON.stringify(request), {
        [PROXY_CONFIG_ID_HEADER]: opts.configId,
      });
    } catch (err) {
      if (isWalletKitError(err, 'ERR_NETWORK') && (await reachable(opts.fetch, `${base}${proxyPath(name)}`))) {
        throw new WalletKitError(
          'ERR_ORIGIN_NOT_ALLOWED',
          "the proxy is reachable but the browser blocked its reply: this page's origin is not an allowed origin of the proxy configuration",
          { cause: err },
        );
      }
      throw err;
    }
  };
  return {
    call,
    otpInit: (r) => call('otp_init_v2', r),
    otpVerify: (r) => call('otp_verify_v2', r),
    otpLogin: (r) => call('otp_login_v2', r),
    oauthLogin: (r) => call('oauth_login', r),
    oauth2Authenticate: (r) => call('oauth2_authenticate', r),
    signup: (r) => call('signup_v2', r),
    account: (r) => call('account', r),
    walletKitConfig: () => call('wallet_kit_config', {}),
  };
}
