/**
 * Authentication proxy administration as stamped activities: enable_auth_proxy,
 * update_auth_proxy_config, disable_auth_proxy. The work is in admin/proxy.ts (shared with the
 * CLI); here it runs in the activity's transaction. Who may run them: authorize.ts (root quorum
 * or policy; never the proxy user itself).
 */
import { disableProxyInTx, enableProxyInTx, updateProxySettingsInTx } from '../../admin/proxy.js';
import type { HandlerTable } from '../context.js';

export const authProxyHandlers = {
  enable_auth_proxy: async (params, ctx) => {
    const row = await enableProxyInTx(ctx.tx, ctx.enclave, ctx.now(), {
      organizationId: ctx.organizationId,
      ...(params.settings !== undefined ? { settings: params.settings } : {}),
    });
    return { configId: row.id, enabled: row.enabled };
  },

  update_auth_proxy_config: async (params, ctx) => {
    const row = await updateProxySettingsInTx(ctx.tx, ctx.now(), ctx.organizationId, params.settings);
    return { configId: row.id, enabled: row.enabled };
  },

  disable_auth_proxy: async (_params, ctx) => {
    const row = await disableProxyInTx(ctx.tx, ctx.now(), ctx.organizationId);
    return { configId: row.id, enabled: row.enabled };
  },
} satisfies HandlerTable;
