// @vitest-environment happy-dom
/**
 * The wallet panel and the confirmation in other languages: every word from the catalog, amounts
 * exact in the locale's digits and separators (typed that way too), dates through Intl; Arabic
 * right to left with the tab keys mirrored; the secret frames told the kit's language.
 */
import type { SignatureRequest } from '@walletkit/client';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getAddress, parseEther } from 'viem';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chainLabel } from '../src/confirm/chain';
import { expiryText, permitSentence } from '../src/confirm/permits';
import { requestWording } from '../src/confirm/SignatureRequestDialog';
import { createTranslator, loadLocale, LOCALES, type MessageKey } from '../src/i18n/catalog';
import { parseAmountInput } from '../src/wallet/amount-input';
import { useFrameLocale } from '../src/wallet/frame-locale';
import { WalletPanel } from '../src/wallet/WalletPanel';
import { createFakeClient, hardhat } from './support/fake-client';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

const RECIPIENT = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';

function signedIn(balance = '1.5') {
  const client = createFakeClient();
  client.login();
  const address = client.wallets[0]!.accounts[0]!.address;
  client.balances.set(`31337:${address.toLowerCase()}`, parseEther(balance));
  return { client, address };
}

describe('WalletPanel in German', () => {
  it('given locale "de", when the panel opens, then its tabs, header, balance and countdown are German, with the German decimal comma', async () => {
    const { client } = signedIn();
    renderWithKit(<WalletPanel />, client, { locale: 'de' });
    const konten = await screen.findByRole('tab', { name: 'Konten' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Konten', 'Senden', 'Empfangen', 'Signieren', 'Export & Import', 'Sicherheit']);
    expect(konten.closest('section')!.getAttribute('lang')).toBe('de');
    expect(screen.getByRole('region', { name: 'Wallet' }).querySelector('header')!.textContent).toContain('Main · Konto 1');
    await waitFor(() => expect(screen.getByTestId('wk-balance').textContent).toBe('1,5 ETH'));
    expect(screen.getByText('Guthaben auf Hardhat')).toBeTruthy();
    expect(screen.getByTestId('wk-session-countdown').textContent).toMatch(/^Sitzung endet in \d+:\d\d$/);
    expect(screen.getByRole('button', { name: 'Abmelden' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Adresse kopieren' })).toBeTruthy();
    await expectNoAxeViolations();
  });

  it('given "0,25" typed in German, when sent, then exactly 0.25 ETH goes out, the confirmation says "0,25 ETH" in German, and a bad amount is refused in German', async () => {
    const { client, address } = signedIn();
    renderWithKit(<WalletPanel />, client, { locale: 'de' });
    await userEvent.click(await screen.findByRole('tab', { name: 'Senden' }));
    const form = await screen.findByRole('form', { name: 'Senden' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Empfängeradresse' }), RECIPIENT);
    const amount = within(form).getByRole('textbox', { name: 'Betrag (ETH)' });
    await userEvent.type(amount, '0,0000000000000000001');
    await userEvent.click(within(form).getByRole('button', { name: 'Prüfen und senden' }));
    expect(document.getElementById(amount.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Gib einen Betrag in ETH ein, zum Beispiel 0,01 (höchstens 18 Nachkommastellen).',
    );
    await userEvent.clear(amount);
    await userEvent.type(amount, '0,25');
    await userEvent.click(within(form).getByRole('button', { name: 'Prüfen und senden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Diese Transaktion senden?' });
    expect((await within(dialog).findByTestId('wk-confirm-value')).textContent).toBe('0,25 ETH');
    expect(within(dialog).getByTestId('wk-confirm-network').textContent).toBe('Hardhat (Chain-ID 31337)');
    expect(within(dialog).getByTestId('wk-confirm-fee').textContent).toBe('bis zu 0,000042 ETH');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Senden' }));
    await screen.findByTestId('wk-tx-hash');
    expect(within(form).getByRole('link', { name: 'Im Block-Explorer ansehen' })).toBeTruthy();
    const sent = client.calls.filter(([name]) => name === 'sendTransaction').map(([, params]) => params);
    expect(sent).toEqual([{ address, chainId: 31337, transaction: { to: getAddress(RECIPIENT), value: 250_000_000_000_000_000n } }]);
  });

  it('given a declined send in German, when the confirmation is closed, then the form says so in German', async () => {
    const { client } = signedIn();
    renderWithKit(<WalletPanel />, client, { locale: 'de' });
    await userEvent.click(await screen.findByRole('tab', { name: 'Senden' }));
    const form = await screen.findByRole('form', { name: 'Senden' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Empfängeradresse' }), RECIPIENT);
    await userEvent.type(within(form).getByRole('textbox', { name: 'Betrag (ETH)' }), '0.1');
    await userEvent.click(within(form).getByRole('button', { name: 'Prüfen und senden' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Schließen und ablehnen' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Du hast die Anfrage abgelehnt.');
  });
});

describe('WalletPanel in Arabic', () => {
  it('given locale "ar", when the panel opens, then it is right to left in Arabic, axe-clean, and the arrow keys follow the mirrored tabs', async () => {
    const { client, address } = signedIn();
    renderWithKit(<WalletPanel />, client, { locale: 'ar' });
    const accounts = await screen.findByRole('tab', { name: 'الحسابات' });
    const region = screen.getByRole('region', { name: 'المحفظة' });
    expect(region.getAttribute('dir')).toBe('rtl');
    expect(region.getAttribute('lang')).toBe('ar');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['الحسابات', 'إرسال', 'استلام', 'توقيع', 'التصدير والاستيراد', 'الأمان']);
    const expected = createTranslator('ar', await loadLocale('ar')).amount(parseEther('1.5'), { decimals: 18, symbol: 'ETH' });
    await waitFor(() => expect(screen.getByTestId('wk-balance').textContent).toBe(expected));
    expect(screen.getByTestId('wk-account-address').textContent).toBe(address); // the address itself is never translated
    await expectNoAxeViolations();
    // In right-to-left, the next tab is to the left.
    accounts.focus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'إرسال' }));
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'الأمان' }).getAttribute('aria-selected')).toBe('true');
  });

  it('given an amount typed in Arabic-Indic digits with the Arabic decimal separator, when sent, then it is the exact amount', async () => {
    const { client } = signedIn();
    renderWithKit(<WalletPanel />, client, { locale: 'ar' });
    await userEvent.click(await screen.findByRole('tab', { name: 'إرسال' }));
    const form = await screen.findByRole('form', { name: 'إرسال' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'عنوان المستلم' }), RECIPIENT);
    await userEvent.type(within(form).getByRole('textbox', { name: 'المبلغ (ETH)' }), '٠٫٢٥');
    await userEvent.click(within(form).getByRole('button', { name: 'مراجعة وإرسال' }));
    const dialog = await screen.findByRole('dialog', { name: 'إرسال هذه المعاملة؟' });
    expect(within(dialog).getByRole('button', { name: 'رفض' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'إرسال' }));
    await screen.findByTestId('wk-tx-hash');
    const sent = client.calls
      .filter(([name]) => name === 'sendTransaction')
      .map(([, params]) => (params as { transaction: { value: bigint } }).transaction.value);
    expect(sent).toEqual([250_000_000_000_000_000n]);
  });
});

describe('the wallet catalog', () => {
  it('given buttons named more fully than their text (which wallet, which key), when read in every language, then the visible words are part of the name (WCAG 2.5.3)', async () => {
    const pairs: Array<[MessageKey, MessageKey]> = [
      ['wallet.addAccount', 'wallet.addAccountTo'],
      ['wallet.exportPhrase', 'wallet.exportPhraseOf'],
      ['wallet.exportKey', 'wallet.exportKeyOf'],
      ['wallet.exportKey', 'wallet.exportPrivateKeyNamed'],
      ['wallet.hide', 'wallet.hidePhraseOf'],
      ['wallet.hide', 'wallet.hideKeyOf'],
      ['wallet.hide', 'wallet.hideNamedKey'],
    ];
    for (const locale of LOCALES) {
      const { t } = createTranslator(locale, await loadLocale(locale));
      for (const [visible, name] of pairs) expect(t(name).toLowerCase(), `${locale} ${name}`).toContain(t(visible).toLowerCase());
    }
  });
});

describe('parseAmountInput', () => {
  it('given amounts as people type them in each locale, when parsed, then exact base units, and grouping or extra decimals refused', () => {
    expect(parseAmountInput('0.25', 18, 'en')).toBe(250_000_000_000_000_000n);
    expect(parseAmountInput('1,000', 18, 'en')).toBeUndefined(); // a thousand or one: refused, not guessed
    expect(parseAmountInput('0,25', 18, 'de')).toBe(250_000_000_000_000_000n);
    expect(parseAmountInput('0.25', 18, 'de')).toBe(250_000_000_000_000_000n);
    expect(parseAmountInput('1,5', 6, 'fr')).toBe(1_500_000n);
    expect(parseAmountInput('١٫٥', 6, 'ar')).toBe(1_500_000n);
    expect(parseAmountInput('۲', 0, 'ar')).toBe(2n);
    expect(parseAmountInput('0,0000001', 6, 'de')).toBeUndefined();
    expect(parseAmountInput('1,2,3', 18, 'de')).toBeUndefined();
  });
});

describe('the decoders in another language', () => {
  it('given a translator, when the pure decoders speak, then their words and dates are that language', async () => {
    const de = createTranslator('de', await loadLocale('de'));
    const ja = createTranslator('ja', await loadLocale('ja'));
    const request: SignatureRequest = { kind: 'message', family: 'ethereum', address: RECIPIENT, message: 'x', origin: undefined };
    expect(requestWording(request, de)).toEqual({ title: 'Diese Nachricht signieren?', approve: 'Signieren' });
    expect(requestWording(request)).toEqual({ title: 'Sign this message?', approve: 'Sign' });
    expect(chainLabel(31337, [hardhat], ja)).toBe('Hardhat（チェーンID 31337）');
    expect(expiryText('block', ja)).toBe('使用されるブロック');
    const allowance = { token: getAddress(RECIPIENT), amount: 1_000_000n, unlimited: false, until: 1_893_456_000n };
    expect(permitSentence('0xSpender', allowance, de)).toBe(
      `Genehmigung: 0xSpender darf 1.000.000 (kleinste Einheiten) von ${getAddress(RECIPIENT)} ausgeben, bis ${new Intl.DateTimeFormat('de', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'UTC',
        timeZoneName: 'short',
      }).format(1_893_456_000_000)}`,
    );
  });
});

function FrameHost({ locale }: { locale: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useFrameLocale(ref, locale, true);
  return <div ref={ref} data-testid="host" />;
}

describe('useFrameLocale', () => {
  it('given a secret frame placed in the host, when it loads and when the language changes, then the frame is told the language at its own origin', async () => {
    const view = render(<FrameHost locale="de" />);
    const posted: Array<[unknown, string]> = [];
    const frame = document.createElement('iframe');
    screen.getByTestId('host').append(frame);
    // A frame on the frames origin (given after it is placed, so its page is not fetched here): its window receives the messages.
    Object.defineProperty(frame, 'src', { value: 'https://frames.example/frames/import?configId=c' });
    Object.defineProperty(frame, 'contentWindow', { value: { postMessage: (data: unknown, origin: string) => posted.push([data, origin]) } });
    await waitFor(() => expect(posted.length).toBeGreaterThan(0)); // found, told at once (dropped by a real frame still loading)
    posted.length = 0;
    frame.dispatchEvent(new Event('load'));
    expect(posted).toEqual([[{ walletkitFrame: 1, type: 'locale', locale: 'de' }, 'https://frames.example']]);
    view.rerender(<FrameHost locale="ar" />);
    expect(posted.at(-1)).toEqual([{ walletkitFrame: 1, type: 'locale', locale: 'ar' }, 'https://frames.example']);
  });

  it('given a frame without a page yet, when found, then nothing is posted anywhere', async () => {
    render(<FrameHost locale="de" />);
    const postMessage = vi.fn();
    const frame = document.createElement('iframe');
    Object.defineProperty(frame, 'contentWindow', { value: { postMessage } });
    screen.getByTestId('host').append(frame);
    await new Promise((r) => setTimeout(r, 0));
    expect(postMessage).not.toHaveBeenCalled();
  });
});
