/**
 * The library under test, pointed at a world: plugins from the world's wrapper dir, the
 * result cache in the world's temp dir. Also the small conversions the scenarios share.
 */
import { access } from "node:fs/promises";
import { join } from "node:path";
import { CNIConfig } from "../../../src/api/index.js";
import type { RuntimeConf } from "../../../src/api/types.js";
import { networkConfFromBytes } from "../../../src/conf/index.js";
import type { NetworkConfigList } from "../../../src/conf/types.js";
import { marshal } from "../../../src/encoding/json.js";
import { CNIError } from "../../../src/errors/index.js";
import type { Result } from "../../../src/types/index.js";
import type { Container, E2EWorld } from "./world.js";

/** A CNIConfig running the world's (wrapped) plugins with the world's cache dir. */
export function cniFor(world: E2EWorld): CNIConfig {
  return new CNIConfig({ path: [world.binDir], cacheDir: world.cacheDir });
}

/** Parses a conflist given as a plain object (as a runtime reads one from disk). */
export function confList(list: Record<string, unknown>): NetworkConfigList {
  return networkConfFromBytes(JSON.stringify(list));
}

/** The RuntimeConf of a container's attachment. */
export function attachment(
  container: Container,
  ifName = "eth0",
  extra: Partial<RuntimeConf> = {},
): RuntimeConf {
  return { containerID: container.id, netNS: container.netnsPath, ifName, ...extra };
}

/** A 1.x result as the plain JSON Go would print (what the scenarios assert on). */
export interface ResultJSON {
  cniVersion: string;
  interfaces?: { name: string; mac?: string; sandbox?: string }[];
  ips?: { address: string; gateway?: string; interface?: number }[];
  routes?: { dst: string; gw?: string }[];
}

/** The Go encoding of a result, parsed back; throws when there is no result. */
export function resultJSON(result: Result | undefined): ResultJSON {
  if (result === undefined) throw new Error("expected a result, got none");
  return JSON.parse(marshal(result)) as ResultJSON;
}

/** The path of the cache record of an attachment. */
export function cacheRecordPath(world: E2EWorld, network: string, rt: RuntimeConf): string {
  return join(world.cacheDir, "results", `${network}-${rt.containerID}-${rt.ifName}`);
}

/** True when a file exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** What a promise rejected with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error("expected a rejection, but the call succeeded");
}

/** The plugin's CNIError: the error itself or the first one in its `cause` chain. */
export function cniErrorOf(error: unknown): CNIError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current !== undefined && current !== null; depth++) {
    if (current instanceof CNIError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
