/**
 * node-postgres over PGlite (store/pglite-connection.ts): a statement is one hand-over to PGlite,
 * answers come back in order and as node-postgres expects them (rows, errors, notifications, the
 * transaction status), a failed statement leaves the connection usable, and a failure of PGlite
 * itself fails the statement instead of hanging it.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PgliteConnection } from '../src/store/pglite-connection';

describe('PgliteConnection', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec('CREATE TABLE t (id int PRIMARY KEY, v text)');
  });
  afterAll(async () => {
    await pglite.close();
  });

  async function connected(): Promise<pg.Client> {
    const client = new pg.Client({ connection: new PgliteConnection(pglite) } as pg.ClientConfig);
    await client.connect();
    return client;
  }

  it('given a named statement, when it runs, then each run is one hand-over to PGlite and answers its rows', async () => {
    const client = await connected();
    try {
      await client.query('INSERT INTO t VALUES (1, $1), (2, $2)', ['one', 'two']);
      const handOvers = vi.spyOn(pglite, 'execProtocolRawStream');
      const lookup = (id: number) => client.query({ name: 'lookup', text: 'SELECT id, v FROM t WHERE id = $1', values: [id] });
      expect((await lookup(1)).rows).toEqual([{ id: 1, v: 'one' }]);
      expect((await lookup(2)).rows).toEqual([{ id: 2, v: 'two' }]);
      expect((await lookup(3)).rows).toEqual([]);
      expect(handOvers).toHaveBeenCalledTimes(3);
      handOvers.mockRestore();
    } finally {
      await client.query('DELETE FROM t');
      await client.end();
    }
  });

  it('given statements that fail, when they run, then each rejects with its SQLSTATE and the next one runs', async () => {
    const client = await connected();
    try {
      await client.query('INSERT INTO t VALUES (1, $1)', ['one']);
      await expect(client.query('INSERT INTO t VALUES (1, $1)', ['again'])).rejects.toMatchObject({ code: '23505', constraint: 't_pkey' });
      await expect(client.query({ name: 'bad', text: 'SELECT v FROM t WHERE id = $1', values: ['not a number'] })).rejects.toMatchObject({ code: '22P02' });
      await expect(client.query('SELECT nope FROM t')).rejects.toMatchObject({ code: '42703' });
      expect((await client.query('SELECT v FROM t WHERE id = $1', [1])).rows).toEqual([{ v: 'one' }]);
    } finally {
      await client.query('DELETE FROM t');
      await client.end();
    }
  });

  it('given a transaction, when it runs, fails and rolls back, then the transaction status follows and nothing of it stays', async () => {
    const client = await connected();
    try {
      expect(client.getTransactionStatus()).toBe('I');
      await client.query('BEGIN');
      expect(client.getTransactionStatus()).toBe('T');
      await client.query('INSERT INTO t VALUES (5, $1)', ['five']);
      await expect(client.query('INSERT INTO t VALUES (5, $1)', ['five again'])).rejects.toMatchObject({ code: '23505' });
      expect(client.getTransactionStatus()).toBe('E');
      await client.query('ROLLBACK');
      expect(client.getTransactionStatus()).toBe('I');
      expect((await client.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 0 }]);
    } finally {
      await client.end();
    }
  });

  it('given a connection opened while a transaction is open on PGlite, when it connects, then it reports that transaction', async () => {
    const first = await connected();
    await first.query('BEGIN');
    // The first connection goes away without ending its transaction (as a failed one would).
    await first.end();
    const second = await connected();
    try {
      expect(second.getTransactionStatus()).toBe('T');
      await second.query('ROLLBACK');
      expect(second.getTransactionStatus()).toBe('I');
    } finally {
      await second.end();
    }
  });

  it('given a listener, when a statement notifies, then the notification is handled before the statement resolves', async () => {
    const client = await connected();
    try {
      const heard: string[] = [];
      client.on('notification', (n) => heard.push(n.payload ?? ''));
      await client.query('LISTEN wk_test');
      await client.query({ text: 'SELECT pg_notify($1, $2)', values: ['wk_test', 'first'] });
      expect(heard).toEqual(['first']);
      await client.query('BEGIN');
      await client.query({ text: 'SELECT pg_notify($1, $2)', values: ['wk_test', 'second'] });
      expect(heard).toEqual(['first']);
      await client.query('COMMIT');
      expect(heard).toEqual(['first', 'second']);
    } finally {
      await client.end();
    }
  });

  it('given PGlite itself fails a hand-over, when a statement runs, then it rejects (no hang) and the client reports the error', async () => {
    const client = await connected();
    const errors: Error[] = [];
    client.on('error', (err) => errors.push(err));
    const broken = vi.spyOn(pglite, 'execProtocolRawStream').mockRejectedValueOnce(new Error('wasm trap'));
    try {
      await expect(client.query('SELECT 1')).rejects.toThrow('wasm trap');
      expect(errors.map((e) => e.message)).toEqual(['wasm trap']);
    } finally {
      broken.mockRestore();
      await client.end().catch(() => {});
    }
  });
});
