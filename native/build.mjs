#!/usr/bin/env node
/**
 * Builds the spawner helper (native/spawner.c) as static binaries, then verifies each one:
 *   dist/native/linux-x64/libcni-spawner    musl-gcc -static        (Debian: musl-tools)
 *   dist/native/linux-arm64/libcni-spawner  aarch64-linux-gnu-gcc -static
 *                                           (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross)
 * Verified: an ELF of the right machine, with no interpreter (static, so it runs on glibc and
 * musl systems alike), that answers the protocol's HELLO when run (the arm64 one under
 * qemu-aarch64-static on an x64 host, when it is installed).
 *
 * `node native/build.mjs` builds every target and fails when a compiler is missing;
 * `--only=linux-x64` (comma-separated) builds some; `--if-possible` skips the targets whose
 * compiler is missing (a developer machine without the cross toolchain).
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, readFile, rename, stat } from "node:fs/promises";
import { arch } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "native", "spawner.c");
// The HELLO a built binary must answer with: the version its source declares.
const protocolVersion = Number(
  /^#define PROTOCOL_VERSION (\d+)$/m.exec(await readFile(source, "utf8"))?.[1] ?? Number.NaN,
);
const cflags = [
  "-std=c11",
  "-O2",
  "-static",
  "-s",
  "-Wall",
  "-Wextra",
  "-Werror",
  "-fno-ident",
  `-ffile-prefix-map=${root}=.`,
];

const targets = [
  { name: "linux-x64", cc: "musl-gcc", machine: 62, pkg: "musl-tools", qemu: null, host: "x64" },
  {
    name: "linux-arm64",
    cc: "aarch64-linux-gnu-gcc",
    machine: 183,
    pkg: "gcc-aarch64-linux-gnu libc6-dev-arm64-cross",
    qemu: "qemu-aarch64-static",
    host: "arm64",
  },
];

const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const ifPossible = args.includes("--if-possible");

async function which(command) {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    try {
      if ((await stat(join(dir, command))).isFile()) return join(dir, command);
    } catch {}
  }
  return undefined;
}

/** Reads the ELF header: the machine, and whether any program header is PT_INTERP. */
async function elfInfo(path) {
  const b = await readFile(path);
  if (b.readUInt32BE(0) !== 0x7f454c46 || b[4] !== 2 || b[5] !== 1)
    throw new Error("not an ELF64 LE");
  const machine = b.readUInt16LE(18);
  const phoff = Number(b.readBigUInt64LE(32));
  const phentsize = b.readUInt16LE(54);
  const phnum = b.readUInt16LE(56);
  let interp = false;
  for (let i = 0; i < phnum; i++) if (b.readUInt32LE(phoff + i * phentsize) === 3) interp = true;
  return { machine, interp, bytes: b.length };
}

/** Runs the binary (through qemu when needed) and waits for its HELLO frame. */
function hello(command, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ["pipe", "pipe", "inherit"] });
    const chunks = [];
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("no HELLO within 20 s"));
    }, 20_000);
    child.on("error", reject);
    child.stdout.on("data", (c) => {
      chunks.push(c);
      const b = Buffer.concat(chunks);
      if (b.length >= 13) {
        clearTimeout(timer);
        child.stdin.end(); // EOF on its control pipe: the helper exits
        if (b.readUInt32LE(0) !== 9 || b[4] !== 0 || b.readUInt32LE(5) !== protocolVersion) {
          reject(new Error(`bad HELLO ${b.subarray(0, 13).toString("hex")}`));
        }
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`exited ${signal ?? code} after HELLO`));
    });
  });
}

let failed = false;
for (const t of targets) {
  if (only !== undefined && !only.includes(t.name)) continue;
  const cc = await which(t.cc);
  if (cc === undefined) {
    const text = `${t.name}: ${t.cc} not found (apt-get install ${t.pkg})`;
    if (ifPossible) {
      console.log(`skipped ${text}`);
      continue;
    }
    console.error(`error: ${text}`);
    failed = true;
    continue;
  }
  const outDir = join(root, "dist", "native", t.name);
  const out = join(outDir, "libcni-spawner");
  await mkdir(outDir, { recursive: true });
  await run(cc, [...cflags, "-o", `${out}.tmp`, source]);
  await rename(`${out}.tmp`, out);
  const info = await elfInfo(out);
  if (info.machine !== t.machine) throw new Error(`${t.name}: ELF machine ${info.machine}`);
  if (info.interp) throw new Error(`${t.name}: has an interpreter, not static`);
  let verified = "not run (no qemu-aarch64-static)";
  if (arch() === t.host) {
    await hello(out, [String(process.pid)]);
    verified = "HELLO ok";
  } else if (t.qemu !== null && (await which(t.qemu)) !== undefined) {
    // qemu-user runs the guest in its own process: its parent is still this one.
    await hello(t.qemu, [out, String(process.pid)]);
    verified = `HELLO ok under ${t.qemu}`;
  }
  console.log(`built ${t.name}: ${out} (${info.bytes} bytes, static; ${verified})`);
}
if (failed) process.exit(1);
