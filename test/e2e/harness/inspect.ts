/**
 * Reading the state of a namespace the way an operator would (ip, iptables, tc, ping,
 * /proc/sys), so the suite asserts what the kernel holds, not what a plugin claims.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ping as pingFrom } from "../../../src/testing/index.js";
import { netnsDir } from "./netns.js";
import { inNetns } from "./sh.js";

/** A link as `ip -d -j link` reports it (the fields the suite reads). */
export interface LinkInfo {
  ifname: string;
  /** `veth`, `bridge`, `macvlan`, `ifb`...; undefined for plain devices such as `lo`. */
  kind: string | undefined;
  flags: string[];
  mtu: number;
  address: string;
  /** The peer/parent's ifname when `ip` knows it (`veth0@if3` → undefined: other netns). */
  link: string | undefined;
  operstate: string;
}

interface IpLinkJson {
  ifname: string;
  flags?: string[];
  mtu?: number;
  address?: string;
  link?: string;
  operstate?: string;
  linkinfo?: { info_kind?: string };
}

/** The links of a namespace. */
export async function links(ns: string): Promise<LinkInfo[]> {
  const { stdout } = await inNetns(ns, "ip", ["-d", "-j", "link", "show"]);
  return (JSON.parse(stdout) as IpLinkJson[]).map((l) => ({
    ifname: l.ifname,
    kind: l.linkinfo?.info_kind,
    flags: l.flags ?? [],
    mtu: l.mtu ?? 0,
    address: l.address ?? "",
    link: l.link,
    operstate: l.operstate ?? "",
  }));
}

/** The links of one kind (e.g. every `veth` left in the host namespace). */
export async function linksOfKind(ns: string, kind: string): Promise<LinkInfo[]> {
  return (await links(ns)).filter((l) => l.kind === kind);
}

/** One link by name, or undefined. */
export async function link(ns: string, ifname: string): Promise<LinkInfo | undefined> {
  return (await links(ns)).find((l) => l.ifname === ifname);
}

interface IpAddrJson {
  ifname: string;
  addr_info?: { family: string; local: string; prefixlen: number; scope: string }[];
}

/** The global-scope addresses of an interface as CIDRs (`10.1.0.2/24`, `fd00::2/64`). */
export async function addresses(ns: string, ifname: string): Promise<string[]> {
  const { stdout } = await inNetns(ns, "ip", ["-j", "addr", "show", "dev", ifname]);
  const [entry] = JSON.parse(stdout) as IpAddrJson[];
  return (entry?.addr_info ?? [])
    .filter((a) => a.scope !== "link")
    .map((a) => `${a.local}/${a.prefixlen}`);
}

/** A route of the main table. */
export interface RouteInfo {
  dst: string;
  gateway: string | undefined;
  dev: string;
}

/** The main-table routes of one family. */
export async function routes(ns: string, family: 4 | 6 = 4): Promise<RouteInfo[]> {
  const { stdout } = await inNetns(ns, "ip", [`-${family}`, "-j", "route", "show"]);
  return (JSON.parse(stdout) as { dst: string; gateway?: string; dev: string }[]).map((r) => ({
    dst: r.dst,
    gateway: r.gateway,
    dev: r.dev,
  }));
}

/** A sysctl's value inside the namespace, read from /proc/sys (`net.ipv4.ip_forward`). */
export async function sysctl(ns: string, key: string): Promise<string> {
  const path = `/proc/sys/${key.replaceAll(".", "/")}`;
  const { stdout } = await inNetns(ns, "cat", [path]);
  return stdout.trim();
}

/** True when one ICMP echo to `ip` from inside `ns` is answered within 2 s (libcni/testing's ping). */
export async function ping(ns: string, ip: string): Promise<boolean> {
  return (await pingFrom(join(netnsDir, ns), ip, { count: 1, timeoutMs: 2_000 })).ok;
}

/** `iptables -S` (or ip6tables) for a table inside the namespace, one rule per line. */
export async function iptablesRules(
  ns: string,
  table: "nat" | "filter" | "mangle",
  family: 4 | 6 = 4,
): Promise<string[]> {
  const tool = family === 4 ? "iptables" : "ip6tables";
  const { stdout } = await inNetns(ns, tool, ["-w", "-t", table, "-S"]);
  return stdout.split("\n").filter((l) => l !== "");
}

/** The user-defined chains of a table (`-N <chain>` lines). */
export async function iptablesChains(
  ns: string,
  table: "nat" | "filter" | "mangle",
  family: 4 | 6 = 4,
): Promise<string[]> {
  return (await iptablesRules(ns, table, family))
    .filter((l) => l.startsWith("-N "))
    .map((l) => l.slice(3));
}

/** A qdisc as `tc -j qdisc` reports it. */
export interface QdiscInfo {
  kind: string;
  handle: string;
  root: boolean;
  options: Record<string, unknown>;
}

/** The qdiscs of a device inside the namespace. */
export async function qdiscs(ns: string, dev: string): Promise<QdiscInfo[]> {
  const { stdout } = await inNetns(ns, "tc", ["-j", "qdisc", "show", "dev", dev]);
  return (JSON.parse(stdout) as Partial<QdiscInfo>[]).map((q) => ({
    kind: q.kind ?? "",
    handle: q.handle ?? "",
    root: q.root === true,
    options: q.options ?? {},
  }));
}

/** One address host-local holds: the file named after the IP and who it is for. */
export interface IpamReservation {
  ip: string;
  containerID: string;
  ifName: string;
}

/**
 * host-local's reservations for a network: one file per IP under `<dataDir>/<network>`,
 * holding `<containerID>\n<ifname>` (plugins 1.x); `lock` and `last_reserved_ip.*` are its
 * bookkeeping, not reservations.
 */
export async function ipamReservations(
  dataDir: string,
  network: string,
): Promise<IpamReservation[]> {
  const dir = join(dataDir, network);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: IpamReservation[] = [];
  for (const name of names.sort()) {
    if (name === "lock" || name.startsWith("last_reserved_ip")) continue;
    const [containerID = "", ifName = ""] = (await readFile(join(dir, name), "utf8"))
      .split(/\r?\n/)
      .map((s) => s.trim());
    out.push({ ip: name, containerID, ifName });
  }
  return out;
}
