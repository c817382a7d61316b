// @vitest-environment happy-dom
/**
 * The kit's one confirmation dialog: every kind of SignatureRequest rendered in words (what a
 * person must read before approving), axe-clean; and the queue behind it, through the provider
 * and an injected client that asks its Confirmer before signing as the real one does: decline
 * is ERR_USER_REJECTED, requests come one at a time in order.
 */
import type { SignatureRequest } from '@walletkit/client';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encodeFunctionData, erc20Abi, maxUint256, verifyMessage } from 'viem';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConfirmationQueue } from '../src/confirm/queue';
import { SignatureRequestDialog } from '../src/confirm/SignatureRequestDialog';
import { useWalletKit, type WalletKit } from '../src/provider/useWalletKit';
import { createFakeClient, hardhat } from './support/fake-client';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';
import { permit2Domain, permit2Types } from './support/permit2';

failOnConsoleError();
afterEach(cleanup);

const ORIGIN = 'https://app.example';
const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const SPENDER = '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD';
const RECIPIENT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

function transaction(
  fields: { to: string | null; value?: bigint; data?: string; authorizationList?: Array<{ chainId: number; address: string; nonce: bigint }> },
  send = true,
): SignatureRequest {
  return {
    kind: 'transaction',
    address: FROM,
    origin: ORIGIN,
    chain: hardhat,
    send,
    maxFee: 100_000n * 2_000_000_000n,
    transaction: {
      type: fields.authorizationList ? 'eip7702' : 'eip1559',
      chainId: 31337,
      nonce: 7n,
      to: fields.to,
      value: fields.value ?? 0n,
      data: fields.data ?? '0x',
      gas: 100_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      ...(fields.authorizationList ? { authorizationList: fields.authorizationList } : {}),
    },
  };
}

/** Render one request; resolves once its details (loaded lazily) are on screen. */
async function show(request: SignatureRequest) {
  const onApprove = vi.fn();
  const onDecline = vi.fn();
  render(
    <main>
      <SignatureRequestDialog request={request} onApprove={onApprove} onDecline={onDecline} chains={[hardhat]} />
    </main>,
  );
  await screen.findByTestId('wk-confirm-approve');
  return { dialog: screen.getByRole('dialog'), onApprove, onDecline };
}

const text = (el: HTMLElement, testId: string) => within(el).getByTestId(testId).textContent;

