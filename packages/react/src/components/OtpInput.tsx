import { useEffect, useId, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useI18n } from '../i18n/context.js';

/** Props of {@link OtpInput}. */
export interface OtpInputProps {
  /** Number of characters (`otpLength` of wallet_kit_config). */
  length: number;
  /** Letters and digits (`otpAlphanumeric`); digits only otherwise. */
  alphanumeric?: boolean | undefined;
  /** Controlled value; leave undefined for an uncontrolled input. */
  value?: string | undefined;
  onChange?: ((value: string) => void) | undefined;
  /** Called once every cell is filled. */
  onComplete?: ((code: string) => void) | undefined;
  /** Shows a resend button, enabled after the countdown. */
  onResend?: (() => void) | undefined;
  /** Countdown before a resend is allowed, in seconds (default 30). */
  resendSeconds?: number | undefined;
  disabled?: boolean | undefined;
  /** A code is being checked: the cells are read-only (focus stays) and the group is `aria-busy`. */
  busy?: boolean | undefined;
  /** Group label (default the catalog's `auth.otpLabel`, "One-time code"). */
  label?: string | undefined;
  /** Move focus to the first cell when the input appears (a step that replaced the form the user was in). */
  focusOnMount?: boolean | undefined;
  /** id of an element describing an error, linked with aria-describedby. */
  errorId?: string | undefined;
}

/**
 * One input per character of a one-time code. Typing moves forward, Backspace moves back,
 * pasting (or an SMS/email autofill into the first cell, `autocomplete="one-time-code"`) fills
 * every cell. Each cell is labelled "Character i of n" (in the kit's language); digits-only codes
 * get the numeric keyboard (`inputMode="numeric"`). Alphanumeric codes are upper-cased (the
 * server's alphabet). The cells run left to right in every language (`dir="ltr"`): a code is
 * read in the order it was written, also in Arabic.
 * @example
 * <OtpInput length={6} onComplete={(code) => complete({ otpId, code })} onResend={resend} />
 */
export function OtpInput(props: OtpInputProps) {
  const { t, number } = useI18n();
  const { length, alphanumeric = false, disabled = false, label = t('auth.otpLabel'), resendSeconds = 30 } = props;
  const [own, setOwn] = useState('');
  const value = (props.value ?? own).slice(0, length);
  // Focus moves inside event handlers, before React re-renders: onFocus reads the latest value here.
  const latest = useRef(value);
  latest.current = value;
  const cells = useRef<Array<HTMLInputElement | null>>([]);
  const labelId = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only
  useEffect(() => {
    if (props.focusOnMount) cells.current[0]?.focus();
  }, []);
  // Never leave a gap, also when the parent clears the code (a wrong one): focus follows the value back.
  useEffect(() => {
    const at = cells.current.indexOf(document.activeElement as HTMLInputElement);
    if (at > value.length) cells.current[value.length]?.focus();
  }, [value]);

  const clean = (text: string) => (alphanumeric ? text.replace(/[^a-z0-9]/gi, '').toUpperCase() : text.replace(/\D/g, ''));

  const commit = (next: string, focusIndex?: number) => {
    if (props.busy) return;
    const v = next.slice(0, length);
    latest.current = v;
    if (props.value === undefined) setOwn(v);
    props.onChange?.(v);
    if (focusIndex !== undefined) cells.current[Math.min(focusIndex, length - 1)]?.focus();
    if (v.length === length && v !== value) props.onComplete?.(v);
  };

  const fillFrom = (index: number, text: string) => {
    const chars = clean(text);
    if (!chars) return;
    // A code of full length always starts at the first cell (paste, autofill).
    const start = chars.length >= length ? 0 : Math.min(index, value.length);
    const next = (value.slice(0, start) + chars + value.slice(start + chars.length)).slice(0, length);
    commit(next, start + chars.length);
  };

  const onKeyDown = (index: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace') {
      e.preventDefault();
      const at = index < value.length ? index : index - 1;
      if (at < 0) return;
      commit(value.slice(0, at) + value.slice(at + 1), at);
    } else if (e.key === 'ArrowLeft' && index > 0) {
      e.preventDefault();
      cells.current[index - 1]?.focus();
    } else if (e.key === 'ArrowRight' && index < Math.min(value.length, length - 1)) {
      e.preventDefault();
      cells.current[index + 1]?.focus();
    }
  };

  const onInput = (index: number, raw: string) => {
    // Mobile keyboards may delete without a Backspace keydown.
    if (raw === '') return commit(value.slice(0, index) + value.slice(index + 1), index);
    // The cell held one character; keep what was typed next to it, or a whole autofilled code.
    const typed = clean(raw).length >= length ? raw : raw.replace(value[index] ?? '', '') || raw;
    fillFrom(index, typed);
  };

  const onPaste = (index: number, e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    fillFrom(index, e.clipboardData.getData('text'));
  };

  return (
    <div className="wk-stack">
      {/* biome-ignore lint/a11y/useSemanticElements: the cells are one labelled group of inputs; a <fieldset> would bring its own border, padding and legend layout */}
      <div role="group" aria-labelledby={labelId} className="wk-otp" dir="ltr" aria-busy={props.busy ? true : undefined}>
        <span id={labelId} className="wk-visually-hidden">
          {label}
        </span>
        {Array.from({ length }, (_, i) => (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: cells are positions (character i of the code), the index is their identity
            key={i}
            ref={(el) => {
              cells.current[i] = el;
            }}
            className="wk-otp-cell"
            type="text"
            inputMode={alphanumeric ? 'text' : 'numeric'}
            pattern={alphanumeric ? '[A-Za-z0-9]*' : '[0-9]*'}
            autoComplete={i === 0 ? 'one-time-code' : 'off'}
            autoCapitalize={alphanumeric ? 'characters' : 'off'}
            spellCheck={false}
            aria-label={t('auth.otpCell', { index: number(i + 1), length: number(length) })}
            aria-describedby={props.errorId}
            aria-invalid={props.errorId ? true : undefined}
            disabled={disabled}
            readOnly={props.busy}
            value={value[i] ?? ''}
            onFocus={(e) => {
              // Never leave a gap: focus lands on the first empty cell.
              const filled = latest.current.length;
              if (i > filled) cells.current[Math.min(filled, length - 1)]?.focus();
              else e.currentTarget.select();
            }}
            onChange={(e) => onInput(i, e.currentTarget.value)}
            onKeyDown={(e) => onKeyDown(i, e)}
            onPaste={(e) => onPaste(i, e)}
          />
        ))}
      </div>
      {props.onResend && <ResendButton seconds={resendSeconds} onResend={props.onResend} disabled={disabled} />}
    </div>
  );
}

function ResendButton({ seconds, onResend, disabled }: { seconds: number; onResend: () => void; disabled: boolean }) {
  const { t, number } = useI18n();
  // A deadline, not a counter: throttled background tabs still show the right time.
  const [until, setUntil] = useState(() => Date.now() + seconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again only when the countdown starts or ends, not every second
  useEffect(() => {
    if (left <= 0) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [left > 0]);
  return (
    <button
      type="button"
      className="wk-button"
      data-variant="ghost"
      disabled={disabled || left > 0}
      onClick={() => {
        const t = Date.now();
        setNow(t);
        setUntil(t + seconds * 1000);
        onResend();
      }}
    >
      {left > 0 ? t('auth.resendIn', { seconds: number(left) }) : t('auth.resend')}
    </button>
  );
}
