/**
 * An intent's owner names the worker thread that wrote it (`thread`, its threadId; left out for
 * the main thread, so the main thread's intents are byte for byte earlier versions'): another
 * thread's setups are not in this thread's registry of setups in flight, so its intent is in
 * flight elsewhere while this process runs. This file plays worker thread 7.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import {
  type IntentRead,
  intentPath,
  ownedElsewhere,
  readIntent,
  type SetupOwner,
  writeIntent,
} from "../../src/cache/intent.js";

vi.mock("node:worker_threads", async (importOriginal) => ({
  ...(await importOriginal<typeof import("node:worker_threads")>()),
  threadId: 7,
}));

const attachment = {
  network: "a",
  ifName: "eth0",
  netNS: "/n",
  config: undefined,
  cniArgs: undefined,
  capabilityArgs: undefined,
};

let cacheDir: string;
beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), "libcni-owner-thread-"));
  await writeIntent(cacheDir, "p", [attachment], false);
});
afterEach(() => rm(cacheDir, { recursive: true, force: true }));

const onDisk = async (): Promise<{ owner: Record<string, unknown> }> =>
  JSON.parse(await readFile(intentPath(cacheDir, "p"), "utf8"));

/** The intent again, its owner's thread set to `thread` (removed when undefined). */
async function rewrite(thread: unknown): Promise<IntentRead> {
  const intent = await onDisk();
  intent.owner.thread = thread;
  await writeFile(intentPath(cacheDir, "p"), JSON.stringify(intent));
  return readIntent(cacheDir, "p");
}

const ownerOf = (read: IntentRead): SetupOwner | undefined =>
  read.kind === "attachments" ? read.owner : undefined;

it("is written and read back; the intent is this thread's, not in flight elsewhere", async () => {
  expect((await onDisk()).owner.thread).toBe(7);
  const owner = ownerOf(await readIntent(cacheDir, "p"));
  expect(owner?.thread).toBe(7);
  expect(await ownedElsewhere(owner)).toBe(false);
});

it("another thread's intent, or the main thread's (no field), is in flight elsewhere", async () => {
  const other = ownerOf(await rewrite(8));
  expect(other?.thread).toBe(8);
  expect(await ownedElsewhere(other)).toBe(true);
  const main = ownerOf(await rewrite(undefined));
  expect(main).toBeDefined();
  expect(main?.thread).toBeUndefined();
  expect(await ownedElsewhere(main)).toBe(true);
  // A dead process's intent is not in flight, whichever thread wrote it.
  expect(await ownedElsewhere({ ...(other as SetupOwner), pid: 2 ** 22 + 1 })).toBe(false);
});

// Each case a tuple: it.each spreads an array.
it.each([
  [0],
  [-1],
  [1.5],
  ["7"],
  [null],
  [[7]],
])("a thread of %j is a malformed owner: the intent is unusable", async (thread: unknown) => {
  const read = await rewrite(thread);
  expect(read.kind).toBe("unusable");
  if (read.kind === "unusable") {
    expect(read.error.reason).toBe("cannot be read: its owner is malformed");
  }
});
