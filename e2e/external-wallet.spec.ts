/** External wallet login through an injected EIP-1193 provider announced with EIP-6963. */
import { hexToString, verifyMessage } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { accountAddresses, authDialog, expect, expectWallet, logOut, openLogin, signMessage, test } from './support/fixtures';

test('given an injected EIP-1193 wallet, when the user continues with it twice, then it signs only the login, the session signs, and the same account comes back', async ({
  page,
  stack,
}) => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const signed: string[] = [];
  // The wallet's key stays in the test: the page's provider asks it to sign.
  await page.exposeFunction('__e2eWalletSign', async (hex: `0x${string}`) => {
    signed.push(hexToString(hex));
    return wallet.signMessage({ message: { raw: hex } });
  });
  await page.addInitScript((address: string) => {
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
        if (method === 'eth_chainId') return '0x1';
        if (method === 'personal_sign') return (window as unknown as { __e2eWalletSign(h: string): Promise<string> }).__e2eWalletSign(String(params?.[0]));
        throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 });
      },
    };
    const icon =
      'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" width="24" height="24"%3E%3Crect width="24" height="24" fill="%234338ca"/%3E%3C/svg%3E';
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', {
          detail: Object.freeze({ info: { uuid: '9b7c3a52-1f6e-4d2a-8c3e-5a1b2c3d4e5f', name: 'E2E Wallet', icon, rdns: 'test.walletkit.e2e' }, provider }),
        }),
      );
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
  }, wallet.address);

  await openLogin(page, stack.demo.main);
  await authDialog(page).getByRole('button', { name: 'Continue with E2E Wallet' }).click();
  await expectWallet(page);
  // The wallet signed (EIP-191) the public-key reveal for the signup and the stamped
  // stamp_login body, nothing else.
  expect(signed[0]).toBe('walletkit: reveal public key');
  const bodies = signed.slice(1).map((s) => JSON.parse(s) as { type?: string });
  expect(bodies.map((b) => b.type)).toContain('ACTIVITY_TYPE_STAMP_LOGIN');

  const [address] = await accountAddresses(page);
  const signature = await signMessage(page, address!, 'signed by the embedded wallet');
  expect(await verifyMessage({ address: address as `0x${string}`, message: 'signed by the embedded wallet', signature })).toBe(true);

  await page.reload();
  await expectWallet(page);
  await logOut(page);
  await openLogin(page, stack.demo.main);
  await authDialog(page).getByRole('button', { name: 'Continue with E2E Wallet' }).click();
  await expectWallet(page);
  expect(await accountAddresses(page)).toEqual([address]);
});

test('given no browser wallet in the page, when the modal opens, then no wallet takes a slot (not even a "no wallet found" line), and the kit does not list itself', async ({
  page,
  stack,
}) => {
  await openLogin(page, stack.demo.main);
  const dialog = authDialog(page);
  await expect(dialog.getByLabel('Email')).toBeVisible();
  // Wallet discovery waits for announcements (200 ms); give it more.
  await page.waitForTimeout(500);
  await expect(dialog.getByText(/browser wallet/i)).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /wallet/i })).toHaveCount(0);
});
