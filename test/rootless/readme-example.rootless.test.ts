/**
 * The README's integration test (a pod on a bridge pinging its gateway, then its teardown),
 * run as a user who is not root through the documented step: the block, as the README prints
 * it, is a test file of a fresh project whose `libcni` is this repository's build, and
 * `cnitool rootless -- vitest run` runs it with Debian's plugins. Needs `npm run build`.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { codeBlocks } from "../readme/readme-blocks.js";
import { cleanEnv, repo, requireNonRoot, rootless, vitestBin } from "./helpers.js";

let project: string;

beforeAll(async () => {
  requireNonRoot();
  project = await mkdtemp(join(tmpdir(), "lcni-rootless-readme-"));
});
afterAll(async () => {
  if (project !== undefined) await rm(project, { recursive: true, force: true });
});

/** The README's block under "An integration test: libcni/testing". */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(repo, "README.md"), "utf8");
  const section = readme.indexOf("### An integration test: libcni/testing");
  expect(section).toBeGreaterThan(0);
  const line = readme.slice(0, section).split("\n").length;
  const block = codeBlocks(readme).find((b) => b.line > line && b.lang === "ts");
  expect(block?.code).toContain("await using host = await testHost()");
  expect(block?.code).toContain("runtime.teardownPod(");
  return block?.code ?? "";
}

it("the README's integration test passes through `cnitool rootless -- vitest run`", async () => {
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "pods", private: true, type: "module" }),
  );
  await mkdir(join(project, "node_modules"));
  await symlink(repo, join(project, "node_modules", "libcni"), "dir");
  await symlink(join(repo, "node_modules", "vitest"), join(project, "node_modules", "vitest"));
  await mkdir(join(project, "test"));
  await writeFile(join(project, "test", "pods.test.ts"), await readmeExample());
  const { code, stdout, stderr } = await rootless(
    [process.execPath, vitestBin, "run", "test/pods.test.ts"],
    { cwd: project, env: cleanEnv({ NO_COLOR: "1", CI: "1" }) },
  );
  expect({ code, stderr, stdout }).toMatchObject({ code: 0 });
  expect(stdout).toMatch(/Tests +1 passed \(1\)/);
}, 120_000);
