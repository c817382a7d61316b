/**
 * Import first in a happy-dom test that starts the real server in-process: happy-dom replaces
 * the global `URL` and `URLSearchParams`, and its `URL` resolves `new URL('./x/', 'file:///…')`
 * against the page (http://localhost:3000/…), which breaks the server's file paths
 * (migrations). The DOM side does not need happy-dom's versions; Node's are restored.
 */
import { URL as NodeURL, URLSearchParams as NodeURLSearchParams } from 'node:url';

globalThis.URL = NodeURL as unknown as typeof URL;
globalThis.URLSearchParams = NodeURLSearchParams as unknown as typeof URLSearchParams;
