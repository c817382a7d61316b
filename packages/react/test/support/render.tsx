/**
 * Rendering helpers for component tests: a fresh QueryClient (no retries) and the provider
 * over an injected client (with the client's confirmation queue, when it has one, wired to the
 * kit's dialog as `WalletKitProvider` does), axe with zero violations, and a console.error spy.
 */
import { QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import axe from 'axe-core';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, expect, vi, type MockInstance } from 'vitest';
import type { WalletKitClientLike } from '../../src/client-contract';
import type { ConfirmationQueue } from '../../src/confirm/queue';
import { WalletKitClientProvider, type WalletKitClientProviderProps } from '../../src/provider/WalletKitClientProvider';

export function renderWithKit(
  ui: ReactNode,
  client: WalletKitClientLike & { confirmations?: ConfirmationQueue },
  props: Omit<WalletKitClientProviderProps, 'client' | 'children'> = {},
): RenderResult & { queryClient: QueryClient } {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const confirmations = props.confirmations ?? client.confirmations;
  const result = render(
    <WalletKitClientProvider client={client} queryClient={queryClient} {...props} {...(confirmations ? { confirmations } : {})}>
      {ui}
    </WalletKitClientProvider>,
  );
  return { ...result, queryClient };
}

/** Run axe on `node` (the whole document by default) and expect no violations. */
export async function expectNoAxeViolations(node: Element = document.body): Promise<void> {
  // `region` (content inside landmarks) is the host page's job, not a component's.
  const result = await axe.run(node, { rules: { region: { enabled: false } } });
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
}

/** Fail the test when React or the kit logs an error. */
export function failOnConsoleError(): void {
  let spy: MockInstance;
  beforeEach(() => {
    spy = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
}