describe('SignatureRequestDialog renders every kind in words', () => {
  it('given an ERC-20 transfer to send, when shown, then network, from, token, recipient, exact amount and fee are spelled out, axe-clean', async () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [RECIPIENT, 2_500_000n] });
    const { dialog } = await show(transaction({ to: TOKEN, data }));
    expect(screen.getByRole('dialog', { name: 'Send this transaction?' })).toBe(dialog);
    expect(text(dialog, 'wk-confirm-origin')).toBe(ORIGIN);
    expect(text(dialog, 'wk-confirm-network')).toBe('Hardhat (chain id 31337)');
    expect(within(dialog).getByText(FROM)).toBeTruthy();
    expect(text(dialog, 'wk-confirm-to')).toBe(TOKEN);
    expect(text(dialog, 'wk-confirm-value')).toBe('0 ETH');
    expect(text(dialog, 'wk-confirm-fee')).toBe('up to 0.0002 ETH');
    expect(within(dialog).getByRole('heading', { name: 'Token transfer' })).toBeTruthy();
    expect(within(dialog).getByText(RECIPIENT)).toBeTruthy();
    expect(text(dialog, 'wk-confirm-amount')).toBe("2,500,000 (in the token's smallest unit)"); // exact, grouped for reading
    expect(within(dialog).queryByTestId('wk-confirm-warning')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeTruthy();
    await expectNoAxeViolations();
  });

  it('given an unlimited ERC-20 approve, when shown, then the spender and "Unlimited" show with the unlimited-approval warning', async () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [SPENDER, maxUint256] });
    const { dialog } = await show(transaction({ to: TOKEN, data }, false));
    expect(screen.getByRole('dialog', { name: 'Sign this transaction?' })).toBe(dialog);
    expect(within(dialog).getByRole('heading', { name: 'Token approval' })).toBeTruthy();
    expect(within(dialog).getByText(SPENDER)).toBeTruthy();
    expect(text(dialog, 'wk-confirm-amount')).toBe('Unlimited');
    const warning = within(dialog).getByTestId('wk-confirm-warning').textContent!;
    expect(warning).toMatch(/^Unlimited approval\./);
    expect(warning).toContain(`${SPENDER} will be able to spend all of this token`);
    await expectNoAxeViolations();
  });

  it('given a native transfer and an unknown contract call, when shown, then the value is in ETH and the call by selector and size, raw data folded', async () => {
    const { dialog } = await show(transaction({ to: RECIPIENT, value: 10n ** 16n + 1n, data: `0xdeadbeef${'00'.repeat(32)}` }));
    expect(text(dialog, 'wk-confirm-value')).toBe('0.010000000000000001 ETH');
    expect(within(dialog).getByRole('heading', { name: 'Contract call' })).toBeTruthy();
    expect(within(dialog).getByText('0xdeadbeef')).toBeTruthy();
    expect(text(dialog, 'wk-confirm-data-size')).toBe('36 bytes');
    const details = dialog.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Raw data');
  });

  it('given an EIP-2612 permit, when shown, then "Permit: <spender> may spend <amount> of <token> until <date>" and the warning when unlimited', async () => {
    const { dialog } = await show({
      kind: 'typedData',
      address: FROM,
      origin: ORIGIN,
      typedData: {
        domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: TOKEN },
        types: {
          Permit: [
            { name: 'owner', type: 'address' },
            { name: 'spender', type: 'address' },
            { name: 'value', type: 'uint256' },
            { name: 'nonce', type: 'uint256' },
            { name: 'deadline', type: 'uint256' },
          ],
        },
        primaryType: 'Permit',
        message: { owner: FROM, spender: SPENDER, value: maxUint256.toString(), nonce: 0, deadline: 1_893_456_000 },
      },
    });
    expect(text(dialog, 'wk-confirm-permit-sentence')).toBe(
      `Permit: ${SPENDER} may spend an unlimited amount of USD Coin (${TOKEN}) until Jan 1, 2030, 12:00 AM UTC`,
    );
    expect(within(dialog).getByTestId('wk-confirm-warning').textContent).toMatch(/^Unlimited approval\./);
    // The domain, named chain included, then the message as a definition list.
    expect(within(dialog).getByLabelText('Domain').textContent).toContain('chainId uint256Hardhat (chain id 31337)');
    expect(within(dialog).getByLabelText('Message').textContent).toContain(`spender address${SPENDER}`);
    await expectNoAxeViolations();
  });

  it('given a Permit2 PermitSingle, when shown, then the permit sentence names the token, spender, amount and expiry', async () => {
    const { dialog } = await show({
      kind: 'typedData',
      address: FROM,
      origin: ORIGIN,
      typedData: {
        domain: permit2Domain,
        types: { PermitDetails: permit2Types.PermitDetails, PermitSingle: permit2Types.PermitSingle },
        primaryType: 'PermitSingle',
        message: { details: { token: TOKEN, amount: '5000000', expiration: 1_893_456_000, nonce: 0 }, spender: SPENDER, sigDeadline: 1_893_456_000 },
      },
    });
    expect(within(dialog).getByRole('heading', { name: 'Permit2 token permit' })).toBeTruthy();
    expect(text(dialog, 'wk-confirm-permit-sentence')).toBe(
      `Permit: ${SPENDER} may spend 5,000,000 (smallest units) of ${TOKEN} until Jan 1, 2030, 12:00 AM UTC`,
    );
    expect(within(dialog).queryByTestId('wk-confirm-warning')).toBeNull();
    expect(text(dialog, 'wk-confirm-primary-type')).toBe('PermitSingle');
  });

  it('given ordinary typed data, when shown, then domain, primary type and nested fields show as lists, never raw JSON', async () => {
    const { dialog } = await show({
      kind: 'typedData',
      address: FROM,
      origin: ORIGIN,
      typedData: {
        domain: { name: 'Ether Mail', version: '1', chainId: 1 },
        types: {
          Person: [
            { name: 'name', type: 'string' },
            { name: 'wallet', type: 'address' },
          ],
          Mail: [
            { name: 'from', type: 'Person' },
            { name: 'contents', type: 'string' },
          ],
        },
        primaryType: 'Mail',
        message: { from: { name: 'Cow', wallet: RECIPIENT }, contents: 'Hello, Bob!' },
      },
    });
    expect(screen.getByRole('dialog', { name: 'Sign this typed data?' })).toBe(dialog);
    expect(within(dialog).queryByTestId('wk-confirm-permit')).toBeNull();
    const message = within(dialog).getByLabelText('Message');
    expect(
      within(message)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['from Person', 'name string', 'wallet address', 'contents string']);
    expect(message.textContent).toContain('Hello, Bob!');
    expect(dialog.textContent).not.toMatch(/[{}]|"contents"/);
    await expectNoAxeViolations();
  });

  it('given an EIP-7702 authorization, when shown, then it says whom the account is delegated to on which chain, with a strong warning', async () => {
    const delegate = '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B';
    const { dialog } = await show({ kind: 'authorization', address: FROM, origin: ORIGIN, authorization: { chainId: 31337, address: delegate, nonce: 3n } });
    expect(screen.getByRole('dialog', { name: 'Delegate your account?' })).toBe(dialog);
    expect(text(dialog, 'wk-confirm-delegate')).toBe(delegate);
    const warning = within(dialog).getByTestId('wk-confirm-warning').textContent!;
    expect(warning).toMatch(new RegExp(`^Delegate your account to ${delegate} on Hardhat \\(chain id 31337\\)\\.`));
    expect(warning).toContain('can move everything the account holds');
    await expectNoAxeViolations();
    cleanup();
    const everywhere = await show({ kind: 'authorization', address: FROM, origin: ORIGIN, authorization: { chainId: 0, address: delegate, nonce: 0n } });
    expect(text(everywhere.dialog, 'wk-confirm-network')).toBe('every chain');
  });

  it('given a type-4 transaction carrying an authorization, when shown, then the delegation warning is part of it', async () => {
    const { dialog } = await show(transaction({ to: FROM, authorizationList: [{ chainId: 31337, address: SPENDER, nonce: 8n }] }));
    expect(within(dialog).getByText('EIP-7702 (account delegation)')).toBeTruthy();
    expect(within(dialog).getByTestId('wk-confirm-warning').textContent).toMatch(new RegExp(`^Delegate your account to ${SPENDER}`));
  });

  it('given a plain message and non-text bytes, when shown, then the text verbatim, and the bytes in hex', async () => {
    const message = 'Sign in to Demo\nnonce: 42  <b>not html</b>';
    const { dialog } = await show({ kind: 'message', family: 'ethereum', address: FROM, origin: ORIGIN, message });
    expect(screen.getByRole('dialog', { name: 'Sign this message?' })).toBe(dialog);
    expect(text(dialog, 'wk-confirm-content')).toBe(message);
    expect(within(dialog).getByRole('button', { name: 'Sign' })).toBeTruthy();
    await expectNoAxeViolations();
    cleanup();
    const bytes = await show({ kind: 'message', family: 'solana', address: FROM, origin: undefined, message: new Uint8Array([0xde, 0xad, 0x00]) });
    expect(text(bytes.dialog, 'wk-confirm-content')).toBe('0xdead00');
    expect(text(bytes.dialog, 'wk-confirm-origin')).toBe('this app');
  });

  it('given a Solana transaction that does not parse, when shown, then its size and a warning show', async () => {
    const { dialog } = await show({ kind: 'solanaTransaction', address: FROM, origin: ORIGIN, transaction: new Uint8Array(5), send: false });
    expect(screen.getByRole('dialog', { name: 'Sign this Solana transaction?' })).toBe(dialog);
    expect(text(dialog, 'wk-confirm-data-size')).toBe('5 bytes');
    expect(within(dialog).getByTestId('wk-confirm-warning').textContent).toMatch(/could not be read/);
  });

  it('given a shown request, when the buttons, Escape or a double click are used, then approve and decline are called exactly as meant', async () => {
    const { dialog, onApprove, onDecline } = await show({ kind: 'message', family: 'ethereum', address: FROM, origin: ORIGIN, message: 'hi' });
    const approve = within(dialog).getByRole('button', { name: 'Sign' });
    // The second click of a double click would land on the next queued request's button.
    fireEvent.click(approve, { detail: 2 });
    expect(onApprove).not.toHaveBeenCalled();
    await userEvent.click(approve);
    expect(onApprove).toHaveBeenCalledTimes(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close and decline' }));
    expect(onDecline).toHaveBeenCalledTimes(3);
  });
});

