/**
 * libcni/netns under a review's attacks (root): many removes of one namespace at once, a
 * program that cannot be executed, output past the cap. Each mechanism alike.
 */
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NetnsError } from "../../src/errors/index.js";
import {
  createNetns,
  execInNetns,
  isNetns,
  type NetnsMechanism,
  removeNetns,
} from "../../src/netns/index.js";

const prefix = `lcnirv-${process.pid}`;
let counter = 0;
const uniqueName = (label: string) => `${prefix}-${++counter}-${label}`;
const created: string[] = [];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
});

afterAll(async () => {
  for (const path of created) await removeNetns(path).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

/** The failures among settled outcomes, as `count × reason: message`, each text once. */
function failures(outcomes: PromiseSettledResult<void>[]): string[] {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    if (o.status === "fulfilled") continue;
    const text = `${(o.reason as NetnsError).reason}: ${(o.reason as Error).message}`;
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return [...counts].map(([text, count]) => `${count} × ${text}`);
}

describe.each(["spawner", "direct"] as const)("through the %s", (mechanism: NetnsMechanism) => {
  const many = mechanism === "spawner" ? 2000 : 300;

  it(`${many} concurrent removes of one namespace all succeed`, async () => {
    const path = await createNetns(uniqueName("many"), { mechanism });
    created.push(path);
    const outcomes = await Promise.allSettled(
      Array.from({ length: many }, () => removeNetns(path, { mechanism })),
    );
    expect(failures(outcomes)).toEqual([]);
    expect(await isNetns(path)).toBe(false);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it("concurrent removes of several namespaces, by path and by name, all succeed", async () => {
    const names = Array.from({ length: 8 }, (_, i) => uniqueName(`several-${i}`));
    const paths = await Promise.all(names.map((name) => createNetns(name, { mechanism })));
    created.push(...paths);
    const calls: Promise<void>[] = [];
    for (let round = 0; round < 50; round++) {
      names.forEach((name, i) => {
        calls.push(removeNetns(round % 2 === 0 ? paths[i] : name, { mechanism }));
      });
    }
    expect(failures(await Promise.allSettled(calls))).toEqual([]);
    for (const path of paths) expect(await isNetns(path)).toBe(false);
  });

  it("concurrent removes of a namespace outside the namespaces' dir, by path, all succeed", async () => {
    const sub = await mkdtemp(join(dir, "other-"));
    const path = await createNetns("pod", { dir: sub, mechanism });
    created.push(path);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, () => removeNetns(path, { mechanism })),
    );
    expect(failures(outcomes)).toEqual([]);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
    // A path that is not a namespace still fails, removed at once or not.
    await writeFile(join(sub, "plain"), "");
    const refused = await Promise.allSettled(
      Array.from({ length: 10 }, () => removeNetns(join(sub, "plain"), { mechanism })),
    );
    for (const outcome of refused) {
      expect(outcome.status).toBe("rejected");
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(NetnsError);
      expect((outcome as PromiseRejectedResult).reason.reason).toBe("not-a-netns");
    }
    expect((await stat(join(sub, "plain"))).isFile()).toBe(true);
  });

  it("a program that is not executable: a NetnsError about the file, no CAP_SYS_ADMIN hint", async () => {
    const path = await createNetns(uniqueName("noexec"), { mechanism });
    created.push(path);
    try {
      const script = join(dir, `not-executable-${mechanism}`);
      await writeFile(script, "#!/bin/sh\necho ran\n");
      await chmod(script, 0o644);
      const subdir = join(dir, `a-directory-${mechanism}`);
      await mkdir(subdir);
      for (const program of [script, subdir]) {
        const error = await execInNetns(path, [program], { mechanism }).catch((e) => e);
        expect(error).toBeInstanceOf(NetnsError);
        expect(error.reason).toBe("failed");
        expect(error.errno).toBe("EACCES");
        expect(error.message).toContain(program);
        expect(error.message).toMatch(/permission denied/);
        expect(error.message).toMatch(/not executable/);
        expect(error.message).not.toMatch(/CAP_SYS_ADMIN/);
      }
      // A missing program is `missing`, as documented, in either mechanism.
      const missing = await execInNetns(path, [join(dir, "none-such")], { mechanism }).catch(
        (e) => e,
      );
      expect(missing).toBeInstanceOf(NetnsError);
      expect(missing.reason).toBe("missing");
      expect(missing.message).not.toMatch(/CAP_SYS_ADMIN/);
    } finally {
      await removeNetns(path, { mechanism });
    }
  });

  it("output past the cap: the result says which stream was cut, and the program was stopped", async () => {
    const path = await createNetns(uniqueName("cap"), { mechanism });
    created.push(path);
    try {
      const flood = await execInNetns(path, ["sh", "-c", "head -c 100000 /dev/zero; sleep 30"], {
        maxOutputBytes: 1000,
        mechanism,
      });
      expect(flood.truncated).toBe("stdout");
      expect(flood.stdout.length).toBe(1000);
      expect(flood.signal).toBe("SIGTERM");
      expect(flood.timedOut).toBe(false);

      const errFlood = await execInNetns(path, ["sh", "-c", "head -c 5000 /dev/zero >&2"], {
        maxOutputBytes: 4096,
        mechanism,
      });
      expect(errFlood.truncated).toBe("stderr");
      expect(errFlood.stderr.length).toBe(4096);

      // At the cap exactly, nothing is cut.
      const exact = await execInNetns(path, ["head", "-c", "1000", "/dev/zero"], {
        maxOutputBytes: 1000,
        mechanism,
      });
      expect(exact.truncated).toBeUndefined();
      expect(exact.exitCode).toBe(0);
      expect(exact.stdout.length).toBe(1000);
    } finally {
      await removeNetns(path, { mechanism });
    }
  });
});

/**
 * Removes of the same namespaces from `processes` child processes at once (the built package),
 * released together; each child answers with the failures it saw.
 */
async function removeFromProcesses(
  paths: string[],
  mechanism: NetnsMechanism,
  processes: number,
): Promise<string[]> {
  const dist = join(process.cwd(), "dist/netns/index.js");
  const script = `import { removeNetns } from ${JSON.stringify(dist)};
const paths = ${JSON.stringify(paths)};
console.log("ready");
process.stdin.once("data", async () => {
  const outcomes = await Promise.allSettled(paths.map((p) => removeNetns(p, { mechanism: ${JSON.stringify(mechanism)} })));
  console.log(JSON.stringify(outcomes.flatMap((o) => o.status === "fulfilled" ? [] : [o.reason.reason + ": " + o.reason.message])));
  process.exit(0);
});`;
  const children = Array.from({ length: processes }, () =>
    spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["pipe", "pipe", "inherit"],
    }),
  );
  const lines = children.map((child) => {
    const reader = createInterface({ input: child.stdout });
    return reader[Symbol.asyncIterator]();
  });
  for (const line of lines) expect((await line.next()).value).toBe("ready");
  for (const child of children) child.stdin.write("go\n");
  const answers = await Promise.all(lines.map(async (line) => (await line.next()).value));
  return answers.flatMap((answer) => JSON.parse(answer) as string[]);
}

describe.each([
  "spawner",
  "direct",
] as const)("from several processes at once, through the %s", (mechanism: NetnsMechanism) => {
  it("removes of the same namespaces all succeed", async () => {
    const paths = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createNetns(uniqueName(`procs-${i}`), { mechanism })),
    );
    created.push(...paths);
    const sub = await mkdtemp(join(dir, "procs-"));
    paths.push(await createNetns("pod", { dir: sub, mechanism }));
    created.push(paths[paths.length - 1]);
    expect(await removeFromProcesses(paths, mechanism, 4)).toEqual([]);
    for (const path of paths) await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });
});

describe("arguments", () => {
  it("bad arguments are NetnsErrors, not TypeErrors", async () => {
    const bad = [
      removeNetns(undefined as unknown as string),
      createNetns(42 as unknown as string),
      execInNetns("/proc/self/ns/net", "true" as unknown as string[]),
      execInNetns("/proc/self/ns/net", ["true"], { timeoutMs: -1 }),
      execInNetns("/proc/self/ns/net", ["true"], { maxOutputBytes: Number.NaN }),
    ];
    for (const outcome of await Promise.allSettled(bad)) {
      expect(outcome.status).toBe("rejected");
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(NetnsError);
    }
  });
});
