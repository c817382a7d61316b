/**
 * The secret frames' pages (issue 12): served on the server's origin under a strict CSP whose
 * frame-ancestors are the organization's allowed origins, with the pinned enclave key written by
 * the server; the script bundled from the client's frame source.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyServer, type ProxyTestServer } from './support/proxy';

describe('GET /frames/*', () => {
  let server: ProxyTestServer;
  beforeAll(async () => {
    server = await startProxyServer('pglite', { proxy: { origins: ['https://app.example', 'http://localhost:5173'] } });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it.each(['export', 'import'])(
    "given the organization's config id, when the %s page is fetched, then it carries a strict CSP with frame-ancestors = the allowed origins, the pinned enclave key and no inline script or style",
    async (mode) => {
      const res = await fetch(`${server.url}/frames/${mode}?configId=${server.proxy.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'none'");
      expect(csp).toMatch(/frame-ancestors https:\/\/app\.example http:\/\/localhost:5173$/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toContain(`data-enclave-public-key="${server.enclave.signingPublicKey}"`);
      expect(html).toContain('data-parent-origins="https://app.example http://localhost:5173"');
      expect(html).toContain(`data-mode="${mode}"`);
      expect(html).not.toMatch(/<script>|<style>|style=/);
    },
  );

  it('given no config id or an unknown one, when a frame page is fetched, then it is a 4xx with a stable code', async () => {
    const missing = await fetch(`${server.url}/frames/export`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { code?: string; details: Array<{ errorCode: string }> }).details[0]!.errorCode).toBe('ERR_CONFIG_ID_MISSING');
    const unknown = await fetch(`${server.url}/frames/export?configId=nope`);
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
  });

  it('given the frame script, when fetched, then it is one JavaScript module carrying the frame protocol', async () => {
    const res = await fetch(`${server.url}/frames/frame.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const js = await res.text();
    expect(js).toContain('walletkitFrame');
    expect(js).not.toMatch(/^import /m);
  }, 60_000);
});