function Probe({ onKit }: { onKit: (kit: WalletKit) => void }) {
  onKit(useWalletKit());
  return null;
}

describe('the confirmation queue behind the provider', () => {
  it('given requests waiting, when the kit goes away (declineAll), then every caller gets ERR_USER_REJECTED instead of waiting forever', async () => {
    const queue = createConfirmationQueue();
    const message = (m: string): SignatureRequest => ({ kind: 'message', family: 'ethereum', address: FROM, origin: ORIGIN, message: m });
    const waiting = [queue.confirm(message('a')), queue.confirm(message('b'))].map((p) => p.catch((e: unknown) => e));
    expect(queue.size()).toBe(2);
    queue.declineAll();
    expect(await Promise.all(waiting)).toEqual([
      expect.objectContaining({ code: 'ERR_USER_REJECTED' }),
      expect.objectContaining({ code: 'ERR_USER_REJECTED' }),
    ]);
    expect(queue.current()).toBeUndefined();
  });

  function setup() {
    const client = createFakeClient();
    client.login();
    let kit!: WalletKit;
    renderWithKit(<Probe onKit={(k) => (kit = k)} />, client);
    return { client, kit: () => kit, address: client.wallets[0]!.accounts[0]!.address as `0x${string}` };
  }

  it('given a signing call, when the user declines (button or Escape), then the call rejects with ERR_USER_REJECTED and the dialog closes', async () => {
    const { kit, address } = setup();
    const declined = kit()
      .signMessage(address, 'no thanks')
      .catch((e: unknown) => e);
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await declined).toMatchObject({ code: 'ERR_USER_REJECTED' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const escaped = kit()
      .signTypedData(address, { types: { M: [{ name: 'a', type: 'string' }] }, primaryType: 'M', message: { a: 'x' } })
      .catch((e: unknown) => e);
    await screen.findByTestId('wk-confirm-approve');
    screen.getByRole('group', { name: 'Sign this typed data?' }).focus(); // where showModal puts focus in a browser
    await userEvent.keyboard('{Escape}');
    expect(await escaped).toMatchObject({ code: 'ERR_USER_REJECTED' });
  });

  it('given two requests at once, when approved one by one, then they show in order, one at a time, and each signature is its own', async () => {
    const { kit, address } = setup();
    let first: Promise<string>, second: Promise<string>;
    act(() => {
      first = kit().signMessage(address, 'first');
      second = kit().signMessage(address, 'second');
    });
    const settled: string[] = [];
    void first!.then(() => settled.push('first'));
    void second!.then(() => settled.push('second'));
    expect((await screen.findByTestId('wk-confirm-content')).textContent).toBe('first');
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toBe('1 more request is waiting.');
    screen.getByRole('button', { name: 'Sign' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('wk-confirm-content').textContent).toBe('second'));
    // Focus moved to the new question, not left on a removed button.
    expect(document.activeElement).toBe(screen.getByRole('group', { name: 'Sign this message?' }));
    expect(screen.queryByRole('status')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await verifyMessage({ address, message: 'first', signature: (await first!) as `0x${string}` })).toBe(true);
    expect(await verifyMessage({ address, message: 'second', signature: (await second!) as `0x${string}` })).toBe(true);
    expect(settled).toEqual(['first', 'second']);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
