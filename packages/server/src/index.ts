export { build, type AppDeps } from './app.js';
export { loadConfig, startupWarnings, type ServerConfig, type ServerEnv } from './config.js';
export { startServer, openServices, type RunningServer } from './main.js';
export { createOrganization, type CreatedOrganization } from './admin/organizations.js';
export { Enclave } from './enclave/index.js';
export { openStore, type Store } from './store/db.js';
export { ApiError } from './errors.js';
export { bootstrapDemo, startDemo, DEMO_ORGANIZATION_NAME, type DemoKitConfig } from './admin/demo.js';
export { enableProxy, updateProxySettings, type ProxySettingsPatch } from './admin/proxy.js';
