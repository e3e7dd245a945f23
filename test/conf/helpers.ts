/**
 * Test helpers for conf: a temporary configuration directory per test, removed afterwards,
 * and shortcuts to write files into it and read the goldens in testdata/conf.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach } from "vitest";

/** testdata/conf, where the goldens live. */
export const testdataDir = join(dirname(fileURLToPath(import.meta.url)), "../../testdata/conf");

/** Reads a golden file from testdata/conf. */
export function golden(name: string): Promise<Buffer> {
  return readFile(join(testdataDir, name));
}

/** UTF-8 bytes of a string, as a plain Uint8Array (what the parsers return). */
export function bytesOf(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "utf8"));
}

/** Text of bytes. */
export function textOf(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("utf8");
}

/** A fresh directory per test (`dir.path`), removed after it; `write` creates parents. */
export function useTempDir(): {
  readonly path: string;
  write(relative: string, content: string | Uint8Array): Promise<string>;
} {
  let path = "";
  beforeEach(async () => {
    path = await mkdtemp(join(tmpdir(), "libcni-conf-"));
  });
  afterEach(async () => {
    await rm(path, { recursive: true, force: true });
  });
  return {
    get path() {
      return path;
    },
    async write(relative: string, content: string | Uint8Array): Promise<string> {
      const file = join(path, relative);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content, { mode: 0o600 });
      return file;
    },
  };
}

/** Runs `fn` and returns what it threw (fails the test when it does not throw). */
export async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error, none was thrown");
}
