/**
 * The wallet panel's screens in a real browser: EIP-712 signing (Sign), export and import through
 * the secret frame (Export & import, another origin), the phrase checked inside the frame (which
 * word, or the checksum) and the frame in the kit's language, the frame's message checks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { getAddress, verifyTypedData } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { ETHER_MAIL_TYPED_DATA } from '../packages/crypto/test/fixtures';
import { wallet as walletMessages } from '../packages/react/src/i18n/en/wallet';
import { accountAddresses, expect, expectWallet, logInWithEmail, openWalletScreen, test, uniqueEmail, walletPanel } from './support/fixtures';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's WCAG 2.1 AA and best-practice rules over the wallet panel (landmarks are the page's). */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; help: string; nodes: unknown[] }> }> } }
    ).axe;
    const result = await axe.run(document.querySelector('section.wk-wallet'), {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      rules: { region: { enabled: false } },
    });
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
  });
}

// Hardhat's well-known development phrase and its first Ethereum account (m/44'/60'/0'/0/0).
const KNOWN_MNEMONIC = 'test test test test test test test test test test test junk';
const KNOWN_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

test('given an account, when EIP-712 typed data is signed in the panel, then viem verifies the signature', async ({ page, inbox, stack }) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('typed'));
  const [address] = await accountAddresses(page);
  await walletPanel(page).getByRole('combobox', { name: 'Account', exact: true }).selectOption(address!);
  const panel = await openWalletScreen(page, 'Sign');
  await panel.getByLabel('Typed data (EIP-712 JSON)').fill(JSON.stringify(ETHER_MAIL_TYPED_DATA));
  await panel.getByRole('button', { name: 'Sign typed data' }).click();
  const confirm = page.getByRole('dialog', { name: 'Sign this typed data?' });
  // Typed data as structure (primary type, then the message's fields), never raw JSON.
  await expect(confirm.getByTestId('wk-confirm-primary-type')).toHaveText('Mail');
  await expect(confirm.getByLabel('Message')).toContainText('Hello, Bob!');
  await confirm.getByRole('button', { name: 'Sign', exact: true }).click();
  const signature = panel.getByTestId('wk-signature');
  await expect(signature).toHaveText(/^0x[0-9a-f]{130}$/, { timeout: 30_000 });
  const valid = await verifyTypedData({
    address: address as `0x${string}`,
    ...ETHER_MAIL_TYPED_DATA,
    signature: (await signature.textContent()) as `0x${string}`,
  });
  expect(valid).toBe(true);
});

/** Every word of the app's own document: its text, its form values and every same-origin frame's. */
async function appDocumentWords(page: import('@playwright/test').Page): Promise<Set<string>> {
  const text = await page.evaluate(() => {
    const parts = [document.documentElement.outerHTML, ...[...document.querySelectorAll('input, textarea')].map((el) => (el as HTMLInputElement).value)];
    for (const frame of [...document.querySelectorAll('iframe')]) {
      try {
        parts.push(frame.contentDocument?.documentElement.outerHTML ?? ''); // null for another origin's frame
      } catch {
        // another origin: not readable from here, which is the point
      }
    }
    return parts.join(' ');
  });
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean),
  );
}

