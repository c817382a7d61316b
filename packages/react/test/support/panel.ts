/**
 * Steps on the wallet panel as a user takes them (roles and names): open a screen by its tab,
 * choose an account in the Accounts screen's select, read the listed addresses.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';

/** The panel's region (its accessible name is "Wallet" in English). */
export const walletRegion = (name = 'Wallet') => screen.findByRole('region', { name });

/** Open a screen of the panel by its tab, and return its panel. */
export async function openScreen(name: string): Promise<HTMLElement> {
  const tab = await screen.findByRole('tab', { name });
  await userEvent.click(tab);
  expect(tab.getAttribute('aria-selected')).toBe('true');
  return screen.getByRole('tabpanel', { name });
}

/** The Accounts screen's account select. */
export const accountSelect = (name = 'Account') => screen.findByRole<HTMLSelectElement>('combobox', { name });

/** The addresses the Accounts screen offers, waiting for at least `min`. */
export async function listedAddresses(min = 1): Promise<string[]> {
  const select = await accountSelect();
  await waitFor(() => expect(select.options.length).toBeGreaterThanOrEqual(min));
  return [...select.options].map((o) => o.value);
}

/** Choose `address` in the Accounts screen (opening it first). */
export async function chooseAccount(address: string, tab = 'Accounts'): Promise<void> {
  await openScreen(tab);
  const select = await accountSelect();
  await waitFor(() => expect([...select.options].map((o) => o.value)).toContain(address));
  await userEvent.selectOptions(select, address);
}

/** The text of the element with `testId` inside `root`. */
export const textOf = (root: HTMLElement, testId: string) => within(root).getByTestId(testId).textContent;
