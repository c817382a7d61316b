/**
 * Turnkey's browser client, `@turnkey/core` 2.8.1 (the one under @turnkey/react-wallet-kit),
 * unchanged, in Chromium against the e2e stack's walletkit server: its config helper, OTP init,
 * verification through the documented override (the code encrypted to walletkit's enclave key),
 * its signUpWithOtp and loginWithOtp (stamp_login with an X-Stamp-Attested stamp, decision 0020),
 * the sessions it stores, its wallet reads and creation and an EIP-191 signature that recovers to
 * the account. The page (e2e/turnkey-core/page.ts) is bundled here with esbuild into the stack's
 * `core` host, an origin the main organization's proxy allows.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { verifyMessage } from 'viem';
import { expect, test, uniqueEmail } from './support/fixtures';
import { stackInfo } from './support/stack-info';

const PAGE_ENTRY = join(import.meta.dirname, 'turnkey-core/page.ts');

/** Optional React Native peers of @turnkey/core: never loaded in a browser, so bundled as empty modules. */
const REACT_NATIVE_PEERS = ['@react-native-async-storage/async-storage', 'react-native-keychain', '@turnkey/react-native-passkey-stamper', 'react-native'];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const { dir } = stackInfo().turnkeyCore;
  await build({
    entryPoints: [PAGE_ENTRY],
    outfile: join(dir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: false,
    sourcemap: false,
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    plugins: [
      {
        name: 'react-native-peers',
        setup(b) {
          const filter = new RegExp(`^(${REACT_NATIVE_PEERS.map((p) => p.replace(/[/.]/g, '\\$&')).join('|')})(/.*)?$`);
          b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'empty-peer' }));
          b.onLoad({ filter: /.*/, namespace: 'empty-peer' }, () => ({ contents: 'export default undefined;', loader: 'js' }));
        },
      },
    ],
  });
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>@turnkey/core against walletkit</title><link rel="icon" href="data:,"></head><body><script type="module" src="/app.js"></script></body></html>',
  );
});

test('given a fresh email, when @turnkey/core signs up and logs in again with emailed codes, creates an Ethereum wallet and signs a message, then its sessions work and the signature recovers to the account', async ({
  page,
  inbox,
  stack,
}) => {
  test.setTimeout(150_000);
  const consoleErrors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(`${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`));
  // What core sends for its logins: stamp_login with its attested stamp (and its version header).
  const stampLogins: Array<Record<string, string>> = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url() === `${stack.serverUrl}/public/v1/submit/stamp_login`) stampLogins.push(req.headers());
  });

  await page.goto(stack.turnkeyCore.url);
  const kit = await page.evaluate(async () => (await window.turnkeyCore).kit);
  expect(kit.apiUrl).toBe(stack.serverUrl);
  const email = uniqueEmail('turnkey-core');

  await test.step('config: getAuthProxyConfig returns the enabled providers, and discovery announces the pinned enclave key', async () => {
    const config = await page.evaluate(async () => (await window.turnkeyCore).config());
    expect(config).toMatchObject({ organizationId: kit.organizationId });
    expect(config.enabledProviders).toEqual(expect.arrayContaining(['email', 'sms', 'passkey', 'wallet', 'google', 'x', 'discord']));
    expect(await page.evaluate(async () => (await window.turnkeyCore).enclaveSigningPublicKey)).toBe(kit.enclavePublicKey);
  });

  /** initOtp, the code from the inbox, and the documented verify override (plus core's account lookup). */
  const verifiedCode = async () => {
    const since = Date.now();
    const otp = await page.evaluate(async (contact) => (await window.turnkeyCore).initOtp(contact), email);
    expect(otp.otpId).toBeTruthy();
    const code = await inbox.code(email, since);
    return page.evaluate(async (input) => (await window.turnkeyCore).verifyOtp(input), { ...otp, code, email });
  };

  const signup = await test.step('signup: a new user, signUpWithOtp (signup_v2, then loginWithOtp with the same token); core stores the session', async () => {
    const verified = await verifiedCode();
    expect(verified.organizationId).toBeNull();
    const result = await page.evaluate(async ({ token, contact }) => (await window.turnkeyCore).signUp(token, contact), {
      token: verified.verificationToken,
      contact: email,
    });
    expect(result.sessionToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const session = await page.evaluate(async () => (await window.turnkeyCore).session());
    expect(session).not.toBeNull();
    expect(session!.organizationId).not.toBe(kit.organizationId);
    expect(session!.publicKey).toBe(verified.publicKey);
    return session!;
  });

  const address = await test.step('wallets: none after signup; createWallet with an Ethereum account; fetchWallets lists it', async () => {
    expect(await page.evaluate(async () => (await window.turnkeyCore).wallets())).toEqual([]);
    const walletId = await page.evaluate(async () => (await window.turnkeyCore).createWallet('turnkey-core'));
    expect(walletId).toBeTruthy();
    const wallets = await page.evaluate(async () => (await window.turnkeyCore).wallets());
    expect(wallets).toHaveLength(1);
    expect(wallets[0]).toMatchObject({ walletId, walletName: 'turnkey-core' });
    expect(wallets[0]!.addresses).toHaveLength(1);
    expect(wallets[0]!.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    return wallets[0]!.addresses[0] as `0x${string}`;
  });

  await test.step('sign: signMessage (EIP-191) recovers to the account address', async () => {
    const message = `hello from ${email}`;
    const signed = await page.evaluate(async (m) => (await window.turnkeyCore).signMessage(m), message);
    expect(signed.address).toBe(address);
    expect(await verifyMessage({ address, message, signature: signed.signature as `0x${string}` })).toBe(true);
  });

  await test.step('login: a fresh code for the same email finds the account; loginWithOtp opens a new session for the same user and wallet', async () => {
    const verified = await verifiedCode();
    expect(verified.organizationId).toBe(signup.organizationId);
    const result = await page.evaluate(async ({ token, organizationId }) => (await window.turnkeyCore).logIn(token, organizationId), {
      token: verified.verificationToken,
      organizationId: signup.organizationId,
    });
    expect(result.sessionToken).toBeTruthy();
    const session = await page.evaluate(async () => (await window.turnkeyCore).session());
    expect(session).toMatchObject({ organizationId: signup.organizationId, userId: signup.userId, publicKey: verified.publicKey });
    expect(session!.publicKey).not.toBe(signup.publicKey);
    const wallets = await page.evaluate(async () => (await window.turnkeyCore).wallets());
    expect(wallets.flatMap((w) => w.addresses)).toEqual([address]);
    const message = `hello again from ${email}`;
    const signed = await page.evaluate(async (m) => (await window.turnkeyCore).signMessage(m), message);
    expect(await verifyMessage({ address, message, signature: signed.signature as `0x${string}` })).toBe(true);
  });

  expect(stampLogins).toHaveLength(2);
  for (const headers of stampLogins) {
    expect(Object.keys(headers)).toEqual(expect.arrayContaining(['x-stamp-attested', 'x-client-version']));
    expect(headers['x-stamp']).toBeUndefined();
  }
  expect(consoleErrors.filter((e) => /CORS|Access-Control/i.test(e))).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
