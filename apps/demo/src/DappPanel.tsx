import { useState } from 'react';
import { encodeFunctionData, erc20Abi, formatEther, isAddress, maxUint256, parseEther, type Address } from 'viem';
import { useAccount, useBalance, useConnect, useSendTransaction, useWaitForTransactionReceipt } from 'wagmi';
import type { DemoConfig } from './config';

/** Who the demo asks the token allowance for: Uniswap's Permit2 contract, a spender dApps really name. */
const DEMO_SPENDER: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

/**
 * What a dApp does with the embedded wallet, written with wagmi's hooks as any dApp would:
 * connect through the kit's connector, send ETH, ask for a token approval. Every signature
 * opens the kit's confirmation dialog. With a faucet (npm start), a button gets test ETH.
 * @example <DappPanel token={config.token} faucetUrl={config.faucetUrl} />
 */
export function DappPanel({ token, faucetUrl }: Pick<DemoConfig, 'token' | 'faucetUrl'>) {
  const account = useAccount();
  const { connect, connectors, error: connectError } = useConnect();
  const balance = useBalance({ address: account.address, query: { enabled: account.isConnected, refetchInterval: 4000 } });
  const send = useSendTransaction();
  const receipt = useWaitForTransactionReceipt({ hash: send.data, query: { enabled: send.data !== undefined } });
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('0.01');
  const [funding, setFunding] = useState<string>();
  const kitConnector = connectors.find((c) => c.id === 'walletKit');

  if (!account.isConnected) {
    return (
      <section className="demo-card" aria-labelledby="dapp-title">
        <h2 id="dapp-title">A dApp with wagmi</h2>
        <p className="demo-hint">This part of the page is a dApp: it talks to the wallet through wagmi and the kit's connector.</p>
        <button type="button" className="demo-primary" disabled={!kitConnector} onClick={() => kitConnector && connect({ connector: kitConnector })}>
          Connect with wagmi
        </button>
        {connectError && <p role="alert">{connectError.message}</p>}
      </section>
    );
  }

  const validTo = isAddress(to);
  const fund = async () => {
    setFunding('Asking the faucet…');
    const res = await fetch(faucetUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: account.address }),
    });
    setFunding(res.ok ? 'Received 1 test ETH.' : 'The faucet is not available.');
    void balance.refetch();
  };
  const approveUnlimited = () =>
    send.sendTransaction({
      to: token!.address as Address,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEMO_SPENDER, maxUint256] }),
    });

  return (
    <section className="demo-card" aria-labelledby="dapp-title">
      <h2 id="dapp-title">A dApp with wagmi</h2>
      <p>
        Connected through wagmi as <code data-testid="dapp-address">{account.address}</code> on chain <span data-testid="dapp-chain">{account.chainId}</span>.
      </p>
      <p>
        Balance: <span data-testid="dapp-balance">{balance.data ? `${formatEther(balance.data.value)} ETH` : '…'}</span>
      </p>
      {faucetUrl && (
        <p>
          <button type="button" className="demo-secondary" onClick={() => void fund()}>
            Get 1 test ETH
          </button>{' '}
          {funding && <span role="status">{funding}</span>}
        </p>
      )}
      <form
        className="demo-form"
        aria-label="Send with wagmi"
        onSubmit={(e) => {
          e.preventDefault();
          if (validTo) send.sendTransaction({ to: to as Address, value: parseEther(amount) });
        }}
      >
        <label>
          To <input name="to" value={to} onChange={(e) => setTo(e.currentTarget.value.trim())} placeholder="0x…" spellCheck={false} />
        </label>
        <label>
          Amount (ETH) <input name="amount" value={amount} onChange={(e) => setAmount(e.currentTarget.value)} inputMode="decimal" />
        </label>
        <button type="submit" className="demo-primary" disabled={!validTo || send.isPending}>
          Send with wagmi
        </button>
      </form>
      {token && (
        <button type="button" className="demo-secondary" disabled={send.isPending} onClick={approveUnlimited}>
          Approve unlimited {token.symbol}
        </button>
      )}
      {send.error && <p role="alert">{send.error.message.split('\n')[0]}</p>}
      {send.data && (
        <p role="status">
          Transaction <code data-testid="dapp-tx-hash">{send.data}</code>:{' '}
          <strong data-testid="dapp-tx-status">{receipt.data ? receipt.data.status : 'pending'}</strong>
        </p>
      )}
    </section>
  );
}
