/**
 * upstream #1183 ("fix: move exec inside loop", for #855) on one launcher: Go built one
 * exec.Cmd before its "text file busy" loop and ran it again on each retry, so the copiers a
 * refused start left on it broke the next one. Each retry here is a new start (a new process)
 * with the whole stdin, and only the run that started answers: on the direct spawn
 * (text-busy-fresh.test.ts) and on the spawner helper (text-busy-fresh.system.test.ts), not
 * only on whichever `"auto"` picks (text-busy.test.ts).
 */
import { chmod, open } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { LauncherName } from "../../src/engines/start/select.js";
import type { ExecMessage } from "../../src/index.js";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { recordEvents } from "../internal/channel-recorder.js";
import { makeTempDir, removeTempDir, sleep } from "./helpers.js";

/** Runs the #1183 scenario with `launcher` and checks each retry started afresh. */
export async function expectRetriesAfresh(launcher: LauncherName): Promise<void> {
  const dir = await makeTempDir();
  const recorder = recordEvents();
  const pluginPath = join(dir, "being-written");
  // The plugin is still open for writing while the runtime execs it: starts are refused.
  const writer = await open(pluginPath, "w", 0o755);
  try {
    // Each process that runs says its pid on stderr, then echoes its stdin.
    await writer.write('#!/bin/sh\nprintf "pid=$$;" >&2\nexec cat\n');
    await chmod(pluginPath, 0o755);
    const stdin = new Uint8Array(256 * 1024).map((_, i) => 0x20 + (i % 90));
    const forwarded: Uint8Array[] = [];
    const exec = new RawExec({
      stderr: { write: (chunk) => forwarded.push(Uint8Array.from(chunk)) },
      textBusyRetries: 50,
      textBusyDelayMs: 50,
      launcher,
    });
    const call = exec.execPlugin(pluginPath, stdin, []);
    await sleep(300);
    await writer.close();
    const out = await call;
    const ends = recorder.events.filter((e) => e.channel === "exec" && e.event === "asyncEnd");
    expect(ends).toHaveLength(1);
    // Starts were refused before the one that ran.
    expect((ends[0]?.message as ExecMessage).attempts).toBeGreaterThanOrEqual(2);
    // The run that started got the whole stdin, and its output is the answer, alone.
    expect(Buffer.from(out).equals(Buffer.from(stdin))).toBe(true);
    // One process ran (the refused starts made none), and only its stderr was forwarded.
    expect(Buffer.concat(forwarded).toString()).toMatch(/^pid=\d+;$/);
  } finally {
    recorder.stop();
    await writer.close().catch(() => undefined);
    await removeTempDir(dir);
  }
}
