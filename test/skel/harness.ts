/**
 * In-process harness for skel tests, as upstream's dispatcher tests: an environment table,
 * stdin bytes, stdout/stderr collectors and fake callbacks that record their calls.
 */

import { CNIError } from "../../src/errors/index.js";
import type { CmdArgs, OutputStream, PluginCallback, PluginContext } from "../../src/skel/index.js";

/** An OutputStream that keeps what was written. */
export class Collector implements OutputStream {
  readonly chunks: (string | Uint8Array)[] = [];
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean {
    this.chunks.push(chunk);
    callback?.(null);
    return true;
  }
  text(): string {
    return this.chunks.map((c) => (typeof c === "string" ? c : Buffer.from(c).toString())).join("");
  }
}

/** A fake callback (upstream `fakeCmd`): counts calls, keeps the last args, may throw. */
export class FakeCmd {
  callCount = 0;
  received: CmdArgs | undefined;
  receivedCtx: PluginContext | undefined;
  returnsError: unknown;
  readonly func: PluginCallback = async (args, ctx) => {
    this.callCount++;
    this.received = args;
    this.receivedCtx = ctx;
    if (this.returnsError !== undefined) throw this.returnsError;
  };
}

/** A stdin that fails every read (upstream `BadReader`), counting reads. */
export class BadReader implements AsyncIterable<Uint8Array> {
  readCount = 0;
  constructor(private readonly error: Error = new Error("banana")) {}
  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: async () => {
        this.readCount++;
        throw this.error;
      },
    };
  }
}

/** The wire fields of an error (or undefined), for `toEqual` against upstream's expectations. */
export function wire(
  error: CNIError | undefined,
): { code: number; msg: string; details: string } | undefined {
  if (error === undefined) return undefined;
  expectCNIError(error);
  return { code: error.code, msg: error.msg, details: error.details };
}

function expectCNIError(error: unknown): void {
  if (!(error instanceof CNIError)) throw new Error(`not a CNIError: ${String(error)}`);
}

/** Bytes of a string, as stdin. */
export const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "utf8"));
