import { useState } from 'react';
import { QrCode } from './QrCode.js';

/**
 * Receive: the account's address in full, a copy button, and a QR code of it for a phone's
 * wallet to scan.
 * @example <ReceivePanel address={address} />
 */
export function ReceivePanel({ address }: { address: string }) {
  const [copy, setCopy] = useState<'copied' | 'failed'>();
  const copyAddress = () =>
    navigator.clipboard?.writeText(address).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    ) ?? setCopy('failed');
  return (
    <div className="wk-stack">
      <p className="wk-hint">Share this address to receive funds on this account.</p>
      <p className="wk-code" data-testid="wk-receive-address">
        {address}
      </p>
      <div className="wk-row">
        <button type="button" className="wk-button" onClick={copyAddress}>
          Copy address
        </button>
        <span className="wk-hint" role="status">
          {copy === 'copied' ? 'Address copied.' : copy === 'failed' ? 'Copying failed: select the address and copy it.' : ''}
        </span>
      </div>
      <QrCode value={address} label={`QR code of ${address}`} />
    </div>
  );
}