test('given an account, when its wallet is exported, then the phrase shows only in the secret frame (another origin), no word of it reaches the app document, and it reproduces the address', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('export'));
  const [address] = await accountAddresses(page);
  const panel = await openWalletScreen(page, 'Export & import');
  const show = panel.getByRole('button', { name: 'Show recovery phrase of Default wallet' });
  await expect(show).toBeVisible();
  const before = await appDocumentWords(page);

  await show.click();
  await page.getByRole('dialog', { name: 'Show the recovery phrase?' }).getByRole('button', { name: 'Show recovery phrase' }).click();
  const iframe = panel.locator('iframe[title="Recovery phrase"]');
  expect(new URL((await iframe.getAttribute('src'))!).origin).toBe(new URL(stack.serverUrl).origin);
  expect(new URL((await iframe.getAttribute('src'))!).origin).not.toBe(new URL(stack.demo.main).origin);
  const secret = page.frameLocator('iframe[title="Recovery phrase"]').getByTestId('wk-frame-secret');
  const phrase = (await secret.textContent({ timeout: 30_000 }))!.trim();
  expect(phrase.split(/\s+/)).toHaveLength(12);
  expect(mnemonicToAccount(phrase).address).toBe(getAddress(address!));

  // The app's document gained none of the phrase's words (words it already had, like "wallet",
  // aside, and the words of the kit's fixed text on this screen and of the frame element's fixed
  // attributes: the frame's description "...a secure frame that this site's scripts cannot read"
  // or allow="clipboard-write" is the kit's text, not a leak, when the phrase holds "that" or "write").
  const after = await appDocumentWords(page);
  const markup = await iframe.evaluate((el) => ['allow', 'sandbox', 'title', 'class'].map((name) => el.getAttribute(name) ?? '').join(' '));
  const screenText = Object.entries(walletMessages)
    .filter(([key]) => key.startsWith('wallet.export') || key.startsWith('wallet.backup'))
    .map(([, text]) => text)
    .join(' ');
  const kitWords = new Set(
    `${markup} ${screenText}`
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean),
  );
  const leaked = phrase.split(' ').filter((word) => after.has(word) && !before.has(word) && !kitWords.has(word));
  expect(leaked).toEqual([]);
  expect(await page.evaluate((p) => document.documentElement.outerHTML.includes(p), phrase)).toBe(false);

  await panel.getByRole('button', { name: 'Hide the recovery phrase of Default wallet' }).click();
  await expect(iframe).toHaveCount(0);
});

// Hardhat's development account #1 (not derived from the phrase above: its own record).
const KNOWN_KEY = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const KNOWN_KEY_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

test('given the import frame, when a known phrase and then a known private key are typed inside it, then the known addresses come back and the app never held either', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('import'));
  const [address] = await accountAddresses(page);
  const panel = await openWalletScreen(page, 'Export & import');
  const importForm = panel.getByRole('form', { name: 'Import wallet' });

  await importForm.getByLabel('Imported wallet name').fill('Hardhat');
  await importForm.getByRole('button', { name: 'Continue' }).click();
  const phraseFrame = page.frameLocator('iframe[title="Recovery phrase"]');
  await phraseFrame.getByLabel('Recovery phrase').fill(KNOWN_MNEMONIC);
  await phraseFrame.getByRole('button', { name: 'Encrypt and import' }).click();
  await expect(importForm.getByRole('status')).toHaveText(`Wallet Hardhat imported: ${KNOWN_ADDRESS}.`, { timeout: 30_000 });
  const addresses = await accountAddresses(page, 2);
  expect(addresses.map((a) => getAddress(a))).toEqual(expect.arrayContaining([getAddress(address!), KNOWN_ADDRESS]));

  await openWalletScreen(page, 'Export & import');
  await importForm.getByLabel('What to import').selectOption('privateKey');
  await importForm.getByLabel('Imported key name').fill('Dev key');
  await importForm.getByRole('button', { name: 'Continue' }).click();
  const keyFrame = page.frameLocator('iframe[title="Private key"]');
  await keyFrame.getByLabel('Private key').fill(`0x${KNOWN_KEY}`);
  await keyFrame.getByRole('button', { name: 'Encrypt and import' }).click();
  await expect(importForm.getByRole('status')).toHaveText(`Key Dev key imported: ${KNOWN_KEY_ADDRESS}.`, { timeout: 30_000 });
  // The imported key is listed and exports (export_private_key) through the frame as the same key.
  const keys = panel.getByRole('list', { name: 'Imported private keys' });
  await expect(keys).toContainText(KNOWN_KEY_ADDRESS);
  await keys.getByRole('button', { name: 'Export key Dev key' }).click();
  await page.getByRole('dialog', { name: 'Show the private key?' }).getByRole('button', { name: 'Show private key' }).click();
  await expect(page.frameLocator('iframe[title="Private key"]').getByTestId('wk-frame-secret')).toHaveText(KNOWN_KEY, { timeout: 30_000 });

  const html = await page.evaluate(() => document.documentElement.outerHTML);
  expect(html).not.toContain(KNOWN_KEY);
  expect(html).not.toContain('test test test');

  // The imported wallet is the server's: still there after a reload.
  await page.reload();
  await expectWallet(page);
  expect((await accountAddresses(page, 2)).map((a) => getAddress(a)).sort()).toEqual([getAddress(address!), KNOWN_ADDRESS].sort());
});

