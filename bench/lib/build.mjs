/**
 * Builds the benchmark's native parts into bench/.build/ (gitignored): the C noop plugin and
 * the C spawn loop with gcc, the Go reference program with Go in GOPATH mode against Debian's
 * libcni 1.1.2. When a tool is missing it says which Debian package provides it and stops.
 */
import { execFile } from "node:child_process";
import { access, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const execFileP = promisify(execFile);

/** Where Debian's golang-github-appc-cni-dev installs the libcni 1.1.2 sources. */
export const goPath = "/usr/share/gocode";
const libcniSource = join(goPath, "src/github.com/containernetworking/cni/libcni/api.go");

async function has(command) {
  try {
    await execFileP(command, ["--version"]);
    return true;
  } catch {
    try {
      await execFileP(command, ["version"]);
      return true;
    } catch {
      return false;
    }
  }
}

const exists = (path) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Throws one message naming every missing prerequisite and the package that provides it. */
export async function checkPrerequisites(repoRoot) {
  const missing = [];
  if (!(await has("gcc"))) missing.push("gcc (Debian packages: gcc libc6-dev)");
  if (!(await has("go"))) missing.push("go (Debian package: golang-go)");
  if (!(await exists(libcniSource)))
    missing.push(
      `Go libcni 1.1.2 sources in ${goPath} (Debian package: golang-github-appc-cni-dev)`,
    );
  if (!(await exists(join(repoRoot, "dist/index.js"))))
    missing.push("the built library dist/index.js (run: npm run build)");
  if (missing.length > 0) {
    const pkgs = missing.join("\n  - ");
    throw new Error(
      `cannot run the benchmarks, missing:\n  - ${pkgs}\n` +
        "On Debian/Ubuntu: sudo apt-get install gcc libc6-dev golang-go golang-github-appc-cni-dev",
    );
  }
}

/** Builds everything; returns the paths of the three executables. */
export async function buildNative(repoRoot) {
  const out = join(repoRoot, "bench/.build");
  await mkdir(out, { recursive: true });
  const cc = (src, exe) =>
    execFileP("gcc", ["-O2", "-Wall", "-o", join(out, exe), join(repoRoot, "bench/plugins", src)]);
  const env = {
    ...process.env,
    GO111MODULE: "off",
    GOPATH: goPath,
    GOCACHE: join(out, "gocache"),
    GOFLAGS: "",
  };
  for (const k of Object.keys(env)) if (k.startsWith("CNI_")) delete env[k];
  await Promise.all([
    cc("noop.c", "noop"),
    cc("spawnloop.c", "spawnloop"),
    execFileP("go", ["build", "-o", join(out, "libcnibench"), "./bench/go/libcnibench"], {
      cwd: repoRoot,
      env,
    }),
  ]).catch((error) => {
    throw new Error(`building the benchmark programs failed:\n${error.stderr ?? error.message}`);
  });
  return {
    noop: join(out, "noop"),
    spawnloop: join(out, "spawnloop"),
    goBench: join(out, "libcnibench"),
  };
}
