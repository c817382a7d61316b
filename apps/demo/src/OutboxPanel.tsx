import { useQuery } from '@tanstack/react-query';

interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject?: string | null;
  body: string;
  createdAt: string;
}

/**
 * Dev mode only: the server's OTP outbox (the messages it would have emailed or texted),
 * newest first, polled every two seconds, so a person can log in with no mail server.
 * @example <OutboxPanel url="/__dev/outbox" />
 */
export function OutboxPanel({ url }: { url: string }) {
  const outbox = useQuery({
    queryKey: ['demo', 'outbox', url],
    queryFn: async () => {
      const res = await fetch(`${url}?limit=5`, { cache: 'no-store' });
      if (!res.ok) throw new Error(`outbox answered ${res.status}`);
      return ((await res.json()) as { messages: OutboxMessage[] }).messages;
    },
    refetchInterval: 2000,
  });
  return (
    <aside className="demo-outbox" aria-labelledby="outbox-title">
      <h2 id="outbox-title">Dev outbox</h2>
      <p className="demo-hint">Codes the server would send by email or SMS. Shown in dev mode only.</p>
      {outbox.error && <p role="alert">{outbox.error.message}</p>}
      {outbox.data?.length === 0 && <p className="demo-hint">No messages yet.</p>}
      <ul aria-label="Outbox messages">
        {outbox.data?.map((m) => (
          <li key={m.id} data-testid="outbox-message">
            <strong>
              {m.channel === 'email' ? 'Email' : 'SMS'} to {m.recipient}
            </strong>{' '}
            <time dateTime={m.createdAt}>{new Date(m.createdAt).toLocaleTimeString()}</time>
            <pre>{m.body}</pre>
          </li>
        ))}
      </ul>
    </aside>
  );
}
