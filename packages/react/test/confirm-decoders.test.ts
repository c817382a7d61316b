/**
 * The pure functions behind the confirmation dialog: exact amounts, calldata, unlimited
 * approvals, permits, typed data, messages, Solana transactions, addresses. Inputs are built
 * with viem and @solana/kit (the encoders dApps use), so the decoders are checked against real
 * encodings, not against themselves.
 */
import {
  AccountRole,
  address as solanaAddress,
  appendTransactionMessageInstruction,
  compileTransaction,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Blockhash,
} from '@solana/kit';
import fc from 'fast-check';
import { encodeFunctionData, erc20Abi, getAddress, maxUint256, parseAbi, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeCalldata } from '../src/confirm/calldata';
import { describeMessage } from '../src/confirm/message';
import { permitSentence, recognizePermit } from '../src/confirm/permits';
import { base58, summarizeSolanaTransaction } from '../src/confirm/solana';
import { formatDeadline } from '../src/confirm/time';
import { describeTypedData } from '../src/confirm/typed-data';
import { isUnlimitedAmount } from '../src/confirm/unlimited';
import { formatAmount, formatUnits, parseUnits } from '../src/units';
import { checkEthereumAddress } from '../src/wallet/address';
import { permit2Domain, permit2Types } from './support/permit2';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const SPENDER = '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD';
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const JAN_2030 = 1_893_456_000n;

describe('formatUnits / parseUnits', () => {
  it('given wei amounts, when formatted with 18 decimals, then every digit is kept and trailing zeros dropped', () => {
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
    expect(formatUnits(10n ** 16n, 18)).toBe('0.01');
    expect(formatUnits(123_456_789n * 10n ** 18n + 5n, 18)).toBe('123456789.000000000000000005');
    expect(formatUnits(maxUint256, 18)).toBe('115792089237316195423570985008687907853269984665640564039457.584007913129639935');
    expect(formatUnits(-1n, 18)).toBe('-0.000000000000000001');
    expect(formatUnits(42n, 0)).toBe('42');
    expect(formatAmount(21_000n * 2_000_000_000n, { decimals: 18, symbol: 'ETH' })).toBe('0.000042 ETH');
  });

  it('given typed amounts, when parsed, then decimals become exact base units and anything else is refused', () => {
    expect(parseUnits('0.01', 18)).toBe(10n ** 16n);
    expect(parseUnits(' 2 ', 18)).toBe(2n * 10n ** 18n);
    expect(parseUnits('.5', 18)).toBe(5n * 10n ** 17n);
    expect(parseUnits('1.', 18)).toBe(10n ** 18n);
    expect(parseUnits('0.000000000000000001', 18)).toBe(1n);
    for (const bad of ['', '.', '1,5', '-1', '1e18', '0x10', '1.2.3', 'abc']) expect(parseUnits(bad, 18)).toBeUndefined();
    // A 19th decimal cannot be sent: refused, never rounded.
    expect(parseUnits('0.0000000000000000001', 18)).toBeUndefined();
  });

  it('given any amount and decimals, when formatted then parsed, then the same base units come back', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n }), fc.integer({ min: 0, max: 36 }), (value, decimals) => {
        expect(parseUnits(formatUnits(value, decimals), decimals)).toBe(value);
      }),
    );
  });
});

describe('isUnlimitedAmount', () => {
  it('given amounts around half the type range, when checked, then half and above is unlimited', () => {
    expect(isUnlimitedAmount(maxUint256)).toBe(true);
    expect(isUnlimitedAmount(2n ** 255n + 1n)).toBe(true);
    expect(isUnlimitedAmount(2n ** 255n)).toBe(true);
    expect(isUnlimitedAmount(2n ** 255n - 1n)).toBe(false);
    expect(isUnlimitedAmount(10n ** 30n)).toBe(false);
    expect(isUnlimitedAmount(2n ** 160n - 1n, 160)).toBe(true);
    expect(isUnlimitedAmount(2n ** 159n - 1n, 160)).toBe(false);
  });
});

