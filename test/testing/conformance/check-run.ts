/**
 * What the checker's system suites share (root: the checker makes network namespaces): the
 * test plugins' folder, a check with a state directory of its own per run, the chained
 * prevResult, and the readers of a report. `useCheckSandbox()` registers the suite's hooks: the
 * state directories' root, removed after, and the check that every namespace a check made is
 * gone.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect } from "vitest";
import {
  type CheckPluginOptions,
  type ConformanceReport,
  checkPlugin,
} from "../../../src/testing/conformance/index.js";

const here = dirname(fileURLToPath(import.meta.url));
export const plugins = join(here, "plugins");
export const examples = join(here, "..", "..", "..", "examples", "plugins");
export const builtSkel = join(here, "..", "..", "..", "dist", "skel", "index.js");
export const allVersions = ["0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"];

/** A prevResult that makes the plugin's ADD a chained one (the checker writes in the sandbox). */
const prevResult = {
  cniVersion: "1.0.0",
  interfaces: [{ name: "prev0", sandbox: "/set-by-the-checker" }],
  ips: [{ address: "10.99.0.5/24", interface: 0 }],
  dns: { nameservers: ["192.0.2.53"] },
};

let dataDir: string | undefined;
const listNetns = () => readdir("/run/netns").catch(() => [] as string[]);

/** The suite's hooks: root required, a state root removed after, no namespace of ours left. */
export function useCheckSandbox(): void {
  let netnsBefore: string[] = [];
  beforeAll(async () => {
    if (process.getuid?.() !== 0)
      throw new Error("the system tier runs as root (network namespaces)");
    netnsBefore = await listNetns();
    dataDir = await mkdtemp(join(tmpdir(), "lcni-conformance-"));
  });
  afterAll(async () => {
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    // The checker removes every namespace it made, the pods' and its host's.
    const left = (await listNetns()).filter((n) => !netnsBefore.includes(n));
    expect(left.filter((n) => n.startsWith(`lcnicheck-${process.pid}-`))).toEqual([]);
  });
}

/** Each run gets a state directory of its own. */
let runs = 0;
export function check(
  plugin: string,
  options: CheckPluginOptions & { chained?: boolean } = {},
): Promise<ConformanceReport> {
  if (dataDir === undefined) throw new Error("useCheckSandbox() registers the state directory");
  const { chained, ...rest } = options;
  const config = {
    type: plugin.split("/").at(-1),
    dataDir: join(dataDir, `run-${++runs}`),
    ...(chained ? { prevResult } : {}),
    ...(rest.config as Record<string, unknown> | undefined),
  };
  return checkPlugin(plugin, { ...rest, config });
}

/** The rules that found something: a failure, or a warning ("should" rules). */
export const failing = (report: ConformanceReport) =>
  [
    ...new Set(
      report.results.filter((r) => r.status === "fail" || r.status === "warn").map((r) => r.rule),
    ),
  ].sort();

/** The command lines of the processes running now, by pid. */
export async function processes(): Promise<string[]> {
  const pids = (await readdir("/proc")).filter((n) => /^\d+$/.test(n));
  const lines = await Promise.all(
    pids.map((p) => readFile(`/proc/${p}/cmdline`, "utf8").catch(() => "")),
  );
  return lines.map((l) => l.replaceAll("\0", " ").trim()).filter((l) => l !== "");
}

export const statusOf = (report: ConformanceReport, rule: string, version: string) =>
  report.results.find((r) => r.rule === rule && r.version === version)?.status;
