import { useEffect, useState } from 'react';

/** "14:05" from milliseconds, rounded up to the second. */
function formatLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/**
 * Time left in the session, updated every second. `now` is injectable for tests.
 * @example <SessionCountdown expiresAt={session.expiresAt} />
 */
export function SessionCountdown({ expiresAt, now = Date.now }: { expiresAt: number; now?: () => number }) {
  const [left, setLeft] = useState(() => expiresAt - now());
  useEffect(() => {
    setLeft(expiresAt - now());
    const t = setInterval(() => setLeft(expiresAt - now()), 1000);
    return () => clearInterval(t);
  }, [expiresAt, now]);
  return (
    <p className="wk-hint" data-testid="wk-session-countdown">
      {left > 0 ? `Session expires in ${formatLeft(left)}` : 'Session expired'}
    </p>
  );
}