test('given the import frame, when a phrase with a misspelled word, one with too few words and one whose checksum fails are typed, then the frame says exactly what is wrong, nothing reaches the server, and the right phrase imports', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('import-check'));
  await accountAddresses(page);
  const imports: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/submit/import_wallet')) imports.push(request.url());
  });
  const panel = await openWalletScreen(page, 'Export & import');
  const importForm = panel.getByRole('form', { name: 'Import wallet' });
  await importForm.getByLabel('Imported wallet name').fill('Typo');
  await importForm.getByRole('button', { name: 'Continue' }).click();
  const frame = page.frameLocator('iframe[title="Recovery phrase"]');
  const phrase = frame.getByLabel('Recovery phrase');
  const submit = frame.getByRole('button', { name: 'Encrypt and import' });

  await phrase.fill(KNOWN_MNEMONIC.replace('junk', 'junkk'));
  await submit.click();
  await expect(frame.getByRole('alert')).toHaveText('Word 12, “junkk”, is not a recovery phrase word. Did you mean “junk”?');
  await expect(phrase).toHaveAttribute('aria-invalid', 'true');
  await phrase.fill('test test test');
  await submit.click();
  await expect(frame.getByRole('alert')).toHaveText('This phrase has 3 words; a recovery phrase has 12, 15, 18, 21 or 24.');
  // Twelve listed words whose checksum fails: "test" typed for "junk".
  await phrase.fill(Array(12).fill('test').join(' '));
  await submit.click();
  await expect(frame.getByRole('alert')).toHaveText(/^Every word is valid, but the phrase does not check out: a word is misspelled as another word/);
  expect(imports).toEqual([]);

  await phrase.fill(KNOWN_MNEMONIC);
  await submit.click();
  await expect(importForm.getByRole('status')).toHaveText(`Wallet Typo imported: ${KNOWN_ADDRESS}.`, { timeout: 30_000 });
  expect(imports).toHaveLength(1);
});

test("given the kit in German, then in Arabic, when the import frame opens, then the frame (another origin) speaks the kit's language, right to left in Arabic, down to what is wrong with a phrase", async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('frame-locale'));
  await accountAddresses(page);
  // The same session, the kit now in German (the demo's ?locale=).
  await page.goto(`${stack.demo.main}/?locale=de`);
  const panel = walletPanel(page);
  await expect(panel).toHaveAttribute('lang', 'de');
  await panel.getByRole('tab', { name: 'Export & Import', exact: true }).click();
  const form = panel.getByRole('form', { name: 'Wallet importieren' });
  await form.getByLabel('Name der importierten Wallet').fill('Alt');
  await form.getByRole('button', { name: 'Weiter', exact: true }).click();
  // The frame's title (its accessible name in the app document) is in the kit's language too.
  const frame = page.frameLocator('iframe[title="Wiederherstellungsphrase"]');
  await frame.getByLabel('Wiederherstellungsphrase').fill('test test test');
  await frame.getByRole('button', { name: 'Verschlüsseln und importieren' }).click();
  await expect(frame.getByRole('alert')).toHaveText('Diese Phrase hat 3 Wörter; eine Wiederherstellungsphrase hat 12, 15, 18, 21 oder 24.');
  await expect(frame.locator('html')).toHaveAttribute('lang', 'de');

  await page.goto(`${stack.demo.main}/?locale=ar`);
  const arabic = page.getByRole('region', { name: 'المحفظة', exact: true });
  await expect(arabic).toHaveAttribute('dir', 'rtl');
  await arabic.getByRole('tab', { name: 'التصدير والاستيراد', exact: true }).click();
  const arabicForm = arabic.getByRole('form', { name: 'استيراد محفظة' });
  await arabicForm.getByLabel('اسم المحفظة المستوردة').fill('قديمة');
  await arabicForm.getByRole('button', { name: 'متابعة', exact: true }).click();
  const arabicFrame = page.frameLocator('iframe[title="عبارة الاسترداد"]');
  await expect(arabicFrame.getByLabel('عبارة الاسترداد')).toBeVisible();
  await expect(arabicFrame.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(arabicFrame.getByRole('button', { name: 'تشفير واستيراد' })).toBeVisible();
});

