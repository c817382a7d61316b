/**
 * The kit in another language, end to end: the demo with `?locale=de` (the kit's German
 * catalog, loaded on demand) and a new user's email sign-up through the modal, with a typo and a
 * wrong code on the way, every text of the modal read in German.
 */
import { expect, test, uniqueEmail } from './support/fixtures';

test('given the demo in German, when a new user signs up with an emailed code after a typo and a wrong code, then every step speaks German and the wallet is reached', async ({
  page,
  inbox,
  stack,
}) => {
  const email = uniqueEmail('locale-de');
  await page.goto(`${stack.demo.main}/?locale=de`);
  // The demo's own landing page is English; the kit's modal is German.
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Anmelden oder registrieren' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('lang', 'de');
  await expect(dialog.getByText('walletkit demo')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Schließen' })).toBeVisible();
  await expect(dialog.getByText('oder', { exact: true })).toBeVisible();
  for (const name of [
    'Weiter mit Telefonnummer',
    'Mit Passkey anmelden',
    'Konto mit Passkey erstellen',
    'Weiter mit Google',
    'Weiter mit X',
    'Weiter mit Discord',
  ]) {
    await expect(dialog.getByRole('button', { name, exact: true })).toBeVisible();
  }

  await dialog.getByLabel('E-Mail').fill('tippfehler@example');
  await dialog.getByRole('button', { name: 'Weiter', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Gib eine gültige E-Mail-Adresse ein, z. B. name@beispiel.de.');

  const since = Date.now();
  await dialog.getByLabel('E-Mail').fill(email);
  await dialog.getByRole('button', { name: 'Weiter', exact: true }).click();
  await expect(dialog.getByText(`Gib den Code ein, den wir an ${email} gesendet haben.`)).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'Einmalcode' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Code erneut senden in \d+ s$/ })).toBeDisabled();
  const code = await inbox.code(email, since);

  // The code step focuses its first cell: type right away.
  const first = dialog.getByRole('textbox', { name: `Zeichen 1 von ${code.length}` });
  await expect(first).toBeFocused();
  await page.keyboard.type(code.replace(/\d/g, (d) => String((Number(d) + 1) % 10)));
  await expect(dialog.getByRole('alert')).toHaveText('Falscher Code. Noch 2 Versuche.');
  await expect(first).toBeFocused();
  await page.keyboard.type(code);
  await expect(dialog.getByRole('status')).toHaveText('Du bist angemeldet.');

  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toBeHidden();
  // The wallet panel is the kit's too: German as well.
  await expect(page.locator('.wk-root[lang="de"]').first()).toBeVisible();
});
