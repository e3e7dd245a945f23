/**
 * Reads the corpus data in testdata/conformance/: conflists (as written by a user, bytes
 * exact, with an optional `.go.conflist` equivalent for Go 1.1.2) and plugin results.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CaseRuntimeConf, ScriptedReply } from "../harness/case.js";
import { repoRoot } from "../harness/sandbox.js";

/** testdata/conformance. */
export const dataDir = join(repoRoot, "testdata/conformance");

/** One conflist file of the corpus. */
export interface ConflistFile {
  name: string;
  bytes: Buffer;
  /** The equivalent list Go 1.1.2 is given, when the file uses v1.3.0-only syntax. */
  goText?: string;
}

/** Every conflist, sorted by name. */
export function conflists(): ConflistFile[] {
  const dir = join(dataDir, "conflists");
  const names = readdirSync(dir).filter(
    (n) => n.endsWith(".conflist") && !n.endsWith(".go.conflist"),
  );
  return names.sort().map((file) => {
    const name = file.slice(0, -".conflist".length);
    const goFile = join(dir, `${name}.go.conflist`);
    let goText: string | undefined;
    try {
      goText = readFileSync(goFile, "utf8");
    } catch {
      goText = undefined;
    }
    return { name, bytes: readFileSync(join(dir, file)), goText };
  });
}

/** Every plugin result text, by name (file name without `.json`). */
export function results(): Map<string, string> {
  const dir = join(dataDir, "results");
  const out = new Map<string, string>();
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith(".json"))
      out.set(f.slice(0, -".json".length), readFileSync(join(dir, f), "utf8"));
  }
  return out;
}

/** A result by name; throws when the corpus lacks it. */
export function result(name: string): string {
  const r = results().get(name);
  if (r === undefined) throw new Error(`no result ${name} in testdata/conformance/results`);
  return r;
}

/** The spec versions a result or config can carry (0.1.0 to 1.1.0). */
export const specVersions = ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"];

/** A VERSION reply listing `versions`. */
export function versionReply(versions: string[], cniVersion = "1.0.0"): ScriptedReply {
  return { out: JSON.stringify({ cniVersion, supportedVersions: versions }) };
}

/** The runtime configuration most cases use: every field set, capability args of every kind. */
export function defaultRuntimeConf(): CaseRuntimeConf {
  return {
    containerID: "ctr-1",
    netNS: "/var/run/netns/ctr-1",
    ifName: "eth0",
    args: [
      ["K8S_POD_NAMESPACE", "default"],
      ["K8S_POD_NAME", "web-0"],
    ],
    capabilityArgs: {
      portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }],
      bandwidth: { ingressRate: 1000, ingressBurst: 2000 },
      dns: { servers: ["10.0.0.10"], searches: ["svc.local"] },
      ips: ["10.1.0.9/16"],
      mac: "c2:11:22:33:44:55",
    },
  };
}
