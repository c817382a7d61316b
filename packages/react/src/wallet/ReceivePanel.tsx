import { useI18n } from '../i18n/context.js';
import { useChains } from '../provider/hooks.js';
import { isEthereumAddress } from './address.js';
import { CopyButton } from './CopyButton.js';
import { QrCode } from './QrCode.js';

/**
 * Receive: the account's address in full, a copy button (announced once copied), and a QR code
 * of it for a phone's wallet to scan, with the network to send on.
 * @example <ReceivePanel address={address} />
 */
export function ReceivePanel({ address }: { address: string }) {
  const { t } = useI18n();
  const { chains, selectedId } = useChains();
  const network = isEthereumAddress(address) ? chains.find((c) => c.id === selectedId)?.name : undefined;
  return (
    <div className="wk-stack wk-receive">
      <p className="wk-hint">{network ? t('wallet.receiveOn', { network }) : t('wallet.receiveHint')}</p>
      <div className="wk-qr">
        <QrCode value={address} label={t('wallet.qrLabel', { address })} />
      </div>
      <p className="wk-code wk-address" data-testid="wk-receive-address">
        {address}
      </p>
      <div className="wk-row">
        <CopyButton text={address} label={t('wallet.copyAddress')} copied={t('wallet.addressCopied')} failed={t('wallet.copyFailed')} />
      </div>
    </div>
  );
}
