/**
 * The Go side: builds test/conformance/go/cnidriver against Debian's libcni 1.1.2 (GOPATH
 * mode) and runs a case through it. Missing Go or libcni sources are an error, never a skip.
 */
import { execFile, spawn } from "node:child_process";
import { access, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { ConformanceCase, Observation, ScriptedReply } from "./case.js";
import { repoRoot, type Sandbox } from "./sandbox.js";

const execFileP = promisify(execFile);

/** Where Debian's golang-github-appc-cni-dev puts the libcni 1.1.2 sources. */
export const goPath = "/usr/share/gocode";
const buildDir = join(repoRoot, "test/conformance/.build");
/** The built driver. */
export const driverPath = join(buildDir, "cnidriver");

/** The environment for Go and the plugins it runs: ours without any CNI_* variable. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("CNI_")) env[k] = v;
  }
  return { ...env, ...extra };
}

/** Where {@link buildGoProgram} puts the program `name`. */
export function goProgramPath(name: string): string {
  return join(buildDir, name);
}

/**
 * Builds `./test/conformance/go/<name>` into the build dir in GOPATH mode (Debian's sources
 * have no go.mod), after checking that `source` (a file of the Go package it needs) is
 * installed: a missing package fails with what to install, never a skip.
 */
export async function buildGoProgram(
  name: string,
  source: string,
  debPackage: string,
): Promise<string> {
  await access(join(goPath, "src", source)).catch(() => {
    throw new Error(
      `${source} not found under ${goPath} (apt-get install ${debPackage} golang-go)`,
    );
  });
  await mkdir(buildDir, { recursive: true });
  const out = goProgramPath(name);
  await execFileP("go", ["build", "-o", out, `./test/conformance/go/${name}`], {
    cwd: repoRoot,
    env: cleanEnv({
      GO111MODULE: "off",
      GOPATH: goPath,
      GOCACHE: join(buildDir, "gocache"),
      GOFLAGS: "",
    }),
  });
  return out;
}

/** Builds the libcni driver; throws with the compiler's output when Go or libcni is missing. */
export function buildDriver(): Promise<string> {
  return buildGoProgram(
    "cnidriver",
    "github.com/containernetworking/cni/libcni/api.go",
    "golang-github-appc-cni-dev",
  );
}

/** Does the case mention spec version 1.1.0 (which 1.1.2 does not know)? */
export function mentions110(c: ConformanceCase): boolean {
  return JSON.stringify(c).includes("1.1.0");
}

/**
 * Rewrites every JSON string token "1.1.0" as "1.0.0", in place (the rest of the bytes, the
 * whitespace included, unchanged).
 */
export function as100(text: string): string {
  return text.replace(/(?<!\\)"1\.1\.0"/g, '"1.0.0"');
}

/**
 * The case as Go 1.1.2 is given it: its `goConfList` when it has one (v1.3.0-only syntax),
 * and, when it uses 1.1.0, every "1.1.0" read as "1.0.0" (the two share result types and
 * converters in v1.3.0, so the port's output is compared with the label rewritten).
 */
export function goSideCase(c: ConformanceCase): ConformanceCase {
  const g: ConformanceCase = { ...c };
  if (c.goConfList !== undefined) {
    g.confList = c.goConfList;
    g.confListB64 = undefined;
  }
  if (!mentions110(c)) return g;
  const t = (s: string | undefined): string | undefined => (s === undefined ? s : as100(s));
  g.confList = t(g.confList);
  g.conf = t(g.conf);
  const plugins: Record<string, Record<string, ScriptedReply>> = {};
  for (const [name, verbs] of Object.entries(c.plugins)) {
    plugins[name] = {};
    for (const [cmd, r] of Object.entries(verbs)) plugins[name][cmd] = { ...r, out: t(r.out) };
  }
  g.plugins = plugins;
  if (c.cacheSeed) {
    g.cacheSeed = Object.fromEntries(Object.entries(c.cacheSeed).map(([k, v]) => [k, as100(v)]));
  }
  return g;
}

/** Runs a (Go-side) case through the driver in its sandbox. */
export async function runGo(c: ConformanceCase, sb: Sandbox): Promise<Observation> {
  const input = {
    confList: c.confList,
    confListB64: c.confListB64,
    conf: c.conf,
    confB64: c.confB64,
    pluginPaths: sb.pluginPaths,
    cacheDir: sb.cache,
    runtimeConf: c.runtimeConf,
    ops: c.ops,
    watchDirs: [sb.cache, sb.log],
    cacheViaRuntimeConf: c.cacheViaRuntimeConf ?? false,
  };
  return runJSONProgram<Observation>(driverPath, [], input, cleanEnv(c.parentEnv ?? {}));
}

/**
 * Runs a Go program that reads one JSON document on stdin and answers one on stdout (the
 * drivers of this tier); rejects with its stderr when it exits non-zero.
 */
export function runJSONProgram<T>(
  file: string,
  args: readonly string[],
  input: unknown,
  env: Record<string, string> = cleanEnv(),
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        reject(new Error(`${file} exited ${code}: ${Buffer.concat(err).toString()}`));
        return;
      }
      try {
        resolve(JSON.parse(Buffer.concat(out).toString("utf8")) as T);
      } catch (e) {
        reject(e);
      }
    });
    child.stdin.end(JSON.stringify(input));
  });
}