test('given a secret frame, when a message comes from another origin before the app binds it and a second init comes after, then the frame ignores both', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('frame'));
  // An export frame of the organization, placed by the page itself.
  const src = `${stack.serverUrl}/frames/export`;
  const configId = await page.evaluate(async () => ((await (await fetch('/walletkit.config.json')).json()) as { kit: { configId: string } }).kit.configId);
  await page.evaluate(
    ({ url }) =>
      new Promise<void>((resolve) => {
        const iframe = document.createElement('iframe');
        iframe.id = 'probe';
        iframe.src = url;
        iframe.addEventListener('load', () => resolve(), { once: true });
        document.body.append(iframe);
        (window as unknown as { replies: unknown[] }).replies = [];
        window.addEventListener('message', (e) => (window as unknown as { replies: unknown[] }).replies.push(e.data));
      }),
    { url: `${src}?configId=${configId}` },
  );
  const frame = page.frames().find((f) => f.url().startsWith(`${stack.serverUrl}/frames/export`))!;
  // 1. An init "from another origin" (as the frame sees it): ignored, the frame stays unbound.
  await frame.evaluate(() =>
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { walletkitFrame: 1, type: 'init', mode: 'export', secret: 'mnemonic' },
        origin: 'https://evil.example',
        source: window.parent,
      }),
    ),
  );
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { replies: unknown[] }).replies)).toEqual([]);
  // 2. The app's init binds it: one ready with a P-256 target key.
  await page.evaluate(
    (origin) =>
      (document.getElementById('probe') as HTMLIFrameElement).contentWindow!.postMessage(
        { walletkitFrame: 1, type: 'init', mode: 'export', secret: 'mnemonic' },
        origin,
      ),
    new URL(stack.serverUrl).origin,
  );
  await expect.poll(() => page.evaluate(() => (window as unknown as { replies: Array<{ type: string }> }).replies.length)).toBe(1);
  const [ready] = await page.evaluate(() => (window as unknown as { replies: Array<{ type: string; targetPublicKey: string }> }).replies);
  expect(ready).toMatchObject({ type: 'ready', targetPublicKey: expect.stringMatching(/^04[0-9a-f]{128}$/) });
  // 3. A second init (even from the bound parent): ignored, no second key.
  await page.evaluate(
    (origin) =>
      (document.getElementById('probe') as HTMLIFrameElement).contentWindow!.postMessage(
        { walletkitFrame: 1, type: 'init', mode: 'export', secret: 'mnemonic' },
        origin,
      ),
    new URL(stack.serverUrl).origin,
  );
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { replies: unknown[] }).replies)).toHaveLength(1);
  // 4. A bundle "from another origin": ignored, nothing is shown and nothing is posted.
  await frame.evaluate(() =>
    window.dispatchEvent(
      new MessageEvent('message', { data: { walletkitFrame: 1, type: 'bundle', exportBundle: '{}' }, origin: 'https://evil.example', source: window.parent }),
    ),
  );
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { replies: unknown[] }).replies)).toHaveLength(1);
  await expect(page.frameLocator('#probe').getByRole('status')).toHaveText('Waiting for the export…');
  // 5. A language "from another origin": ignored; from the bound parent: the frame speaks it.
  await frame.evaluate(() =>
    window.dispatchEvent(
      new MessageEvent('message', { data: { walletkitFrame: 1, type: 'locale', locale: 'de' }, origin: 'https://evil.example', source: window.parent }),
    ),
  );
  await page.waitForTimeout(300);
  await expect(page.frameLocator('#probe').getByRole('status')).toHaveText('Waiting for the export…');
  await page.evaluate(
    (origin) => (document.getElementById('probe') as HTMLIFrameElement).contentWindow!.postMessage({ walletkitFrame: 1, type: 'locale', locale: 'de' }, origin),
    new URL(stack.serverUrl).origin,
  );
  await expect(page.frameLocator('#probe').getByRole('status')).toHaveText('Warte auf den Export…');
  await expect(page.frameLocator('#probe').locator('html')).toHaveAttribute('lang', 'de');
  expect(await page.evaluate(() => (window as unknown as { replies: unknown[] }).replies)).toHaveLength(1);
});