describe('decodeCalldata', () => {
  const recipient = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';

  it('given ERC-20 transfer calldata, when decoded, then the recipient (EIP-55) and the exact amount come out', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, 1_500_000n] });
    expect(data.slice(0, 10)).toBe('0xa9059cbb');
    expect(decodeCalldata(data)).toEqual({ kind: 'erc20Transfer', recipient: getAddress(recipient), amount: 1_500_000n });
  });

  it('given ERC-20 approve of max uint256, when decoded, then it is an unlimited approval of the spender', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [SPENDER, maxUint256] });
    expect(data.slice(0, 10)).toBe('0x095ea7b3');
    expect(decodeCalldata(data)).toEqual({ kind: 'erc20Approve', spender: SPENDER, amount: maxUint256, unlimited: true });
  });

  it('given approvals just above 2^255 and of a real amount, when decoded, then only the first is unlimited', () => {
    const approve = (amount: bigint) => decodeCalldata(encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [SPENDER, amount] }));
    expect(approve(2n ** 255n + 1n)).toMatchObject({ kind: 'erc20Approve', unlimited: true });
    expect(approve(10n ** 24n)).toEqual({ kind: 'erc20Approve', spender: SPENDER, amount: 10n ** 24n, unlimited: false });
  });

  it('given other calldata, when decoded, then it is a contract call with its selector and byte length', () => {
    const deposit = encodeFunctionData({ abi: parseAbi(['function deposit()']), functionName: 'deposit' });
    expect(decodeCalldata(deposit)).toEqual({ kind: 'contractCall', selector: '0xd0e30db0', byteLength: 4, data: '0xd0e30db0' });
    const swap = encodeFunctionData({ abi: parseAbi(['function swap(uint256,address[])']), functionName: 'swap', args: [1n, [SPENDER, OWNER]] });
    expect(decodeCalldata(swap)).toMatchObject({ kind: 'contractCall', selector: swap.slice(0, 10), byteLength: (swap.length - 2) / 2 });
    expect(decodeCalldata('0x')).toEqual({ kind: 'none' });
    expect(decodeCalldata('0x12')).toEqual({ kind: 'contractCall', selector: undefined, byteLength: 1, data: '0x12' });
  });

  it('given transfer-looking calldata with extra bytes or a dirty address word, when decoded, then it is not called a transfer', () => {
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, 1n] });
    expect(decodeCalldata(`${transfer}00`)).toMatchObject({ kind: 'contractCall', selector: '0xa9059cbb', byteLength: 69 });
    const dirty = `0xa9059cbb${'ff'.repeat(12)}${recipient.slice(2)}${'00'.repeat(31)}01`;
    expect(decodeCalldata(dirty)).toMatchObject({ kind: 'contractCall', selector: '0xa9059cbb' });
  });
});

const eip2612 = (value: bigint | string, deadline: bigint | number) => ({
  domain: { name: 'USD Coin', version: '2', chainId: 1, verifyingContract: USDC },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  },
  primaryType: 'Permit',
  message: { owner: OWNER, spender: SPENDER.toLowerCase(), value, nonce: 0, deadline },
});

const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';

