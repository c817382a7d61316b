// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OtpInput } from '../src/components/OtpInput';
import { I18nProvider } from '../src/i18n/context';
import { expectNoAxeViolations, failOnConsoleError } from './support/render';

failOnConsoleError();
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const cells = () => screen.getAllByRole('textbox') as HTMLInputElement[];
const code = () =>
  cells()
    .map((c) => c.value)
    .join('');

/** An OtpInput whose value its parent owns, with a button that clears it. */
function Controlled() {
  const [v, setV] = useState('');
  return (
    <>
      <OtpInput length={4} value={v} onChange={setV} />
      <button type="button" onClick={() => setV('')}>
        clear
      </button>
    </>
  );
}

/** Clears the code once complete, as the code step does after a wrong code: focus is left where it was. */
function ClearsWrongCode() {
  const [v, setV] = useState('');
  return <OtpInput length={4} value={v} onChange={setV} onComplete={() => setTimeout(() => setV(''), 0)} />;
}

describe('OtpInput', () => {
  it('given a 6-digit config, when rendered, then it has 6 labelled numeric cells and one-time-code autocomplete on the first only', async () => {
    render(<OtpInput length={6} />);
    expect(cells()).toHaveLength(6);
    expect(cells().map((c) => c.getAttribute('aria-label'))).toEqual([1, 2, 3, 4, 5, 6].map((i) => `Character ${i} of 6`));
    expect(cells().map((c) => c.getAttribute('autocomplete'))).toEqual(['one-time-code', 'off', 'off', 'off', 'off', 'off']);
    expect(cells().every((c) => c.inputMode === 'numeric')).toBe(true);
    expect(screen.getByRole('group', { name: 'One-time code' })).toBeTruthy();
    await expectNoAxeViolations();
  });

  it('given an alphanumeric config, when letters are typed, then they are kept upper-cased and the keyboard is text', async () => {
    render(<OtpInput length={4} alphanumeric />);
    expect(cells()[0]!.inputMode).toBe('text');
    await userEvent.click(cells()[0]!);
    await userEvent.keyboard('a9k!z');
    expect(code()).toBe('A9KZ');
  });

  it('given digits typed one by one, when the last cell fills, then focus advanced each time and onComplete gets the code once', async () => {
    const onComplete = vi.fn();
    render(<OtpInput length={6} onComplete={onComplete} />);
    await userEvent.click(cells()[0]!);
    await userEvent.keyboard('12x3');
    expect(code()).toBe('123');
    expect(document.activeElement).toBe(cells()[3]);
    await userEvent.keyboard('456');
    expect(code()).toBe('123456');
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(onComplete).toHaveBeenCalledWith('123456');
  });

  it('given a pasted code, when pasted into any cell, then every cell fills and onComplete fires', async () => {
    const onComplete = vi.fn();
    render(<OtpInput length={6} onComplete={onComplete} />);
    await userEvent.click(cells()[0]!);
    await userEvent.paste(' 987 654 ');
    expect(code()).toBe('987654');
    expect(onComplete).toHaveBeenCalledWith('987654');
  });

  it('given a filled prefix, when Backspace is pressed, then the last character is removed and focus moves back', async () => {
    render(<OtpInput length={6} />);
    await userEvent.click(cells()[0]!);
    await userEvent.keyboard('1234');
    await userEvent.keyboard('{Backspace}');
    expect(code()).toBe('123');
    expect(document.activeElement).toBe(cells()[3]);
    await userEvent.keyboard('{Backspace}{Backspace}');
    expect(code()).toBe('1');
    expect(document.activeElement).toBe(cells()[1]);
  });

  it('given a controlled value, when the parent clears it, then the cells clear', async () => {
    render(<Controlled />);
    await userEvent.click(cells()[0]!);
    await userEvent.keyboard('12');
    await userEvent.click(screen.getByRole('button', { name: 'clear' }));
    expect(code()).toBe('');
  });

  it('given a resend countdown of 3 s, when time passes, then the button enables and a click restarts it', () => {
    vi.useFakeTimers();
    const onResend = vi.fn();
    render(<OtpInput length={6} onResend={onResend} resendSeconds={3} />);
    const button = () => screen.getByRole('button') as HTMLButtonElement;
    expect(button().textContent).toBe('Resend code in 3s');
    expect(button().disabled).toBe(true);
    act(() => vi.advanceTimersByTime(1000));
    expect(button().textContent).toBe('Resend code in 2s');
    act(() => vi.advanceTimersByTime(2000));
    expect(button().textContent).toBe('Resend code');
    fireEvent.click(button());
    expect(onResend).toHaveBeenCalledTimes(1);
    expect(button().textContent).toBe('Resend code in 3s');
  });

  it('given focusOnMount, when the input appears, then the first cell has focus; a code being checked keeps the cells read-only with focus kept', async () => {
    const { rerender } = render(<OtpInput length={4} focusOnMount />);
    expect(document.activeElement).toBe(cells()[0]);
    await userEvent.keyboard('12');
    rerender(<OtpInput length={4} focusOnMount busy />);
    expect(screen.getByRole('group').getAttribute('aria-busy')).toBe('true');
    expect(cells().every((c) => c.readOnly && !c.disabled)).toBe(true);
    await userEvent.keyboard('34{Backspace}');
    expect(code()).toBe('12');
    expect(document.activeElement).toBe(cells()[2]);
  });

  it('given a full code the parent clears (a wrong code), when cleared, then focus follows back to the first cell', async () => {
    render(<ClearsWrongCode />);
    await userEvent.click(cells()[0]!);
    await userEvent.keyboard('1234');
    await waitFor(() => expect(code()).toBe(''));
    expect(document.activeElement).toBe(cells()[0]);
  });

  it('given the kit in German, when rendered, then the group, the cells and the resend button speak German, and the cells run left to right', async () => {
    render(
      <I18nProvider locale="de">
        <OtpInput length={6} onResend={() => undefined} />
      </I18nProvider>,
    );
    expect(await screen.findByRole('group', { name: 'Einmalcode' })).toBeTruthy();
    expect(cells()[0]!.getAttribute('aria-label')).toBe('Zeichen 1 von 6');
    expect(screen.getByRole('button').textContent).toBe('Code erneut senden in 30 s');
    expect(screen.getByRole('group').getAttribute('dir')).toBe('ltr');
  });
});
