/**
 * The one request-body parser of both surfaces, `/v1` (proxy) and `/public/v1` (activity API):
 * strict JSON, so that every component that reads a body (the stamp check over the raw bytes,
 * the schema check, the handler, the database) sees the same single meaning of it.
 *
 * Refused, each with a stable 400 code (docs/errors.md):
 * - bytes that are not well-formed UTF-8 (overlong forms, encoded surrogates, truncation) and a
 *   byte-order mark: ERR_MALFORMED_JSON;
 * - anything but RFC 8259 JSON (V8's JSON.parse is exact: no comments, trailing commas, raw
 *   control characters, leading zeros): ERR_MALFORMED_JSON;
 * - nesting deeper than MAX_DEPTH: ERR_MALFORMED_JSON;
 * - an object repeating a key, however it is escaped (`"a"` and `"\u0061"`): ERR_DUPLICATE_KEY,
 *   since parsers disagree on which copy wins (last here, first elsewhere);
 * - U+0000 or a lone surrogate in any string or key: ERR_INVALID_STRING (no store keeps them
 *   as text, so they would otherwise fail deep inside a transaction);
 * - the keys `__proto__`, `constructor` and `prototype` (no wire field has these names):
 *   ERR_INVALID_REQUEST;
 * - a charset label other than UTF-8: 415 ERR_UNSUPPORTED_MEDIA_TYPE.
 *
 * Why not a library: secure-json-parse (Fastify's) misses duplicates and strings; momoa accepts
 * raw control characters in strings and is ~13x slower than JSON.parse. Grammar stays V8's;
 * this file adds only the checks (docs/decisions/0012-strict-json.md).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact bytes of a JSON body (stamps are verified over them). */
    rawBody?: Buffer;
  }
}

/** Deepest accepted nesting of objects and arrays (the deepest operation needs 6). */
export const MAX_DEPTH = 32;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character this pattern refuses
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `a.b.0.c` from a path of keys and indexes (the field form of schema errors). */
const fieldOf = (path: ReadonlyArray<string | number>): string | undefined => (path.length ? path.join('.') : undefined);

/**
 * Decode and parse a body strictly.
 * @example parseStrictJson(Buffer.from('{"a":1}')) // { a: 1 }
 * @throws ApiError ERR_MALFORMED_JSON | ERR_DUPLICATE_KEY | ERR_INVALID_STRING | ERR_INVALID_REQUEST
 */
export function parseStrictJson(bytes: Uint8Array): unknown {
  if (bytes.length === 0) throw new ApiError('ERR_MALFORMED_JSON', 'the request body is empty');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw new ApiError('ERR_MALFORMED_JSON', 'the request body starts with a byte-order mark');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ApiError('ERR_MALFORMED_JSON', 'the request body is not well-formed UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('ERR_MALFORMED_JSON');
  }
  checkValue(value, [], 0);
  checkDuplicateKeys(text);
  return value;
}

/**
 * Refuse a string no store can hold as text (NUL, lone surrogates).
 * @throws ApiError ERR_INVALID_STRING
 */
export function assertStorableString(value: string, field?: string): void {
  if (UNSTORABLE.test(value)) {
    throw new ApiError('ERR_INVALID_STRING', `${field ?? 'a string'} holds a NUL character or an unpaired surrogate`, field);
  }
}

/** Check every string and key of `value`; `path` is the way to it, extended in place (read only for an error's field). */
function checkValue(value: unknown, path: Array<string | number>, depth: number): void {
  if (typeof value === 'string') {
    if (UNSTORABLE.test(value)) assertStorableString(value, fieldOf(path));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth >= MAX_DEPTH) throw new ApiError('ERR_MALFORMED_JSON', `the request body nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      path.push(i);
      checkValue(value[i], path, depth + 1);
      path.pop();
    }
    return;
  }
  for (const key of Object.keys(value)) {
    path.push(key);
    if (UNSTORABLE.test(key)) assertStorableString(key, fieldOf(path));
    if (FORBIDDEN_KEYS.has(key)) throw new ApiError('ERR_INVALID_REQUEST', `the key ${key} is not allowed`, fieldOf(path));
    checkValue((value as Record<string, unknown>)[key], path, depth + 1);
    path.pop();
  }
}

/**
 * Find a repeated key in text that JSON.parse accepted (so the grammar is known good and a
 * small scanner suffices). Keys are compared decoded, as parsers compare them.
 * @throws ApiError ERR_DUPLICATE_KEY
 */
function checkDuplicateKeys(text: string): void {
  // One frame per open container: the keys seen (objects) and the path for the error field.
  const stack: Array<{ keys: Set<string> | undefined; index: number; key: string | undefined }> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i += 1; text.charCodeAt(i) !== 0x22; i += 1) if (text.charCodeAt(i) === 0x5c /* \ */) i += 1;
      if (!expectKey) continue;
      const frame = stack[stack.length - 1]!;
      const raw = text.slice(start, i + 1);
      const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      if (frame.keys!.has(key)) {
        const path = [...stack.slice(0, -1).map((f) => (f.keys ? f.key! : f.index)), key];
        throw new ApiError('ERR_DUPLICATE_KEY', `the key ${JSON.stringify(key)} appears twice in one object`, fieldOf(path));
      }
      frame.keys!.add(key);
      frame.key = key;
      expectKey = false;
    } else if (c === 0x7b /* { */) {
      stack.push({ keys: new Set(), index: 0, key: undefined });
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push({ keys: undefined, index: 0, key: undefined });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const frame = stack[stack.length - 1]!;
      if (frame.keys) expectKey = true;
      else frame.index += 1;
    }
  }
}

/** `charset` of a Content-Type, lowercased and unquoted; undefined when absent. */
function charsetOf(contentType: string | undefined): string | undefined {
  const m = contentType === undefined ? null : /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType);
  return m ? m[2]!.toLowerCase() : undefined;
}

/**
 * Make `application/json` bodies of this plugin go through parseStrictJson, keeping the raw
 * bytes on `req.rawBody`; every other media type is 415 (ERR_UNSUPPORTED_MEDIA_TYPE), and so is
 * a JSON body labelled with a charset other than UTF-8: RFC 8259 lets a recipient ignore the
 * label, but a filter in front that honours it would read another body than the one signed.
 * With `emptyIsAbsent`, zero bytes parse to no body (`req.body` undefined, `req.rawBody` empty)
 * and the route decides.
 * @example await app.register(async (api) => { useStrictJson(api); api.post('/x', async (req) => req.body); });
 */
export function useStrictJson(app: FastifyInstance, opts: { emptyIsAbsent?: boolean } = {}): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const charset = charsetOf(req.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(new ApiError('ERR_UNSUPPORTED_MEDIA_TYPE', 'a JSON body must be UTF-8 (charset=utf-8 or no charset)'), undefined);
      return;
    }
    // Zero bytes labelled JSON is no body at all (the auth proxy's body-less endpoints, as
    // Turnkey's clients call them); a stamped body is never empty, so /public/v1 keeps the 400.
    req.rawBody = body as Buffer;
    if (opts.emptyIsAbsent && (body as Buffer).length === 0) {
      done(null, undefined);
      return;
    }
    try {
      done(null, parseStrictJson(body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
