import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ApiError } from '../errors.js';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

/**
 * Check a value against a TypeBox schema; the first failure becomes ERR_INVALID_REQUEST
 * naming the field (unknown fields and wrong types alike).
 */
export function assertSchema<T>(schema: TSchema, value: unknown, prefix: string): T {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  if (check.Check(value)) return value as T;
  const first = check.Errors(value).First();
  // `timestampMs` at the root, `parameters.userIds.0` below a prefix: never a leading dot.
  const dotted = first ? first.path.replaceAll('/', '.') : '';
  const path = prefix ? `${prefix}${dotted}` : dotted.replace(/^\./, '');
  const message = first ? `${path || 'body'}: ${first.message}` : 'invalid request';
  throw new ApiError('ERR_INVALID_REQUEST', message, path || undefined);
}
