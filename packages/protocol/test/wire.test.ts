import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations, proxyEndpoints, queries } from '../src/index';
import { isErrorCode, operationWire, PROXY_CONFIG_ID_HEADER, PROXY_ENDPOINT_NAMES, proxyPath, QUERY_NAMES, queryPath, wireOperations } from '../src/wire';

/** Relative imports of a source file of this package, followed transitively. */
function moduleGraph(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const source = readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8');
  const specifiers = [...source.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!);
  seen.set(file, specifiers);
  for (const s of specifiers) if (s.startsWith('./')) moduleGraph(`${s.slice(2).replace(/\.js$/, '')}.ts`, seen);
  return seen;
}

describe('@walletkit/protocol/wire', () => {
  it('given the registry, when compared with the wire table, then both list the same operations in the same order with the same type, keys and path', () => {
    expect(Object.keys(wireOperations)).toEqual(Object.keys(operations));
    for (const [name, descriptor] of Object.entries(operations)) {
      const wire = operationWire(name as keyof typeof wireOperations);
      expect({ name: descriptor.name, path: descriptor.path, type: descriptor.type, intentKey: descriptor.intentKey, resultKey: descriptor.resultKey }).toEqual(
        wire,
      );
    }
  });

  it('given the query and proxy registries, when compared with the wire names, then names and paths are equal', () => {
    expect([...QUERY_NAMES]).toEqual(Object.keys(queries));
    for (const name of QUERY_NAMES) expect(queries[name].path).toBe(queryPath(name));
    expect([...PROXY_ENDPOINT_NAMES]).toEqual(Object.keys(proxyEndpoints));
    for (const name of PROXY_ENDPOINT_NAMES) expect(proxyEndpoints[name].path).toBe(proxyPath(name));
  });

  it('given the wire entry point, when its imports are followed, then no module imports TypeBox or anything outside the package', () => {
    const graph = moduleGraph('wire.ts');
    expect([...graph.keys()].sort()).toEqual(['enums.ts', 'errors.ts', 'oauth-providers.ts', 'tokens.ts', 'wire.ts']);
    expect([...graph.values()].flat().filter((s) => !s.startsWith('./'))).toEqual([]);
  });

  it('given the wire helpers, when called, then they answer like the registry', () => {
    expect(operationWire('sign_raw_payloads').path).toBe('/public/v1/submit/sign_raw_payloads');
    expect(queryPath('whoami')).toBe('/public/v1/query/whoami');
    expect(proxyPath('otp_init_v2')).toBe('/v1/otp_init_v2');
    expect(PROXY_CONFIG_ID_HEADER).toBe('X-Auth-Proxy-Config-Id');
    expect(isErrorCode('ERR_ORIGIN_NOT_ALLOWED')).toBe(true);
    expect(isErrorCode('ERR_NOPE')).toBe(false);
  });
});
