/**
 * A proxy call the browser blocks: the proxy answers CORS only to allowed origins, so a page on
 * another origin sees a bare network failure. The client tells that apart from an unreachable
 * server with a no-cors request (the real browser case is the e2e origin spec).
 */
import { describe, expect, it } from 'vitest';
import { createProxyClient, isWalletKitError, type FetchLike } from '../src/index';

const blocked = (probe: 'reachable' | 'down'): { fetch: FetchLike; calls: RequestInit[] } => {
  const calls: RequestInit[] = [];
  const fetch: FetchLike = async (_url, init) => {
    calls.push(init);
    if (init.mode === 'no-cors' && probe === 'reachable') return new Response(null, { status: 200 });
    throw new TypeError('Failed to fetch');
  };
  return { fetch, calls };
};

describe('proxy client network failures', () => {
  it('given a reply the browser blocked while the proxy is reachable, then the call fails with ERR_ORIGIN_NOT_ALLOWED', async () => {
    const { fetch, calls } = blocked('reachable');
    const err = await createProxyClient({ proxyUrl: 'https://auth.example/', configId: 'c', fetch })
      .walletKitConfig()
      .catch((e: unknown) => e);
    expect(isWalletKitError(err, 'ERR_ORIGIN_NOT_ALLOWED')).toBe(true);
    expect(calls.map((c) => [c.method, c.mode])).toEqual([
      ['POST', undefined],
      ['GET', 'no-cors'],
    ]);
  });

  it('given a server that cannot be reached at all, then the call stays ERR_NETWORK', async () => {
    const { fetch } = blocked('down');
    const err = await createProxyClient({ proxyUrl: 'https://auth.example', configId: 'c', fetch })
      .otpInit({ otpType: 'OTP_TYPE_EMAIL', contact: 'a@example.com' })
      .catch((e: unknown) => e);
    expect(isWalletKitError(err, 'ERR_NETWORK')).toBe(true);
  });

  it('given an error reply the page can read, then its code is kept and no probe is made', async () => {
    const calls: RequestInit[] = [];
    const fetch: FetchLike = async (_url, init) => {
      calls.push(init);
      return Response.json({ code: 7, message: 'no', details: [{ errorCode: 'ERR_CONFIG_NOT_FOUND' }] }, { status: 404 });
    };
    const err = await createProxyClient({ proxyUrl: 'https://auth.example', configId: 'c', fetch })
      .walletKitConfig()
      .catch((e: unknown) => e);
    expect(isWalletKitError(err, 'ERR_CONFIG_NOT_FOUND')).toBe(true);
    expect(calls).toHaveLength(1);
  });
});
