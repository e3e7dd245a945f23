/**
 * A bundled app (esbuild, docs/bundling.md's "Bundling" recipe): the app bundled into one file,
 * the helper binary copied beside it, `LIBCNI_SPAWNER_BINARY` naming it. An ADD and a DEL run
 * through the helper; without the variable the direct spawn serves (no call fails) and the
 * debug line says what to do.
 */
import { execFile } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const execFileP = promisify(execFile);
const repo = fileURLToPath(new URL("../..", import.meta.url));
const app = `import { CNIConfig, lintNetworkList, networkConfFromBytes } from "libcni";
const [bin, cacheDir] = process.argv.slice(2);
const cni = new CNIConfig({ path: [bin], cacheDir });
const list = networkConfFromBytes(
  new TextEncoder().encode('{"cniVersion":"1.0.0","name":"bundled","plugins":[{"type":"fake"}]}'),
);
// The linter's validator is required, not imported: the bundle must hold it.
if (lintNetworkList(list).errors.length !== 0) throw new Error("lint");
const rt = { containerID: "b1", netNS: "/var/run/netns/b1", ifName: "eth0" };
const result = await cni.addNetworkList(list, rt);
await cni.delNetworkList(list, rt);
console.log(JSON.stringify({ address: JSON.parse(JSON.stringify(result)).ips[0].address }));
`;
const plugin = `#!/bin/sh
cat >/dev/null
[ "$CNI_COMMAND" = ADD ] && echo '{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/24"}]}'
exit 0
`;

describe("a bundled app (esbuild)", () => {
  let dir = "";
  let out = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "libcni-bundle-"));
    out = join(dir, "out");
    await mkdir(join(dir, "bin"), { recursive: true });
    await writeFile(join(dir, "bin", "fake"), plugin);
    await chmod(join(dir, "bin", "fake"), 0o755);
    await writeFile(join(dir, "app.mjs"), app);
    const common = { bundle: true, platform: "node", format: "esm", logLevel: "warning" } as const;
    await build({
      ...common,
      entryPoints: [join(dir, "app.mjs")],
      outfile: join(out, "app.mjs"),
      alias: { libcni: join(repo, "dist/index.js") },
    });
    await copyFile(
      join(repo, `dist/native/linux-${process.arch}/libcni-spawner`),
      join(out, "libcni-spawner"),
    );
    await chmod(join(out, "libcni-spawner"), 0o755);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const runApp = (env: Record<string, string>) =>
    execFileP(process.execPath, [join(out, "app.mjs"), join(dir, "bin"), join(dir, "cache")], {
      env: { ...process.env, LIBCNI_LAUNCHER: "", NODE_DEBUG: "libcni", ...env },
      timeout: 60_000,
    });

  it("runs an ADD and a DEL through the helper named by the variable", async () => {
    const { stdout, stderr } = await runApp({
      LIBCNI_SPAWNER_BINARY: join(out, "libcni-spawner"),
    });
    expect(JSON.parse(stdout)).toEqual({ address: "10.0.0.2/24" });
    expect(stderr).toContain(`launcher: spawner ${join(out, "libcni-spawner")}`);
  });

  it("without them falls back, fails no call, and says what a bundle needs", async () => {
    const { stdout, stderr } = await runApp({});
    expect(JSON.parse(stdout)).toEqual({ address: "10.0.0.2/24" });
    expect(stderr).toMatch(
      /launcher: direct spawn \(no spawner binary .*set LIBCNI_SPAWNER_BINARY/,
    );
  });
});