describe('recognizePermit', () => {
  it('given an EIP-2612 permit, when recognised, then the token (the domain), spender, exact value and deadline come out', () => {
    const permit = recognizePermit(eip2612('1000000', JAN_2030));
    expect(permit).toEqual({
      standard: 'EIP-2612',
      spender: SPENDER,
      allowances: [{ token: USDC, tokenName: 'USD Coin', amount: 1_000_000n, unlimited: false, until: JAN_2030 }],
    });
    expect(permitSentence(permit!.spender, permit!.allowances[0]!)).toBe(
      `Permit: ${SPENDER} may spend 1,000,000 (smallest units) of USD Coin (${USDC}) until Jan 1, 2030, 12:00 AM UTC`,
    );
  });

  it('given an EIP-2612 permit of max uint256 with a max deadline, when recognised, then it is unlimited with no expiry', () => {
    const permit = recognizePermit(eip2612(maxUint256, maxUint256))!;
    expect(permit.allowances[0]).toMatchObject({ unlimited: true, amount: maxUint256 });
    expect(permitSentence(permit.spender, permit.allowances[0]!)).toBe(`Permit: ${SPENDER} may spend an unlimited amount of USD Coin (${USDC}) with no expiry`);
  });

  it('given a Permit2 PermitSingle of max uint160, when recognised, then the token, spender, unlimited amount and expiration come out', () => {
    const typedData = {
      domain: permit2Domain,
      types: permit2Types,
      primaryType: 'PermitSingle',
      message: {
        details: { token: USDC, amount: (2n ** 160n - 1n).toString(), expiration: Number(JAN_2030), nonce: 0 },
        spender: SPENDER,
        sigDeadline: JAN_2030,
      },
    };
    const permit = recognizePermit(typedData)!;
    expect(permit).toEqual({ standard: 'Permit2', spender: SPENDER, allowances: [{ token: USDC, amount: 2n ** 160n - 1n, unlimited: true, until: JAN_2030 }] });
    expect(permitSentence(permit.spender, permit.allowances[0]!)).toBe(
      `Permit: ${SPENDER} may spend an unlimited amount of ${USDC} until Jan 1, 2030, 12:00 AM UTC`,
    );
  });

  it('given Permit2 PermitBatch and PermitTransferFrom, when recognised, then every token is listed with its own amount and expiry', () => {
    const batch = recognizePermit({
      domain: permit2Domain,
      types: permit2Types,
      primaryType: 'PermitBatch',
      message: {
        details: [
          { token: USDC, amount: 5n, expiration: 0, nonce: 1 },
          { token: WETH, amount: 7n, expiration: JAN_2030, nonce: 1 },
        ],
        spender: SPENDER,
        sigDeadline: JAN_2030,
      },
    })!;
    expect(batch.allowances).toEqual([
      { token: USDC, amount: 5n, unlimited: false, until: 'block' },
      { token: WETH, amount: 7n, unlimited: false, until: JAN_2030 },
    ]);
    const transfer = recognizePermit({
      domain: permit2Domain,
      types: permit2Types,
      primaryType: 'PermitTransferFrom',
      message: { permitted: { token: WETH, amount: maxUint256 }, spender: SPENDER, nonce: 9, deadline: JAN_2030 },
    })!;
    expect(transfer).toEqual({ standard: 'Permit2', spender: SPENDER, allowances: [{ token: WETH, amount: maxUint256, unlimited: true, until: JAN_2030 }] });
  });

  it('given typed data that is not a permit or a permit that does not decode, when checked, then nothing is recognised', () => {
    expect(
      recognizePermit({ domain: { name: 'Demo' }, types: { Mail: [{ name: 'contents', type: 'string' }] }, primaryType: 'Mail', message: { contents: 'hi' } }),
    ).toBeUndefined();
    const broken = eip2612('1', JAN_2030);
    expect(recognizePermit({ ...broken, message: { ...broken.message, spender: 'not an address' } })).toBeUndefined();
    expect(recognizePermit({ ...broken, domain: { name: 'USD Coin' } })).toBeUndefined(); // no token contract
    expect(
      recognizePermit({
        domain: permit2Domain,
        types: permit2Types,
        primaryType: 'PermitSingle',
        message: { details: { token: 'x', amount: 1 }, spender: SPENDER },
      }),
    ).toBeUndefined();
  });
});

