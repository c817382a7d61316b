/** The Arabic catalog (loaded on demand: its own chunk). */
import type { Messages } from '../catalog.js';
import { common } from './common.js';
import { errors } from './errors.js';
import { auth } from './auth.js';
import { wallet } from './wallet.js';
import { account } from './account.js';
import { confirm } from './confirm.js';

export const messages: Messages = { ...common, ...errors, ...auth, ...wallet, ...account, ...confirm };
