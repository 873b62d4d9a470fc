import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../../errors';
import type { Zone } from '../agency-time';
import type { SpreadsheetKind } from './file-check';
import {
  type FoundLayout,
  type FromWorker,
  type RowColumns,
  type SheetChoice,
  type ToWorker,
  unpackRows,
} from './protocol';
import type { Rejection } from './row-rules';
import type { RowMapping } from './rows';

export interface WorkerLimits {
  /** V8 old-generation cap of a parse worker; past it the upload is refused, the API lives on. */
  memoryMb: number;
  /** Longest the worker may stay silent (reading a workbook, building the rejected-rows file). */
  timeoutMs: number;
}

export const workerMessages = {
  timeout: (seconds: number) =>
    `Reading the spreadsheet took longer than ${seconds} s, the limit for one upload. Split it into smaller files.`,
  memory: 'The spreadsheet needs more memory to read than one upload may use. Split it into smaller files.',
};

/** How many valid rows the worker sends at a time: the last chunk is inserted after reading ends. */
const CHUNK_ROWS = 250;

export interface ParseSummary {
  totalRows: number;
  /** Rows the worker rejected (its Reason is kept there for the rejected-rows file). */
  invalidCount: number;
  /** How many of those repeat a phone of an earlier row of the file. */
  duplicatesInFile: number;
}

/** One upload's conversation with its worker: parse, then (maybe) build the rejected-rows file. */
export class ParseJob {
  private readonly inbox: FromWorker[] = [];
  private waiting: { resolve: (m: FromWorker) => void; reject: (e: Error) => void } | null = null;
  private broken: Error | null = null;

  constructor(
    private readonly worker: Worker,
    private readonly limits: WorkerLimits,
    private readonly onClose: () => void,
  ) {
    // Listeners stay for the job's life: an 'error' with no listener would end the process.
    worker.on('message', (message: FromWorker) => {
      if (this.waiting) this.settle().resolve(message);
      else this.inbox.push(message);
    });
    worker.on('error', (error: Error & { code?: string }) =>
      this.fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new HttpError(413, workerMessages.memory) : error,
      ),
    );
    worker.on('exit', (code) => this.fail(new Error(`the parse worker stopped (exit code ${code})`)));
  }

  private settle() {
    const waiting = this.waiting!;
    this.waiting = null;
    return waiting;
  }

  private fail(error: Error): void {
    this.broken ??= error;
    if (this.waiting) this.settle().reject(this.broken);
  }

  /** The worker's next message; 413 when it stays silent past the limit. */
  private next(): Promise<FromWorker> {
    const queued = this.inbox.shift();
    if (queued) return Promise.resolve(queued);
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        void this.worker.terminate();
        this.fail(new HttpError(413, workerMessages.timeout(Math.round(this.limits.timeoutMs / 1000))));
      }, this.limits.timeoutMs);
      this.waiting = {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
    });
  }

  /**
   * Sends the file and answers, once the worker has found the header, which sheet it reads and
   * how many rows the file says it has (a hint, 0 when it says nothing), or throws the refusal as an HttpError.
   * `chunks()` then yields the valid rows as the worker reads them, and may still throw a
   * refusal (too many rows, damaged part way): insert them in a transaction.
   */
  async start(
    file: Uint8Array,
    options: {
      maxRows: number;
      zone: Zone;
      kind?: SpreadsheetKind;
      sheet?: number;
      mapping?: RowMapping;
      /** The caller is done with `file` and nothing shares its memory: move it, don't copy it. */
      handOver?: boolean;
    },
  ): Promise<{ expectedRows: number; sheet: SheetChoice; layout: FoundLayout }> {
    const { handOver, ...parse } = options;
    // Copying a 10 MB file to the worker cost 50 ms. A small Buffer may sit in Node's shared
    // pool (exactly poolSize bytes), whose memory must never move away: that one is copied.
    const transfer = handOver && file.buffer.byteLength > Buffer.poolSize ? [file.buffer as ArrayBuffer] : [];
    this.worker.postMessage(
      { type: 'parse', file, ...parse, chunkRows: CHUNK_ROWS } satisfies ToWorker,
      transfer,
    );
    const first = await this.next();
    if (first.type === 'failed') throw new HttpError(first.status, first.message);
    if (first.type !== 'started') throw new Error(`unexpected ${first.type} from the parse worker`);
    return { expectedRows: first.expectedRows, sheet: first.sheet, layout: first.layout };
  }

  async *chunks(): AsyncGenerator<RowColumns, ParseSummary> {
    for (;;) {
      const message = await this.next();
      if (message.type === 'rows') yield unpackRows(message.valid);
      else if (message.type === 'parsed') return message;
      else if (message.type === 'failed') throw new HttpError(message.status, message.message);
      else throw new Error(`unexpected ${message.type} from the parse worker`);
    }
  }

  /** The rejected rows (the worker's own plus `extra`, found against the database) as .xlsx. */
  async invalidFile(extra: Rejection[]): Promise<Buffer> {
    this.worker.postMessage({ type: 'invalid-file', extra } satisfies ToWorker);
    const reply = await this.next();
    if (reply.type !== 'invalid-file') throw new Error(`unexpected ${reply.type} from the parse worker`);
    return Buffer.from(reply.file.buffer, reply.file.byteOffset, reply.file.byteLength);
  }

  close(): void {
    this.broken ??= new Error('the parse job is closed');
    void this.worker.terminate();
    this.onClose();
  }
}

/**
 * Parse workers, one per upload. Starting one costs about half a second (tsx compiles the
 * worker's TypeScript), so a spare is kept warm once the dashboard has been opened.
 */
export function createParseWorkers(limits: WorkerLimits) {
  // A plain path, not new URL(…, import.meta.url): Worker checks `instanceof URL`, which fails
  // for the URL class a test environment such as jsdom puts on globalThis.
  const entry = path.join(import.meta.dirname, 'worker-entry.mjs');
  let spare: Worker | null = null;
  let closed = false;

  function spawn(): Worker {
    const worker = new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 64 },
    });
    // An idle spare must not keep the process (or a test run) alive.
    worker.unref();
    return worker;
  }

  function forget(worker: Worker) {
    return () => {
      if (spare === worker) spare = null;
    };
  }

  const workers = {
    /** Starts a spare worker if none is waiting. */
    warm(): void {
      if (spare || closed) return;
      const worker = spawn();
      worker.once('error', forget(worker)).once('exit', forget(worker));
      spare = worker;
    },

    start(): ParseJob {
      if (closed) throw new Error('parse workers are closed');
      const worker = spare ?? spawn();
      spare = null;
      worker.removeAllListeners('error').removeAllListeners('exit');
      return new ParseJob(worker, limits, () => setImmediate(() => workers.warm()));
    },

    async close(): Promise<void> {
      closed = true;
      const idle = spare;
      spare = null;
      await idle?.terminate();
    },
  };
  return workers;
}
export type ParseWorkers = ReturnType<typeof createParseWorkers>;