test('given the demo under a strict Content-Security-Policy (no inline script or style, the kit style by nonce), when the user signs up and exports, then the kit works, nothing is blocked and the phrase shows in the frame', async ({
  page,
  inbox,
  stack,
}) => {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
  });
  const response = await page.goto(stack.demo.strict);
  expect(response?.headers()['content-security-policy']).toMatch(/style-src 'self' 'nonce-[^']+'/);
  await logInWithEmail(page, inbox, stack.demo.strict, uniqueEmail('strict'));
  const [address] = await accountAddresses(page);
  // The kit's stylesheet applied: its injected <style> carries the nonce (inline CSS is otherwise refused here).
  expect(await page.evaluate(() => (document.querySelector('style[data-walletkit]') as HTMLStyleElement | null)?.nonce)).toBeTruthy();
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('.wk-root .wk-button')!).cursor)).toBe('pointer');
  const panel = await openWalletScreen(page, 'Export & import');
  await panel.getByRole('button', { name: 'Show recovery phrase of Default wallet' }).click();
  await page.getByRole('dialog', { name: 'Show the recovery phrase?' }).getByRole('button', { name: 'Show recovery phrase' }).click();
  const phrase = (await page.frameLocator('iframe[title="Recovery phrase"]').getByTestId('wk-frame-secret').textContent({ timeout: 30_000 }))!.trim();
  expect(mnemonicToAccount(phrase).address).toBe(getAddress(address!));
  expect(violations).toEqual([]);
});

test('given the wallet panel, when each screen is opened by keyboard, in light and dark and in Arabic, then axe finds no violation', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('panel-axe'));
  await accountAddresses(page);
  const tabs = walletPanel(page).getByRole('tab');
  await tabs.first().focus();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (let i = 0; i < (await tabs.count()); i++) {
      const tab = tabs.nth(i);
      await expect(tab).toBeFocused();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await expect(
        walletPanel(page)
          .getByRole('tabpanel')
          .getByText(/^Loading/),
      ).toHaveCount(0, { timeout: 10_000 }); // its chunk and data loaded
      expect(await axeViolations(page), `${await tab.textContent()} (${scheme})`).toEqual([]);
      await page.keyboard.press('ArrowRight');
    }
  }
  await page.goto(`${stack.demo.main}/?locale=ar`);
  const arabic = page.getByRole('region', { name: 'المحفظة', exact: true });
  await expect(arabic).toHaveAttribute('dir', 'rtl');
  await arabic.getByRole('tab', { name: 'الحسابات', exact: true }).click();
  expect(await axeViolations(page)).toEqual([]);
});
