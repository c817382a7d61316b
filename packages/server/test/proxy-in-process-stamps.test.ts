/**
 * What the proxy's requests to the activity API carry (decision 0027): in-process (`inject()`,
 * the default) the first a signature by the sealed proxy key and then the enclave's passes, good
 * only while their call lasts; over HTTP a signature every time. A pass taken out of the process
 * is refused like a forged stamp.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseApiKeyStamp } from '@walletkit/crypto';
import { checkStamp as checkSignature } from '../src/activity/stamp-check';
import { expectProxyError, startProxyServer, type ProxyTestServer } from './support/proxy';

const APP = 'https://app.example';
const utf8 = new TextEncoder();

interface Sent {
  url: string;
  stamp: string;
  body: string;
}

/** Each OTP code begun is one submit of the proxy to the activity API. */
async function beginCodes(s: ProxyTestServer, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const init = await s.browser.post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact: `dana-${randomUUID().slice(0, 8)}@example.com` });
    expect(init.status).toBe(200);
  }
}

const isSignature = (sent: Sent) => checkSignature({ body: utf8.encode(sent.body), stamp: parseApiKeyStamp(sent.stamp) });

describe('the proxy in-process (inject)', () => {
  let s: ProxyTestServer;
  const sent: Sent[] = [];

  beforeAll(async () => {
    s = await startProxyServer('pglite', { proxy: { origins: [APP] } });
    const inject = s.app.inject.bind(s.app) as (opts: unknown) => unknown;
    vi.spyOn(s.app, 'inject').mockImplementation(((opts: { url: string; headers: Record<string, string>; payload: string }) => {
      sent.push({ url: opts.url, stamp: opts.headers['x-stamp']!, body: opts.payload });
      return inject(opts);
    }) as never);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await s?.dispose();
  });

  it('given three OTP codes begun, then the first request is signed by the proxy key, the others carry passes of that key, no sealed key opens for them and none is held after', async () => {
    const pool = (s.enclave as unknown as { signer: { stamp: (job: unknown) => Promise<string> } }).signer;
    const stampJobs = vi.spyOn(pool, 'stamp');
    await beginCodes(s, 3);
    expect(sent).toHaveLength(3);
    expect(isSignature(sent[0]!)).toBe(true);
    expect(sent.slice(1).map(isSignature)).toEqual([false, false]);
    const keys = sent.map((x) => parseApiKeyStamp(x.stamp).publicKey);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(keys[0]!.toLowerCase()).toBe(s.proxy.proxyApiPublicKey.toLowerCase());
    expect(stampJobs).toHaveBeenCalledTimes(1);
    expect(s.enclave.stamps.passesHeld).toBe(0);
  });

  it('given a pass whose call returned, when it is sent with its very body over HTTP, then it is a 401 ERR_STAMP_INVALID and no code is begun', async () => {
    const pass = sent.find((x) => !isSignature(x))!;
    const outboxBefore = await (await fetch(`${s.url}/v1/dev/outbox?limit=100`)).json();
    const res = await fetch(`${s.url}${pass.url}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stamp': pass.stamp }, body: pass.body });
    const body = (await res.json()) as { details?: Array<{ errorCode?: string }> };
    expectProxyError({ status: res.status, headers: res.headers, body }, 401, 'ERR_STAMP_INVALID');
    expect(await (await fetch(`${s.url}/v1/dev/outbox?limit=100`)).json()).toEqual(outboxBefore);
  });
});

describe('the proxy over HTTP', () => {
  let s: ProxyTestServer;
  const sent: Sent[] = [];

  beforeAll(async () => {
    const record: typeof fetch = async (input, init) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      if (headers['x-stamp'] !== undefined) sent.push({ url: String(input), stamp: headers['x-stamp'], body: String(init?.body) });
      return fetch(input, init);
    };
    s = await startProxyServer('pglite', { proxy: { origins: [APP] }, deps: { proxyTransport: 'http', fetch: record } });
  });
  afterAll(async () => {
    await s?.dispose();
  });

  it('given three OTP codes begun, then every request leaving the process is signed by the proxy key', async () => {
    await beginCodes(s, 3);
    expect(sent).toHaveLength(3);
    expect(sent.map(isSignature)).toEqual([true, true, true]);
  });
});
