/** Upstream's test results (types/020, 040, 100 types_test.go `testResult`), built in TypeScript. */

import {
  type DNS,
  type IPConfig020,
  parseCIDR,
  parseIP,
  Result020,
  Result040,
  Result100,
  type Route,
} from "../../src/types/index.js";
import { parseNetworkCIDR } from "./go-net.js";

/** `net.ParseIP` that fails the test instead of returning undefined. */
export function ip(s: string): Uint8Array {
  const parsed = parseIP(s);
  if (!parsed) throw new Error(`bad IP ${s}`);
  return parsed;
}

/** Upstream's test DNS. */
export function testDNS(): DNS {
  return {
    nameservers: ["1.2.3.4", "1::cafe"],
    domain: "acompany.com",
    search: ["somedomain.com", "otherdomain.net"],
    options: ["foo", "bar"],
  };
}

/** A route from `net.ParseCIDR` as upstream builds them (network, and the address as gateway). */
export function netRoute(cidr: string, withGateway = true): Route {
  const { ip: gw, network } = parseNetworkCIDR(cidr);
  return withGateway ? { dst: network, gw } : { dst: network };
}

/** types020 testResult. */
export function testResult020(cniVersion: string, withGateways = true): Result020 {
  const ip4: IPConfig020 = {
    ip: parseCIDR("1.2.3.30/24"),
    gateway: ip("1.2.3.1"),
    routes: [netRoute(withGateways ? "15.5.6.8/24" : "15.5.6.0/24", withGateways)],
  };
  const ip6: IPConfig020 = {
    ip: parseCIDR("abcd:1234:ffff::cdde/64"),
    gateway: ip("abcd:1234:ffff::1"),
    routes: [netRoute("1111:dddd::aaaa/80", withGateways)],
  };
  return new Result020({ cniVersion, ip4, ip6, dns: testDNS() });
}

/** The JSON upstream expects of testResult020 (types020 `testResult`'s second value). */
export function testJSON020(cniVersion: string): string {
  return `{
    "cniVersion": "${cniVersion}",
    "ip4": {
        "ip": "1.2.3.30/24",
        "gateway": "1.2.3.1",
        "routes": [
            {
                "dst": "15.5.6.0/24",
                "gw": "15.5.6.8"
            }
        ]
    },
    "ip6": {
        "ip": "abcd:1234:ffff::cdde/64",
        "gateway": "abcd:1234:ffff::1",
        "routes": [
            {
                "dst": "1111:dddd::/80",
                "gw": "1111:dddd::aaaa"
            }
        ]
    },
    "dns": {
        "nameservers": [
            "1.2.3.4",
            "1::cafe"
        ],
        "domain": "acompany.com",
        "search": [
            "somedomain.com",
            "otherdomain.net"
        ],
        "options": [
            "foo",
            "bar"
        ]
    }
}`;
}

/** types040 testResult. */
export function testResult040(): Result040 {
  return new Result040({
    cniVersion: "0.3.1",
    interfaces: [{ name: "eth0", mac: "00:11:22:33:44:55", sandbox: "/proc/3553/ns/net" }],
    ips: [
      { version: "4", interface: 0, address: parseCIDR("1.2.3.30/24"), gateway: ip("1.2.3.1") },
      {
        version: "6",
        interface: 0,
        address: parseCIDR("abcd:1234:ffff::cdde/64"),
        gateway: ip("abcd:1234:ffff::1"),
      },
    ],
    routes: [netRoute("15.5.6.8/24"), netRoute("1111:dddd::aaaa/80")],
    dns: testDNS(),
  });
}

/** types100 testResult. */
export function testResult100(): Result100 {
  return new Result100({
    cniVersion: "1.1.0",
    interfaces: [
      {
        name: "eth0",
        mac: "00:11:22:33:44:55",
        mtu: 1500,
        sandbox: "/proc/3553/ns/net",
        pciID: "8086:9a01",
        socketPath: "/path/to/vhost/fd",
      },
    ],
    ips: [
      { interface: 0, address: parseCIDR("1.2.3.30/24"), gateway: ip("1.2.3.1") },
      {
        interface: 0,
        address: parseCIDR("abcd:1234:ffff::cdde/64"),
        gateway: ip("abcd:1234:ffff::1"),
      },
    ],
    routes: [netRoute("15.5.6.8/24"), netRoute("1111:dddd::aaaa/80")],
    dns: testDNS(),
  });
}

/** Compares two JSON texts as Gomega's MatchJSON does (structure, not bytes). */
export function sameJSON(a: string, b: string): boolean {
  return JSON.stringify(sortKeys(JSON.parse(a))) === JSON.stringify(sortKeys(JSON.parse(b)));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}
