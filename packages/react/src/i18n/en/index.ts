/** The English catalog: every message of the kit, keyed by area (`auth.*`, `wallet.*`, ...). */
import { common } from './common.js';
import { errors } from './errors.js';
import { auth } from './auth.js';
import { wallet } from './wallet.js';
import { account } from './account.js';
import { confirm } from './confirm.js';

export const messages = { ...common, ...errors, ...auth, ...wallet, ...account, ...confirm };
