import { Type, type Static, type TLiteral, type TObject, type TSchema, type TUnion } from '@sinclair/typebox';
import { operationWire, queryPath, type WireOperationName, type WireQueryName } from './wire.js';
import { OAUTH_PROVIDER_IDS, type OAuthProviderId } from './oauth-providers.js';

/**
 * One activity operation on the wire: the single source of truth the server registers
 * routes from and the client types `submit(op, params)` from.
 */
export interface OperationDescriptor<N extends string = string, P extends TObject = TObject, R extends TObject = TObject> {
  /** Path suffix after `/public/v1/submit/`. */
  readonly name: N;
  /** Full path, `/public/v1/submit/<name>`. */
  readonly path: string;
  /** Activity `type` of the envelope, e.g. `ACTIVITY_TYPE_SIGN_RAW_PAYLOADS`. */
  readonly type: string;
  /** Key of `activity.intent` that echoes the parameters. */
  readonly intentKey: string;
  /** Key of `activity.result` that holds the outcome. */
  readonly resultKey: string;
  /** Schema of `parameters` (closed: unknown fields are refused). */
  readonly parameters: P;
  /** Schema of the result object under `resultKey`. */
  readonly result: R;
  /** True for the 20 operations of spec section B; false for the extras of DESIGN section 2. */
  readonly spec: boolean;
}

/**
 * Declare an operation descriptor. The activity type, intent/result keys and path come from the
 * wire table of `./wire` (the one place they are written), so `name` must be listed there.
 * @example
 * const op = defineOperation({ name: 'create_policy', spec: true,
 *   parameters: Type.Object({ policyName: Type.String() }), result: Type.Object({ policyId: Type.String() }) });
 * op.type; // 'ACTIVITY_TYPE_CREATE_POLICY_V3'
 */
export function defineOperation<N extends WireOperationName, P extends TObject, R extends TObject>(d: {
  name: N;
  parameters: P;
  result: R;
  spec: boolean;
}): OperationDescriptor<N, P, R> {
  return Object.freeze({ ...operationWire(d.name), parameters: d.parameters, result: d.result, spec: d.spec });
}

/** A read endpoint, `POST /public/v1/query/<name>`, stamped like submits. */
export interface QueryDescriptor<N extends string = string, Q extends TObject = TObject, R extends TSchema = TSchema> {
  readonly name: N;
  readonly path: string;
  /** Schema of the request body (always carries `organizationId`). */
  readonly request: Q;
  /** Schema of the response body. */
  readonly response: R;
}

/** Declare a query descriptor; `name` must be listed in the wire table of `./wire`. */
export function defineQuery<N extends WireQueryName, Q extends TObject, R extends TSchema>(d: { name: N; request: Q; response: R }): QueryDescriptor<N, Q, R> {
  return Object.freeze({ ...d, path: queryPath(d.name) });
}

/**
 * String enum schema from a list of literals; `Static` of it is the union of the literals.
 * @example const Effect = Enum(POLICY_EFFECTS); // Static<typeof Effect> = 'EFFECT_ALLOW' | 'EFFECT_DENY'
 */
export const Enum = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;

/** Closed object schema: the wire refuses unknown fields. */
export const Obj = <T extends Parameters<typeof Type.Object>[0]>(props: T) => Type.Object(props, { additionalProperties: false });

export type ParamsOfDescriptor<D> = D extends OperationDescriptor<string, infer P, TObject> ? Static<P> : never;
export type ResultOfDescriptor<D> = D extends OperationDescriptor<string, TObject, infer R> ? Static<R> : never;

/**
 * A closed object with one property per OAuth provider of the provider table (oauth-providers.ts),
 * each of schema `schema`: settings and replies keyed by provider id follow the table.
 * @example perProvider(Type.Optional(Type.String())) // { google?: string, apple?: string, x?: string, discord?: string }
 */
export const perProvider = <S extends TSchema>(schema: S) =>
  Obj(Object.fromEntries(OAUTH_PROVIDER_IDS.map((id) => [id, schema]))) as unknown as TObject<{ [K in OAuthProviderId]: S }>;
