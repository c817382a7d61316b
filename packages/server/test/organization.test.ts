import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/harness';
import { addOrganization, addUser, expectError } from './support/members';
import { storeKinds } from './support/stores';

const ABI = JSON.stringify([
  {
    type: 'function',
    name: 'transfer',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
]);
const IDL = JSON.stringify({ version: '0.1.0', name: 'demo', instructions: [{ name: 'initialize', accounts: [], args: [] }] });
const ETH_ADDRESS = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const SOL_ADDRESS = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

describe.each(storeKinds)('organization settings on %s', (kind) => {
  let server: TestServer;
  let other: Awaited<ReturnType<typeof addOrganization>>;
  beforeAll(async () => {
    server = await startTestServer(kind);
    other = await addOrganization(server);
  });
  afterAll(() => server?.dispose());

  const configs = async (client = server.client) => (await client.query('get_organization_configs', {})).body.configs;

  it('given a fresh organization, then get_organization_configs shows no features and its single-member quorum', async () => {
    expect(await configs(other.client)).toEqual({ features: [], quorum: { threshold: 1, userIds: [other.userId] } });
  });

  it('given set and remove of features, then the results and the configs list what remains', async () => {
    const org = await addOrganization(server, 'Features Org');
    const set1 = await org.client.run('set_organization_feature', { name: 'FEATURE_NAME_WEBHOOK', value: 'https://a.example' });
    expect(set1.features).toEqual([{ name: 'FEATURE_NAME_WEBHOOK', value: 'https://a.example' }]);
    await org.client.run('set_organization_feature', { name: 'FEATURE_NAME_EMAIL_AUTH', value: '' });
    const overwritten = await org.client.run('set_organization_feature', { name: 'FEATURE_NAME_WEBHOOK', value: 'https://b.example' });
    expect(overwritten.features).toEqual([
      { name: 'FEATURE_NAME_EMAIL_AUTH', value: '' },
      { name: 'FEATURE_NAME_WEBHOOK', value: 'https://b.example' },
    ]);
    const removed = await org.client.run('remove_organization_feature', { name: 'FEATURE_NAME_WEBHOOK' });
    expect(removed.features).toEqual([{ name: 'FEATURE_NAME_EMAIL_AUTH', value: '' }]);
    expect((await configs(org.client)).features).toEqual([{ name: 'FEATURE_NAME_EMAIL_AUTH', value: '' }]);
  });

  it('given an unset or unknown feature, then remove_organization_feature answers 404 or 400', async () => {
    expectError(await server.client.submit('remove_organization_feature', { name: 'FEATURE_NAME_SMS_AUTH' }), 404, 'ERR_FEATURE_NOT_FOUND', 'name');
    expectError(
      await server.client.submit('remove_organization_feature', { name: 'FEATURE_NAME_NOPE' as 'FEATURE_NAME_SMS_AUTH' }),
      400,
      'ERR_INVALID_REQUEST',
    );
    // Another organization's feature is not this one's.
    await other.client.run('set_organization_feature', { name: 'FEATURE_NAME_OTP_EMAIL_AUTH', value: '1' });
    expectError(await server.client.submit('remove_organization_feature', { name: 'FEATURE_NAME_OTP_EMAIL_AUTH' }), 404, 'ERR_FEATURE_NOT_FOUND');
  });

  it('given update_root_quorum, then the membership is replaced and the threshold stored', async () => {
    const org = await addOrganization(server, 'Quorum Org');
    const [a, b] = [await addUser(server, { organizationId: org.organizationId }), await addUser(server, { organizationId: org.organizationId })];
    expect(await org.client.run('update_root_quorum', { threshold: 1, userIds: [a.userId, b.userId, org.userId] })).toEqual({});
    expect((await configs(org.client)).quorum).toEqual({ threshold: 1, userIds: [a.userId, b.userId, org.userId].sort() });
    // a is now a root member: it may act without any policy.
    await a.client.run('create_user_tag', { userTagName: 'by a', userIds: [] });
    // Replace: the original root user leaves the quorum.
    await a.client.run('update_root_quorum', { threshold: 1, userIds: [a.userId] });
    expect((await configs(org.client)).quorum).toEqual({ threshold: 1, userIds: [a.userId] });
    expectError(await org.client.submit('update_root_quorum', { threshold: 1, userIds: [org.userId] }), 403, 'ERR_PERMISSION_DENIED');
  });

  it('given a threshold above the members or users of another org, then update_root_quorum is refused and nothing changes', async () => {
    const before = await configs();
    expectError(
      await server.client.submit('update_root_quorum', { threshold: 2, userIds: [server.org.userId, server.org.userId] }),
      400,
      'ERR_INVALID_QUORUM',
      'threshold',
    );
    expectError(
      await server.client.submit('update_root_quorum', { threshold: 1, userIds: [server.org.userId, other.userId] }),
      404,
      'ERR_USER_NOT_FOUND',
      'userIds',
    );
    expectError(await server.client.submit('update_root_quorum', { threshold: 0, userIds: [server.org.userId] }), 400, 'ERR_INVALID_REQUEST');
    expectError(await server.client.submit('update_root_quorum', { threshold: 1, userIds: [] }), 400, 'ERR_INVALID_REQUEST');
    expect(await configs()).toEqual(before);
  });

  it('given valid Ethereum and Solana interfaces, then they are stored and listed as submitted', async () => {
    const eth = await server.client.run('create_smart_contract_interface', {
      smartContractAddress: ETH_ADDRESS,
      smartContractInterface: ABI,
      type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM',
      label: 'USDC',
      notes: 'mainnet',
    });
    const sol = await server.client.run('create_smart_contract_interface', {
      smartContractAddress: SOL_ADDRESS,
      smartContractInterface: IDL,
      type: 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA',
      label: 'SPL',
    });
    const list = (await server.client.query('list_smart_contract_interfaces', {})).body.smartContractInterfaces;
    expect(list).toContainEqual(
      expect.objectContaining({
        organizationId: server.org.organizationId,
        smartContractInterfaceId: eth.smartContractInterfaceId,
        smartContractAddress: ETH_ADDRESS,
        smartContractInterface: ABI,
        type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM',
        label: 'USDC',
        notes: 'mainnet',
      }),
    );
    expect(list).toContainEqual(
      expect.objectContaining({ smartContractInterfaceId: sol.smartContractInterfaceId, notes: '', type: 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA' }),
    );
    expectError(
      await server.client.submit('create_smart_contract_interface', {
        smartContractAddress: ETH_ADDRESS.toLowerCase(),
        smartContractInterface: ABI,
        type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM',
        label: 'again',
      }),
      409,
      'ERR_ALREADY_EXISTS',
    );
  });

  it('given malformed addresses or interfaces, then create_smart_contract_interface answers 400', async () => {
    const eth = {
      smartContractAddress: `0x${'1'.repeat(40)}`,
      smartContractInterface: ABI,
      type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' as const,
      label: 'x',
    };
    const sol = {
      smartContractAddress: SOL_ADDRESS.replace('T', 'U'),
      smartContractInterface: IDL,
      type: 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA' as const,
      label: 'y',
    };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...eth, smartContractAddress: '0x1234' }, 'ERR_INVALID_PARAMETER', 'smartContractAddress'],
      [{ ...eth, smartContractAddress: SOL_ADDRESS }, 'ERR_INVALID_PARAMETER', 'smartContractAddress'],
      [{ ...eth, smartContractInterface: IDL }, 'ERR_INVALID_PARAMETER', 'smartContractInterface'],
      [{ ...eth, smartContractInterface: '[1,2]' }, 'ERR_INVALID_PARAMETER', 'smartContractInterface'],
      [{ ...eth, smartContractInterface: '{not json' }, 'ERR_INVALID_PARAMETER', 'smartContractInterface'],
      [{ ...sol, smartContractAddress: ETH_ADDRESS }, 'ERR_INVALID_PARAMETER', 'smartContractAddress'],
      [{ ...sol, smartContractAddress: `0OIl${SOL_ADDRESS.slice(4)}` }, 'ERR_INVALID_PARAMETER', 'smartContractAddress'],
      [{ ...sol, smartContractInterface: ABI }, 'ERR_INVALID_PARAMETER', 'smartContractInterface'],
      [{ ...eth, type: 'SMART_CONTRACT_INTERFACE_TYPE_BITCOIN' }, 'ERR_INVALID_REQUEST', 'parameters.type'],
    ];
    for (const [params, code, field] of cases) {
      const reply = await server.client.submit('create_smart_contract_interface', params as never);
      expectError(reply, 400, code, field);
    }
    // The valid Solana variant of the same request passes.
    await server.client.run('create_smart_contract_interface', sol);
  });

  it("given delete_smart_contract_interface, then it is gone; an unknown or another org's id is 404", async () => {
    const { smartContractInterfaceId } = await other.client.run('create_smart_contract_interface', {
      smartContractAddress: `0x${'ab'.repeat(20)}`,
      smartContractInterface: ABI,
      type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM',
      label: 'theirs',
    });
    expectError(
      await server.client.submit('delete_smart_contract_interface', { smartContractInterfaceId }),
      404,
      'ERR_SMART_CONTRACT_INTERFACE_NOT_FOUND',
      'smartContractInterfaceId',
    );
    expect(await other.client.run('delete_smart_contract_interface', { smartContractInterfaceId })).toEqual({ smartContractInterfaceId });
    expect((await other.client.query('list_smart_contract_interfaces', {})).body.smartContractInterfaces).toEqual([]);
    expectError(await other.client.submit('delete_smart_contract_interface', { smartContractInterfaceId }), 404, 'ERR_SMART_CONTRACT_INTERFACE_NOT_FOUND');
  });
});
