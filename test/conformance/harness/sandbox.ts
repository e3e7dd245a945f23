/**
 * The per-case sandbox both runtimes use, one after the other, at the same path (so CNI_PATH,
 * cache paths and error texts need no rewriting):
 *   <root>/bin/<name>          symlinks to the recorder plugin
 *   <root>/rec/script/...      the scripted replies (see test/fixtures/plugins/recorder)
 *   <root>/rec/log/...         what the plugins received
 *   <root>/cache/              the libcni cache dir
 */
import { execFile } from "node:child_process";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ConformanceCase, FileObservation, ScriptedReply } from "./case.js";

const execFileP = promisify(execFile);

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
/** The recording plugin as a shell script: its behaviour's reference (harness.test.ts). */
export const recorderScript = join(repoRoot, "test/fixtures/plugins/recorder");
/**
 * The same plugin compiled ({@link buildRecorder}), which every case installs under its plugin
 * names: the suite's ten thousand calls cost a fork each instead of the script's five.
 */
export const recorderPath = join(repoRoot, "test/conformance/.build/recorder");

/** Compiles test/fixtures/plugins/recorder.c to {@link recorderPath} (gcc: Debian's gcc). */
export async function buildRecorder(): Promise<string> {
  await mkdir(dirname(recorderPath), { recursive: true });
  // Concurrent suites may build it at once: each writes its own file, then renames it.
  const temp = `${recorderPath}.${process.pid}`;
  await execFileP("gcc", ["-O2", "-o", temp, `${recorderScript}.c`]).catch((error: Error) => {
    throw new Error(`cannot build the recorder (apt-get install gcc libc6-dev): ${error.message}`);
  });
  await rename(temp, recorderPath);
  return recorderPath;
}

/** The directories of one case's sandbox. */
export interface Sandbox {
  root: string;
  bin: string;
  script: string;
  log: string;
  cache: string;
  pluginPaths: string[];
}

/** Creates a parent directory for many sandboxes (remove it with {@link removeDir}). */
export async function makeTempRoot(): Promise<string> {
  return mkdtemp(join(tmpdir(), "libcni-conformance-"));
}

/** Creates the sandbox of a case under `parent`, with its plugins and scripts. */
export async function makeSandbox(
  parent: string,
  c: ConformanceCase,
  index: number,
): Promise<Sandbox> {
  const root = join(parent, `c${index}`);
  const sb: Sandbox = {
    root,
    bin: join(root, "bin"),
    script: join(root, "rec/script"),
    log: join(root, "rec/log"),
    cache: join(root, "cache"),
    pluginPaths: (c.pluginPaths ?? ["bin"]).map((p) => join(root, p)),
  };
  await mkdir(sb.bin, { recursive: true });
  await mkdir(sb.script, { recursive: true });
  for (const name of Object.keys(c.plugins)) await symlink(recorderPath, join(sb.bin, name));
  return sb;
}

/** Writes the scripted replies (Go and TypeScript may be given different ones, see go-runner). */
export async function writeScripts(
  sb: Sandbox,
  plugins: Record<string, Record<string, ScriptedReply>>,
): Promise<void> {
  await rm(sb.script, { recursive: true, force: true });
  await mkdir(sb.script, { recursive: true });
  for (const [name, verbs] of Object.entries(plugins)) {
    for (const [cmd, reply] of Object.entries(verbs)) {
      const base = join(sb.script, `${name}.${cmd}`);
      if (reply.out !== undefined) await writeFile(`${base}.out`, reply.out);
      if (reply.outB64 !== undefined)
        await writeFile(`${base}.out`, Buffer.from(reply.outB64, "base64"));
      if (reply.err !== undefined) await writeFile(`${base}.err`, reply.err);
      if (reply.code !== undefined) await writeFile(`${base}.code`, String(reply.code));
    }
  }
}

/** Empties the log and the cache, then writes the cache seed: the state before a run. */
export async function resetState(
  sb: Sandbox,
  seed: Record<string, string> | undefined,
): Promise<void> {
  await rm(sb.log, { recursive: true, force: true });
  await rm(sb.cache, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(seed ?? {})) {
    const path = join(sb.cache, rel);
    // As libcni creates them: 0700 directories, 0600 files.
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(path, text, { mode: 0o600 });
  }
}

/** Snapshots a directory tree as the Go driver does (mode with 40000 for dirs, base64 bytes). */
export async function snapshotDir(dir: string): Promise<Record<string, FileObservation>> {
  const out: Record<string, FileObservation> = {};
  const walk = async (d: string): Promise<void> => {
    let names: string[];
    try {
      names = (await readdir(d)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(p);
      } catch {
        continue;
      }
      const isDir = info.isDirectory();
      const mode = ((info.mode & 0o777) | (isDir ? 0o40000 : 0)).toString(8);
      let b64: string | null = null;
      if (!isDir) {
        try {
          b64 = (await readFile(p)).toString("base64");
        } catch {
          b64 = null;
        }
      }
      out[relative(dir, p)] = { mode, b64 };
      if (isDir) await walk(p);
    }
  };
  await walk(dir);
  return out;
}

/** Removes a directory tree, ignoring a missing one. */
export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
