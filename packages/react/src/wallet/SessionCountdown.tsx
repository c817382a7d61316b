import { useEffect, useState } from 'react';
import type { Translator } from '../i18n/catalog.js';
import { useI18n } from '../i18n/context.js';

/** "14:05" from milliseconds, rounded up to the second, in the locale's digits. */
function formatLeft(ms: number, translator: Translator): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = translator.number(Math.floor(total / 60));
  const seconds = translator.number(total % 60, { minimumIntegerDigits: 2 });
  return `${minutes}:${seconds}`;
}

/**
 * Time left in the session, updated every second. `now` is injectable for tests.
 * @example <SessionCountdown expiresAt={session.expiresAt} />
 */
export function SessionCountdown({ expiresAt, now = Date.now }: { expiresAt: number; now?: () => number }) {
  const translator = useI18n();
  const [left, setLeft] = useState(() => expiresAt - now());
  useEffect(() => {
    setLeft(expiresAt - now());
    const t = setInterval(() => setLeft(expiresAt - now()), 1000);
    return () => clearInterval(t);
  }, [expiresAt, now]);
  return (
    <p className="wk-hint wk-countdown" data-testid="wk-session-countdown">
      {left > 0 ? translator.t('wallet.sessionExpiresIn', { time: formatLeft(left, translator) }) : translator.t('wallet.sessionExpired')}
    </p>
  );
}
