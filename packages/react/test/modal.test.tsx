// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '../src/components/ConfirmDialog';
import { Modal } from '../src/components/Modal';
import { I18nProvider } from '../src/i18n/context';
import { expectNoAxeViolations, failOnConsoleError } from './support/render';

failOnConsoleError();
afterEach(cleanup);

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <main>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title="Log in to Demo">
        <input aria-label="Email" />
      </Modal>
    </main>
  );
}

describe('Modal', () => {
  it('given a closed modal, when opened, then a modal dialog labelled by its title shows, axe-clean', async () => {
    render(<Opener />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Log in to Demo' }) as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    expect(dialog.classList.contains('wk-root')).toBe(true);
    expect(dialog.getAttribute('data-state')).toBe('open');
    await expectNoAxeViolations();
  });

  it('given an open modal, when Escape is pressed, then it closes and focus returns to the opener', async () => {
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await userEvent.click(opener);
    await userEvent.click(screen.getByRole('textbox', { name: 'Email' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('given an open modal, when the close button is used from the keyboard, then it closes and focus returns', async () => {
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    screen.getByRole('button', { name: 'Close' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('Modal brand and language', () => {
  it('given a brand and the kit in Arabic, when opened, then the brand shows above the title, the close button is named in Arabic, and the dialog is right to left', async () => {
    render(
      <I18nProvider locale="ar">
        <Modal open onClose={() => undefined} title="عنوان" brand={<span>Acme</span>} className="wk-auth">
          <p>body</p>
        </Modal>
      </I18nProvider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'عنوان' });
    expect(dialog.classList.contains('wk-auth')).toBe(true);
    await screen.findByRole('button', { name: 'إغلاق' });
    expect(dialog.getAttribute('dir')).toBe('rtl');
    const header = dialog.querySelector('.wk-dialog-header')!;
    expect([...header.children].map((c) => c.textContent)).toEqual(['Acme', 'عنوان', '×']);
    await expectNoAxeViolations();
  });
});

describe('ConfirmDialog', () => {
  it('given a message to sign, when shown, then it displays exactly that message and confirms or cancels', async () => {
    const message = 'Sign in to Demo\nnonce: 42  <b>not html</b>';
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<ConfirmDialog open title="Sign this message?" content={message} confirmLabel="Sign" onConfirm={onConfirm} onCancel={onCancel} />);
    expect(screen.getByRole('dialog', { name: 'Sign this message?' })).toBeTruthy();
    expect(screen.getByTestId('wk-confirm-content').textContent).toBe(message);
    await userEvent.click(screen.getByRole('button', { name: 'Sign' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).toHaveBeenCalledTimes(1);
    await expectNoAxeViolations();
  });
});
