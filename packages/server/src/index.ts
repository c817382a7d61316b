export { build, type AppDeps } from './app';
export { loadConfig, startupWarnings, type ServerConfig } from './config';
export { startServer, openServices, type RunningServer } from './main';
export { createOrganization, type CreatedOrganization } from './admin/organizations';
export { Enclave } from './enclave';
export { openStore, type Store } from './store/db';
export { ApiError } from './errors';
export { bootstrapDemo, startDemo, DEMO_ORGANIZATION_NAME, type DemoKitConfig } from './admin/demo';
export { enableProxy, updateProxySettings, type ProxySettingsPatch } from './admin/proxy';
