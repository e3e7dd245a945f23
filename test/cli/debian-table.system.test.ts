/**
 * The Debian table of docs/conformance.md stays true: regenerated here (the conformance
 * checker on Debian's containernetworking-plugins, through scripts/conformance-table.mjs and
 * the built dist/), it must equal the committed file byte for byte. The run is deterministic
 * (fresh namespaces and host-local data per plugin; evidence stripped of pids and hashes), so
 * any difference is news: a plugin, the checker or a config changed, or a failure lost its
 * note (the script itself refuses a failure without a note, or a note without its failure).
 * Needs root, Debian's plugins in /usr/lib/cni and `npm run build`.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

it("docs/conformance.md is what the checker finds in Debian's plugins", async () => {
  const dir = await mkdtemp(join(tmpdir(), "libcni-debian-table-"));
  try {
    const out = join(dir, "conformance.md");
    await promisify(execFile)(
      process.execPath,
      [join(root, "scripts/conformance-table.mjs"), "--out", out],
      { cwd: root },
    );
    const fresh = await readFile(out, "utf8");
    const committed = await readFile(join(root, "docs/conformance.md"), "utf8");
    // Regenerate with `npm run build && node scripts/conformance-table.mjs` when this fails.
    expect(fresh).toBe(committed);
    // The issues the table must show (known upstream bugs, with their links).
    expect(committed).toContain("https://github.com/containernetworking/plugins/issues/819");
    expect(committed).toContain("https://github.com/containernetworking/plugins/issues/1221");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 300_000);
