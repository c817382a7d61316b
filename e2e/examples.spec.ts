/**
 * The example apps as integrators build them (examples/vite, examples/nextjs), installed from the
 * packed tarballs and built by examples/test: one email sign-up each, in Chromium, against the
 * real server, through the kit's modal to the wallet panel with a wallet address.
 */
import { accountAddresses, expect, logInWithEmail, test, uniqueEmail } from './support/fixtures';

for (const app of ['vite', 'nextjs'] as const) {
  test(`given the ${app} example installed from the tarballs, when a new user signs up with an emailed code, then the kit's wallet panel shows their new address`, async ({
    page,
    inbox,
    stack,
  }) => {
    if ('missing' in stack.examples) throw new Error(stack.examples.missing);
    const url = stack.examples[app];
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await logInWithEmail(page, inbox, url, uniqueEmail(`example-${app}`));
    if (app === 'nextjs') await expect(page).toHaveURL(`${url}/wallet`);
    const [address] = await accountAddresses(page);
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // The session survives a reload (server-rendered page, then the kit restores it in the browser).
    await page.reload();
    expect(await accountAddresses(page)).toEqual([address]);
    expect(errors).toEqual([]);
  });
}
