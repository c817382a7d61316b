/**
 * A node-postgres connection to PGlite: what node-postgres's `Client` takes as its `connection` in
 * place of a socket, so that the embedded database is driven exactly as PostgreSQL is (db.ts),
 * named statements included (prepared.ts).
 *
 * PGlite ships such an adapter (`@electric-sql/pglite/node-postgres`), but it hands each protocol
 * message to PGlite in a call of its own: Parse, Bind, Describe, Execute and Sync are five trips
 * into the WebAssembly (and five file-system syncs) per statement. This one keeps what
 * node-postgres writes until it asks for answers (Sync, Flush, or a simple Query) and hands the
 * lot over in one `execProtocolRawStream`, as a socket would carry it: about half the event-loop
 * time of a prepared statement (decision 0022). It writes with node-postgres's own `pg-protocol`
 * and reads PGlite's answers with its parser too, as node-postgres reads a socket (PGlite's own
 * parser, behind `execProtocolStream`, cost a round trip about 40 µs more), then emits them in
 * order once the hand-over returned, so a commit's NotificationResponse is handled before the
 * ReadyForQuery that resolves it.
 *
 * Nothing else may talk to the same PGlite while a connection is open: PGlite's own `query` would
 * land between a statement's messages.
 */
import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import { Parser } from 'pg-protocol/dist/parser.js';

/** What node-postgres passes to the extended-protocol methods (pg-protocol's serializer takes them as they are). */
type Serialized<K extends keyof typeof serialize> = Parameters<(typeof serialize)[K]>[0];
/** A message of PGlite's answers, as node-postgres's own parser reads it from a socket. */
type BackendMessage = Parameters<Parameters<Parser['parse']>[1]>[0];

export class PgliteConnection extends EventEmitter {
  // Read and written by node-postgres's Client.
  _connecting = false;
  _ending = false;
  readonly parsedStatements: Record<string, string> = {};
  readonly submittedNamedStatements: Record<string, string> = {};
  readonly stream = { destroy: () => this.end() };

  /** PGlite's answers, read as node-postgres reads a socket's. */
  private readonly parser = new Parser();
  /** Messages written since the last hand-over. */
  private pending: Uint8Array[] = [];
  /** Hand-overs in order: each waits for the previous one's answers to be emitted. */
  private queue: Promise<void> = Promise.resolve();
  private ended = false;

  constructor(private readonly pglite: PGlite) {
    super();
  }

  /** Ready once PGlite is; the first ReadyForQuery (PGlite's answer to a Sync) carries its transaction status. */
  connect(): void {
    this._connecting = true;
    this.queue = this.queue.then(async () => {
      await this.pglite.waitReady;
    });
    this.pending.push(serialize.sync());
    this.handOver();
  }

  query(text: string): void {
    this.pending.push(serialize.query(text));
    this.handOver();
  }
  parse(query: Serialized<'parse'>): void {
    this.pending.push(serialize.parse(query));
  }
  bind(config: Serialized<'bind'>): void {
    this.pending.push(serialize.bind(config));
  }
  describe(msg: Serialized<'describe'>): void {
    this.pending.push(serialize.describe(msg));
  }
  execute(config: Serialized<'execute'>): void {
    this.pending.push(serialize.execute(config));
  }
  close(msg: Serialized<'close'>): void {
    this.pending.push(serialize.close(msg));
  }
  flush(): void {
    this.pending.push(serialize.flush());
    this.handOver();
  }
  sync(): void {
    this.pending.push(serialize.sync());
    this.handOver();
  }

  /** Ends after what was handed over; node-postgres waits for `end`. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = this.queue.then(() => {
      this.emit('end');
    });
  }

  // A socket's other duties: none here (no TLS, no authentication, no cancel, nothing to keep the process alive).
  requestSsl(): void {}
  startup(): void {}
  password(): void {}
  cancel(): void {}
  ref(): void {}
  unref(): void {}

  private handOver(): void {
    if (this.ended) return;
    const messages = this.pending;
    this.pending = [];
    const bytes = messages.length === 1 ? messages[0]! : Buffer.concat(messages);
    const run = async () => {
      const answers: BackendMessage[] = [];
      try {
        await this.pglite.execProtocolRawStream(bytes, {
          // The file systems db.ts opens PGlite on (node's, or memory) have nothing to sync.
          syncToFs: false,
          // A copy: the chunk may be a view of PGlite's memory, and the parser may keep a part of it.
          onRawData: (chunk) => this.parser.parse(Buffer.from(chunk), (message) => answers.push(message)),
        });
      } catch (err) {
        // PGlite itself failed (a statement's failure is an answer): the connection is unusable.
        this.emit('error', err instanceof Error ? err : new Error(String(err)));
        return;
      }
      for (const answer of answers) this.emit(answer.name === 'error' ? 'errorMessage' : answer.name, answer);
    };
    // The next hand-over runs whatever became of this one.
    this.queue = this.queue.then(run, run);
  }
}
