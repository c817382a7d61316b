import { useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import type { ChainConfig } from '@walletkit/client';
import type { ConfirmationQueue } from './queue.js';
import type { SignatureRequestDialogProps } from './SignatureRequestDialog.js';

/**
 * The confirmation dialog bound to a {@link ConfirmationQueue}: shows the request at the head,
 * approve or decline settles it, and the next one (if any) takes its place. The dialog and its
 * decoders load after the first render, apart from the kit's first chunk (decision 0016): a
 * request that arrives sooner waits for them. Should they fail to load, requests are declined
 * (`ERR_USER_REJECTED`) rather than left waiting for an answer nobody can give.
 * @example <ConfirmationQueueDialog queue={queue} chains={chains} />
 */
export function ConfirmationQueueDialog({ queue, chains }: { queue: ConfirmationQueue; chains?: readonly ChainConfig[] | undefined }) {
  const request = useSyncExternalStore(queue.subscribe, queue.current, queue.current);
  const size = useSyncExternalStore(queue.subscribe, queue.size, queue.size);
  const [Dialog, setDialog] = useState<ComponentType<SignatureRequestDialogProps> | 'failed'>();
  useEffect(() => {
    let live = true;
    import('./SignatureRequestDialog.js').then(
      (m) => live && setDialog(() => m.SignatureRequestDialog),
      () => live && setDialog('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (Dialog === 'failed' && request) queue.declineAll();
  }, [Dialog, request, queue]);
  if (Dialog === undefined || Dialog === 'failed') return null;
  return <Dialog request={request} onApprove={queue.approve} onDecline={queue.decline} chains={chains} waiting={Math.max(0, size - 1)} />;
}
