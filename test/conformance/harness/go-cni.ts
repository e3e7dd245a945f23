/**
 * containerd/go-cni as the pod layer's reference: test/conformance/go/gocnidriver built against
 * Debian's go-cni 1.1.7 and libcni 1.1.2 (GOPATH mode), run in a private mount namespace with a
 * temp dir bound over /var/lib (go-cni has no option for its result cache dir, so it writes
 * /var/lib/cni/results: never the machine's own). Plugins are recording wrappers: each call's
 * stdin and CNI_* environment is logged, then the real plugin runs in the world's host
 * namespace on that stdin.
 */
import { chmod, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { netnsPath } from "../../e2e/harness/netns.js";
import { pluginSourceDir } from "../../e2e/harness/prereq.js";
import type { E2EWorld } from "../../e2e/harness/world.js";
import { buildGoProgram, goProgramPath, runJSONProgram } from "./go-runner.js";

/** Builds the go-cni driver; fails (never skips) when go-cni's sources are missing. */
export function buildGoCNIDriver(): Promise<string> {
  return buildGoProgram(
    "gocnidriver",
    "github.com/containerd/go-cni/cni.go",
    "golang-github-containerd-go-cni-dev",
  );
}

/** One plugin call as a recording wrapper logged it. */
export interface Invocation {
  plugin: string;
  command: string;
  /** `CNI_*` variables, sorted, `K=V` each. */
  env: string[];
  stdin: string;
}

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** Writes recording wrappers for `plugins` into `binDir`, logging into `logDir`. */
export async function recordingPlugins(
  world: E2EWorld,
  binDir: string,
  logDir: string,
  plugins: readonly string[],
): Promise<void> {
  await mkdir(binDir, { recursive: true });
  for (const plugin of plugins) {
    const script = [
      "#!/bin/sh",
      "# Records the call (the runtimes call plugins one at a time), then runs the real plugin",
      "# in the world's host namespace on the recorded stdin.",
      "set -u",
      `log=${quote(logDir)}`,
      'mkdir -p "$log"',
      `n=$(find "$log" -name '*.stdin' | wc -l)`,
      `base="$log/$(printf '%04d' "$n")-${plugin}-\${CNI_COMMAND:-NONE}"`,
      'cat >"$base.stdin"',
      "env -0 | grep -z '^CNI_' | sort -z >\"$base.env\"",
      `exec nsenter --net=${quote(netnsPath(world.hostNs))} ${quote(join(pluginSourceDir, plugin))} <"$base.stdin"`,
      "",
    ].join("\n");
    const path = join(binDir, plugin);
    await writeFile(path, script);
    await chmod(path, 0o755);
  }
}

/** The calls logged in `logDir`, in order; the log is emptied. */
export async function takeInvocations(logDir: string): Promise<Invocation[]> {
  const names = (await readdir(logDir).catch(() => [] as string[]))
    .filter((n) => n.endsWith(".stdin"))
    .sort();
  const out: Invocation[] = [];
  for (const n of names) {
    const base = join(logDir, n.slice(0, -".stdin".length));
    const [, plugin = "", command = ""] = /^\d{4}-(.+)-([A-Z]+)$/.exec(n.slice(0, -6)) ?? [];
    const env = (await readFile(`${base}.env`, "utf8")).split("\0").filter((l) => l !== "");
    out.push({ plugin, command, env, stdin: await readFile(`${base}.stdin`, "utf8") });
  }
  await rm(logDir, { recursive: true, force: true });
  return out;
}

/** What the go-cni driver is given. */
export interface GoCNIPod {
  pluginDirs: string[];
  confDir: string;
  prefix: string;
  loopback: boolean;
  id: string;
  netns: string;
  portMappings?: object[];
  bandwidth?: object;
  args?: Record<string, string>;
  ops: ("setupSerially" | "check" | "remove")[];
}

/** Runs the driver with /var/lib bound to `varLib`; each op's error text, if any. */
export async function runGoCNI(
  pod: GoCNIPod,
  varLib: string,
): Promise<{ op: string; error?: string }[]> {
  await mkdir(varLib, { recursive: true });
  const driver = goProgramPath("gocnidriver");
  const args = [
    "--mount",
    "--propagation",
    "private",
    "sh",
    "-c",
    'mount --bind "$0" /var/lib && exec "$1"',
    varLib,
    driver,
  ];
  const out = await runJSONProgram<{ ops: { op: string; error?: string }[] }>("unshare", args, pod);
  return out.ops;
}
