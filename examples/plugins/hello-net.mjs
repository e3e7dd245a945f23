#!/usr/bin/env node
/**
 * hello-net: an example CNI plugin written with libcni's skel (`import ... from "libcni/skel"`).
 *
 * It "attaches" a container to an IPv4 subnet without touching the kernel: ADD leases the next
 * free address of `subnet` (gateway: the first address) by creating a file named after it in
 * `<dataDir>/<network>/`, and returns a 1.x result (interface, address, default route, DNS).
 * CHECK verifies that the lease in the cached result is still this attachment's; DEL releases
 * it (and succeeds when there is nothing to release, as the spec requires); GC releases every
 * lease of an attachment the runtime no longer lists; STATUS reports an exhausted pool.
 *
 * Config: `{"type": "hello-net", "subnet": "10.22.0.0/24", "dataDir": "/var/lib/hello-cni"}`,
 * checked against the JSON Schema below (with ajv, in ./lib/conf.mjs) before anything is done.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ensureDir, remove } from "fs-extra/esm";
import { pluginMain, printResult } from "libcni/skel";
import {
  CNIError,
  ErrPluginNotAvailable,
  ErrUnknownContainer,
  parseCIDR,
  parseIP,
  Result100,
} from "libcni/types";
import { parsePrevResult, pluginSupports } from "libcni/version";
import { configLoader, dataDirMessage, dataDirSchema, isValidAttachment } from "./lib/conf.mjs";

/** An IPv4 address, each octet 0-255. */
const ipv4 =
  "(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";

/** hello-net's own keys; a subnet from /8 to /30, so that it has an address to lease. */
const loadConf = configLoader(
  {
    type: "object",
    required: ["dataDir", "subnet"],
    properties: {
      dataDir: dataDirSchema,
      subnet: { type: "string", pattern: `^${ipv4}/(?:[89]|[12]\\d|30)$` },
    },
  },
  {
    dataDir: dataDirMessage,
    subnet: (raw) => `invalid subnet ${JSON.stringify(raw.subnet)}`,
  },
);

/** An IPv4 address as a number, and back. */
const toNumber = (ip) => ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
const toDotted = (n) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".");

/** The subnet's usable addresses: gateway first, then the ones to lease. */
function pool(subnet) {
  // The schema has checked the form and the prefix length.
  const [ip, length] = subnet.split("/");
  const prefix = Number(length);
  const size = 2 ** (32 - prefix);
  const base = toNumber(ip) - (toNumber(ip) % size);
  const addresses = [];
  for (let n = base + 2; n < base + size - 1; n++) addresses.push(toDotted(n));
  return { prefix, gateway: toDotted(base + 1), addresses };
}

/** The lease directory of a network, created on first use. */
async function leaseDir(raw, conf) {
  const dir = join(raw.dataDir, conf.name);
  await ensureDir(dir);
  return dir;
}

/** Every lease of the network: address → "containerID ifName". */
async function leases(dir) {
  const found = new Map();
  for (const name of await readdir(dir)) {
    found.set(name, (await readFile(join(dir, name), "utf8")).trim());
  }
  return found;
}

const owner = (args) => `${args.containerID} ${args.ifName}`;

/** A stable, locally administered MAC for the attachment. */
function macFor(args) {
  const bytes = createHash("sha256").update(owner(args)).digest().subarray(0, 5);
  return ["02", ...[...bytes].map((b) => b.toString(16).padStart(2, "0"))].join(":");
}

async function add(args, ctx) {
  const { conf, raw } = loadConf(args.stdinData);
  const { prefix, gateway, addresses } = pool(raw.subnet);
  const dir = await leaseDir(raw, conf);
  const held = await leases(dir);
  // ADD again for the same attachment returns the same address.
  let address = [...held].find(([, who]) => who === owner(args))?.[0];
  for (const candidate of addresses) {
    if (address) break;
    try {
      // "wx": creating the file is the lease; a concurrent ADD cannot take the same one.
      await writeFile(join(dir, candidate), `${owner(args)}\n`, { flag: "wx" });
      address = candidate;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
  }
  if (!address) {
    throw new CNIError(ErrPluginNotAvailable, `no free address in ${raw.subnet}`);
  }
  // A result of the version this plugin implements, converted to the config's on printing (as
  // Go plugins do): a 1.x result merely labelled "0.4.0" would lack that version's fields.
  const result = new Result100({
    cniVersion: "1.1.0",
    interfaces: [{ name: args.ifName, mac: macFor(args), sandbox: args.netns }],
    ips: [{ interface: 0, address: parseCIDR(`${address}/${prefix}`), gateway: parseIP(gateway) }],
    routes: [{ dst: parseCIDR("0.0.0.0/0"), gw: parseIP(gateway) }],
    dns: conf.dns,
  });
  await printResult(result, conf.cniVersion, ctx.stdout);
}

async function check(args) {
  const { conf, raw } = loadConf(args.stdinData);
  const prev = parsePrevResult(conf);
  if (!prev) throw new CNIError(ErrUnknownContainer, "no cached result to check against");
  const expected = JSON.parse(prev.getAsVersion("1.1.0").print()).ips?.[0]?.address ?? "";
  const address = expected.split("/")[0];
  const held = await leases(await leaseDir(raw, conf));
  if (held.get(address) !== owner(args)) {
    throw new CNIError(ErrUnknownContainer, `address ${address} is not leased to ${owner(args)}`);
  }
}

async function del(args) {
  const { conf, raw } = loadConf(args.stdinData);
  const dir = await leaseDir(raw, conf);
  for (const [address, who] of await leases(dir)) {
    if (who === owner(args)) await remove(join(dir, address));
  }
}

async function gc(args) {
  const { conf, raw } = loadConf(args.stdinData);
  const dir = await leaseDir(raw, conf);
  for (const [address, who] of await leases(dir)) {
    const [containerID, ifName] = who.split(" ");
    if (!isValidAttachment(conf, containerID, ifName)) await remove(join(dir, address));
  }
}

async function status(args) {
  const { conf, raw } = loadConf(args.stdinData);
  const held = await leases(await leaseDir(raw, conf));
  if (held.size >= pool(raw.subnet).addresses.length) {
    throw new CNIError(ErrPluginNotAvailable, `no free address in ${raw.subnet}`);
  }
}

await pluginMain(
  { add, check, del, gc, status },
  pluginSupports("0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"),
  "CNI hello-net plugin (libcni example)",
);
