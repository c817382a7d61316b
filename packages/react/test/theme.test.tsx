// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Modal } from '../src/components/Modal';
import { injectWalletKitStyles, walletKitCss } from '../src/theme/styles';
import { createFakeClient } from './support/fake-client';
import { renderWithKit } from './support/render';
import { WalletPanel } from '../src/wallet/WalletPanel';

afterEach(cleanup);

/** Selectors of every style rule, descending into @media blocks. */
function selectors(css: string): string[] {
  const out: string[] = [];
  const walk = (text: string) => {
    let i = 0;
    while (i < text.length) {
      const open = text.indexOf('{', i);
      if (open < 0) break;
      const prelude = text.slice(i, open).trim();
      let depth = 1;
      let j = open + 1;
      while (depth > 0 && j < text.length) {
        depth += text[j] === '{' ? 1 : text[j] === '}' ? -1 : 0;
        j++;
      }
      const body = text.slice(open + 1, j - 1);
      if (prelude.startsWith('@')) walk(body);
      else out.push(...prelude.split(',').map((s) => s.trim()));
      i = j;
    }
  };
  walk(css);
  return out;
}

describe('theme and scoping', () => {
  it('given the stylesheet, when parsed, then every selector starts with .wk-root', () => {
    const all = selectors(walletKitCss);
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((s) => !s.startsWith('.wk-root'))).toEqual([]);
  });

  it('given the stylesheet, then the theme variables exist with light, dark and prefers-color-scheme values', () => {
    for (const v of ['--wk-bg', '--wk-fg', '--wk-accent', '--wk-radius', '--wk-border', '--wk-danger', '--wk-font']) expect(walletKitCss).toContain(`${v}:`);
    expect(walletKitCss).toMatch(/\.wk-root\[data-theme="dark"\]\{--wk-bg:#111827/);
    expect(walletKitCss).toMatch(/@media \(prefers-color-scheme: dark\)\{\.wk-root:not\(\[data-theme="light"\]\)\{--wk-bg:#111827/);
  });

  it('given several kit components, when rendered, then one <style data-walletkit> is injected', () => {
    render(
      <>
        <Modal open title="A" onClose={() => undefined} />
        <Modal open title="B" onClose={() => undefined} />
      </>,
    );
    injectWalletKitStyles();
    const styles = document.head.querySelectorAll('style[data-walletkit]');
    expect(styles).toHaveLength(1);
    expect(styles[0]!.textContent).toBe(walletKitCss);
  });

  it('given a dark provider theme, when a kit root renders, then it carries wk-root and data-theme="dark"', async () => {
    const client = createFakeClient();
    client.login();
    renderWithKit(<WalletPanel />, client, { theme: 'dark' });
    const panel = await screen.findByRole('region', { name: 'Wallet' });
    expect(panel.classList.contains('wk-root')).toBe(true);
    expect(panel.getAttribute('data-theme')).toBe('dark');
  });
});