describe('describeTypedData', () => {
  it('given nested structs and arrays, when described, then the domain, primary type and fields follow the declared types', () => {
    const view = describeTypedData({
      domain: { name: 'Ether Mail', version: '1', chainId: '0x1', verifyingContract: '0xcccccccccccccccccccccccccccccccccccccccc', unsigned: 'dropped' },
      types: {
        Person: [
          { name: 'name', type: 'string' },
          { name: 'wallet', type: 'address' },
        ],
        Mail: [
          { name: 'from', type: 'Person' },
          { name: 'to', type: 'Person[]' },
          { name: 'contents', type: 'string' },
          { name: 'attachments', type: 'uint256' },
        ],
      },
      primaryType: 'Mail',
      message: {
        from: { name: 'Cow', wallet: '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826' },
        to: [{ name: 'Bob', wallet: '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' }],
        contents: 'Hello, Bob!',
        attachments: '0x10',
        notDeclared: 'not signed, not shown',
      },
    });
    expect(view.primaryType).toBe('Mail');
    expect(view.domain).toEqual([
      { name: 'name', type: 'string', kind: 'value', value: 'Ether Mail' },
      { name: 'version', type: 'string', kind: 'value', value: '1' },
      { name: 'chainId', type: 'uint256', kind: 'value', value: '1' },
      { name: 'verifyingContract', type: 'address', kind: 'value', value: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
    ]);
    expect(view.message).toEqual([
      {
        name: 'from',
        type: 'Person',
        kind: 'struct',
        fields: [
          { name: 'name', type: 'string', kind: 'value', value: 'Cow' },
          { name: 'wallet', type: 'address', kind: 'value', value: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
        ],
      },
      {
        name: 'to',
        type: 'Person[]',
        kind: 'array',
        items: [
          {
            name: '#1',
            type: 'Person',
            kind: 'struct',
            fields: [
              { name: 'name', type: 'string', kind: 'value', value: 'Bob' },
              { name: 'wallet', type: 'address', kind: 'value', value: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
            ],
          },
        ],
      },
      { name: 'contents', type: 'string', kind: 'value', value: 'Hello, Bob!' },
      { name: 'attachments', type: 'uint256', kind: 'value', value: '16' },
    ]);
  });

  it('given a self-referencing type, when described, then the tree stops at a bounded depth', () => {
    type Node = { next?: Node[] };
    let deep: Node = {};
    for (let i = 0; i < 100; i++) deep = { next: [deep] };
    const view = describeTypedData({ types: { Node: [{ name: 'next', type: 'Node[]' }] }, primaryType: 'Node', message: deep as Record<string, unknown> });
    expect(JSON.stringify(view)).toContain('"value":"…"');
  });
});

describe('describeMessage', () => {
  it('given text and bytes, when described, then UTF-8 text reads as text and anything else as hex', () => {
    expect(describeMessage('Sign in to Demo\nnonce 7')).toEqual({ kind: 'text', text: 'Sign in to Demo\nnonce 7' });
    expect(describeMessage(new TextEncoder().encode('héllo ✓'))).toEqual({ kind: 'text', text: 'héllo ✓' });
    expect(describeMessage(new Uint8Array([0xff, 0x00, 0x10]))).toEqual({ kind: 'hex', hex: '0xff0010', byteLength: 3 });
    expect(describeMessage(new TextEncoder().encode('a\u0000b'))).toMatchObject({ kind: 'hex' }); // control bytes
    expect(describeMessage(new TextEncoder().encode('pay \u202Eevil'))).toMatchObject({ kind: 'hex' }); // bidi override
  });
});

describe('summarizeSolanaTransaction', () => {
  it('given a v0 System transfer built with @solana/kit, when summarised, then the version, signer, program and SOL amount come out', () => {
    const payer = solanaAddress('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM');
    const recipient = solanaAddress('4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T');
    const data = new Uint8Array(12);
    new DataView(data.buffer).setUint32(0, 2, true);
    new DataView(data.buffer).setBigUint64(4, 1_000_000n, true);
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(payer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash({ blockhash: 'EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k' as Blockhash, lastValidBlockHeight: 1n }, m),
      (m) =>
        appendTransactionMessageInstruction(
          {
            programAddress: solanaAddress('11111111111111111111111111111111'),
            accounts: [
              { address: payer, role: AccountRole.WRITABLE_SIGNER },
              { address: recipient, role: AccountRole.WRITABLE },
            ],
            data,
          },
          m,
        ),
    );
    const bytes = new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)));
    expect(summarizeSolanaTransaction(bytes)).toEqual({
      byteLength: bytes.length,
      version: 0,
      signers: 1,
      instructions: [
        { program: '11111111111111111111111111111111', programName: 'System Program', transfer: { lamports: 1_000_000n, sol: '0.001', to: recipient } },
      ],
    });
  });

  it('given bytes that are not a transaction, when summarised, then only the size is known', () => {
    expect(summarizeSolanaTransaction(new Uint8Array([1, 2, 3]))).toEqual({ byteLength: 3 });
  });

  it('given known base58 vectors, when encoded, then they match', () => {
    expect(base58(new Uint8Array(32))).toBe('11111111111111111111111111111111');
    expect(base58(new TextEncoder().encode('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U');
    expect(base58(new Uint8Array([0, 0, 0x28, 0x7f, 0xb4, 0xcd]))).toBe('11233QC4');
  });
});

describe('formatDeadline', () => {
  it('given Unix seconds, when formatted, then UTC minutes, and beyond any date no expiry', () => {
    expect(formatDeadline(JAN_2030)).toBe('2030-01-01 00:00 UTC');
    expect(formatDeadline(JAN_2030 + 90n)).toBe('2030-01-01 00:01 UTC');
    expect(formatDeadline(2n ** 48n - 1n)).toBe('no expiry');
    expect(formatDeadline(maxUint256)).toBe('no expiry');
  });
});

describe('addresses', () => {
  it('given any address, when typed in lower case or in viem’s EIP-55, then it passes as viem’s EIP-55', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const lower = toHex(bytes);
        expect(checkEthereumAddress(lower)).toEqual({ ok: true, address: getAddress(lower) });
        expect(checkEthereumAddress(getAddress(lower))).toEqual({ ok: true, address: getAddress(lower) });
      }),
    );
  });

  it('given typed recipients, when checked, then lower case passes as EIP-55, a wrong mixed case or length is refused', () => {
    expect(checkEthereumAddress(' 0x70997970c51812dc3a010c7d01b50e0d17dc79c8 ')).toEqual({ ok: true, address: OWNER });
    expect(checkEthereumAddress(OWNER)).toEqual({ ok: true, address: OWNER });
    expect(checkEthereumAddress(OWNER.replace('C8', 'c8'))).toEqual({ ok: false, error: 'checksum' });
    expect(checkEthereumAddress(OWNER.slice(0, -1))).toEqual({ ok: false, error: 'format' });
    expect(checkEthereumAddress('vitalik.eth')).toEqual({ ok: false, error: 'format' });
  });
});
