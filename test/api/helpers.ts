/**
 * Shared setup for the api tests, after upstream's api_test.go: a temporary cache directory,
 * a bin directory where the noop and sleep fixtures are installed under upstream's plugin
 * names, noop debug files, and upstream's three-plugin list.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NetworkConfigList, PluginConfig } from "../../src/conf/index.js";
import { networkConfFromBytes, networkPluginConfFromBytes } from "../../src/conf/index.js";
import { goStruct, marshal } from "../../src/encoding/json.js";
import { createCommandLog, type NoopScript, writeDebug } from "../fixtures/plugins/noop-debug.js";

const fixtures = join(import.meta.dirname, "../fixtures/plugins");
const root = join(import.meta.dirname, "../..");

/** Temporary directories of one test, removed by `cleanup`. */
export interface Sandbox {
  /** The CNIConfig's cache directory. */
  cacheDir: string;
  /** CNI_PATH: holds `noop` and `sleep`. */
  binDir: string;
  /** Scratch space for debug files and command logs. */
  work: string;
  cleanup(): void;
}

/** Creates a sandbox; the noop fixture needs the built library (`npm run build`). */
export function sandbox(): Sandbox {
  if (!existsSync(join(root, "build/skel/index.js"))) {
    throw new Error(
      "build/ is missing: run `npm run build` before the api tests (the noop fixture imports it)",
    );
  }
  const base = mkdtempSync(join(tmpdir(), "libcni-api-"));
  const binDir = join(base, "bin");
  const cacheDir = join(base, "cache");
  const work = join(base, "work");
  for (const d of [binDir, cacheDir, work]) mkdirSync(d, { recursive: true });
  symlinkSync(join(fixtures, "noop.mjs"), join(binDir, "noop"));
  symlinkSync(join(fixtures, "sleep"), join(binDir, "sleep"));
  return { cacheDir, binDir, work, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

let counter = 0;

/** A fresh debug file scripted with `script`, and an empty command log next to it. */
export async function debugFiles(
  box: Sandbox,
  script: NoopScript,
): Promise<{ debug: string; log: string }> {
  counter++;
  const debug = join(box.work, `debug-${counter}`);
  const log = join(box.work, `log-${counter}`);
  await writeDebug(debug, script);
  await createCommandLog(log);
  return { debug, log };
}

/** Parses one plugin configuration (upstream `ConfFromBytes`). */
export function pluginConf(text: string): PluginConfig {
  return networkPluginConfFromBytes(new TextEncoder().encode(text));
}

/** Parses a list (upstream `ConfListFromBytes`). */
export function confList(text: string): NetworkConfigList {
  return networkConfFromBytes(new TextEncoder().encode(text));
}

/** Writes a cache file by hand, as upstream's tests do. */
export function writeCacheFile(box: Sandbox, name: string, content: string | Uint8Array): string {
  const dir = join(box.cacheDir, "results");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

/** Upstream's portMapping, a Go struct: its JSON keeps field order. */
export function portMapping(hostPort: number, containerPort: number, protocol: string): object {
  return goStruct({ hostPort, containerPort, protocol });
}

/** One plugin of upstream's list (`newPluginInfo`). */
export interface PluginInfo {
  debug: string;
  log: string;
  /** The plugin's configuration text as it appears in the list. */
  config: string;
}

/**
 * Upstream's `newPluginInfo`: a noop config with `some-key`, an optional `prevResult`, its
 * debug file and command log, and `capabilities` for the listed names.
 */
export async function newPluginInfo(
  box: Sandbox,
  configValue: string,
  prevResult: string,
  result: string,
  capabilities: string[],
): Promise<PluginInfo> {
  const { debug, log } = await debugFiles(box, { reportResult: result });
  let config = `{"type": "noop", "some-key": "${configValue}"`;
  if (prevResult !== "") config += `, "prevResult": ${prevResult}`;
  config += `, "debugFile": ${marshal(debug)}, "commandLog": ${marshal(log)}`;
  if (capabilities.length > 0) {
    config += `, "capabilities": {${capabilities.map((c) => `"${c}": true`).join(", ")}}`;
  }
  config += "}";
  return { debug, log, config };
}

/** Upstream's `makePluginList`: noop three times (a result, PASSTHROUGH, INJECT-DNS). */
export async function makePluginList(
  box: Sandbox,
  cniVersion: string,
  ipResult: string,
): Promise<{ list: NetworkConfigList; plugins: PluginInfo[] }> {
  const plugins = [
    await newPluginInfo(box, "some-value", "", ipResult, ["portMappings", "otherCapability"]),
    await newPluginInfo(box, "some-other-value", ipResult, "PASSTHROUGH", ["otherCapability"]),
    await newPluginInfo(box, "yet-another-value", ipResult, "INJECT-DNS", []),
  ];
  const text = `{
"name": "some-list",
"cniVersion": "${cniVersion}",
"plugins": [
${plugins[0].config},
${plugins[1].config},
${plugins[2].config}
]
}`;
  return { list: confList(text), plugins };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error("expected a rejection, but the call succeeded");
}
