/**
 * A real OpenID Provider for tests: npm `oidc-provider` (the certified implementation) on
 * 127.0.0.1, port 0, with one confidential client and an RS256 key, standing in for Google.
 * `login()` drives its authorization-code flow headlessly with fetch: the authorization
 * request, a login + consent interaction finished by this harness (as a browser page would
 * after the user signs in), the resume redirect, then the token request. The id_token it
 * returns is exactly what a web app would receive. With `browserClient`, it also serves a
 * browser: a public client for the implicit id_token flow (how the kit signs in with Google)
 * whose interaction page is a sign-in form where the user types an email address.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface OidcIssuerOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** A public implicit-flow client for real browsers (loopback redirect URIs allowed, RFC 8252). */
  browserClient?: { clientId: string; redirectUris: string[] };
}

export interface LocalOidcIssuer {
  issuer: string;
  jwksUri: string;
  /** Requests the JWKS endpoint received (to see caching). */
  readonly jwksRequests: number;
  /** The user `sub` signs in and consents; returns the id_token bound to `nonce`. */
  login(input: { sub: string; nonce: string; email?: string }): Promise<string>;
  /**
   * Sign arbitrary claims with the issuer's own key (for expiry/audience edge cases the
   * provider would never produce on its own); iss defaults to this issuer.
   */
  sign(claims: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Cookies a browser would keep between the redirects of one login. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** The provider's sign-in form (what Google's account chooser stands for). */
function signInPage(action: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in - local OpenID Provider</title></head>
<body><main><h1>Sign in</h1><form method="post" action="${action.replace(/"/g, '&quot;')}">
<label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="email" required>
<button type="submit">Continue</button></form></main></body></html>`;
}

export async function startOidcIssuer(opts: OidcIssuerOptions): Promise<LocalOidcIssuer> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-rs256', alg: 'RS256', use: 'sig' };
  const emails = new Map<string, string>();
  let provider: Provider | undefined;
  let jwksRequests = 0;

  // The interaction page. Headless logins name the account in login_hint; a browser gets a
  // sign-in form and posts the email address back. Consent to the scopes is granted at once.
  const interact = async (req: IncomingMessage, res: ServerResponse) => {
    const p = provider!;
    const details = await p.interactionDetails(req, res);
    let accountId = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
    if (accountId === undefined && req.method === 'POST') {
      const email = new URLSearchParams(await readBody(req)).get('email')?.trim().toLowerCase() ?? '';
      if (email !== '') {
        accountId = `g-${createHash('sha256').update(email).digest('hex').slice(0, 20)}`;
        emails.set(accountId, email);
      }
    }
    if (accountId === undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(signInPage(req.url ?? '/'));
      return;
    }
    const grant = new p.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await p.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  };

  const server = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    if (req.url === '/jwks') jwksRequests += 1;
    provider!.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  provider = new Provider(issuer, {
    clients: [
      { client_id: opts.clientId, client_secret: opts.clientSecret, redirect_uris: [opts.redirectUri], token_endpoint_auth_method: 'client_secret_basic' },
      ...(opts.browserClient
        ? [
            {
              client_id: opts.browserClient.clientId,
              redirect_uris: opts.browserClient.redirectUris,
              application_type: 'native' as const,
              response_types: ['id_token' as const],
              grant_types: ['implicit'],
              token_endpoint_auth_method: 'none' as const,
            },
          ]
        : []),
    ],
    jwks: { keys: [signingJwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Like Google: the id_token itself carries the email claims, not only /me.
    conformIdTokenClaims: false,
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 3600, Interaction: 600, Grant: 600, Session: 600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, ...(emails.has(sub) ? { email: emails.get(sub)!, email_verified: true } : {}) }),
    }),
  });
  // Plain HTTP on loopback: the provider must not insist on TLS-only cookies behind no proxy.
  provider.proxy = false;

  const base64url = (b: Buffer) => b.toString('base64url');
  const follow = async (url: string, jar: CookieJar): Promise<string> => {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) throw new Error(`expected a redirect from ${url}, got ${res.status}: ${await res.text()}`);
    return new URL(location, url).toString();
  };

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    get jwksRequests() {
      return jwksRequests;
    },
    async login(input) {
      if (input.email !== undefined) emails.set(input.sub, input.email);
      const verifier = base64url(randomBytes(32));
      const auth = new URL(`${issuer}/auth`);
      auth.search = new URLSearchParams({
        client_id: opts.clientId,
        response_type: 'code',
        scope: input.email !== undefined ? 'openid email' : 'openid',
        redirect_uri: opts.redirectUri,
        nonce: input.nonce,
        state: base64url(randomBytes(8)),
        login_hint: input.sub,
        code_challenge: base64url(createHash('sha256').update(verifier).digest()),
        code_challenge_method: 'S256',
      }).toString();
      const jar = new CookieJar();
      const interaction = await follow(auth.toString(), jar);
      const resume = await follow(interaction, jar);
      const callback = new URL(await follow(resume, jar));
      const code = callback.searchParams.get('code');
      if (!code || !callback.toString().startsWith(opts.redirectUri)) throw new Error(`no code in ${callback}`);
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: opts.redirectUri, code_verifier: verifier }).toString(),
      });
      const body = (await res.json()) as { id_token?: string };
      if (!res.ok || !body.id_token) throw new Error(`token endpoint: ${res.status} ${JSON.stringify(body)}`);
      return body.id_token;
    },
    async sign(claims) {
      return new SignJWT({ iss: issuer, ...claims }).setProtectedHeader({ alg: 'RS256', kid: signingJwk.kid! }).sign(privateKey);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
