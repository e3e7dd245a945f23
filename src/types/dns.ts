/** Upstream's `types.DNS`; every field is `omitempty` (0.x results write `{}`, 1.x drop it). */
import { goStruct } from "../encoding/json.js";
import type { FieldSchema } from "../encoding/struct.js";

/** DNS settings (upstream `types.DNS`). */
export interface DNS {
  /** Name server addresses, as written (not parsed). */
  nameservers?: string[];
  /** The local domain. */
  domain?: string;
  /** Search domains. */
  search?: string[];
  /** Resolver options. */
  options?: string[];
}

/** Upstream `DNS.IsEmpty()`: no name servers, domain, search domains or options. */
export function isDNSEmpty(dns: DNS | undefined): boolean {
  return (
    !dns ||
    ((dns.nameservers?.length ?? 0) === 0 &&
      (dns.domain ?? "") === "" &&
      (dns.search?.length ?? 0) === 0 &&
      (dns.options?.length ?? 0) === 0)
  );
}

/** Upstream `DNS.Copy()`: a deep copy (empty lists are dropped, as appending to nil in Go). */
export function copyDNS(dns: DNS): DNS {
  const out: DNS = {};
  if (dns.nameservers?.length) out.nameservers = [...dns.nameservers];
  if (dns.domain) out.domain = dns.domain;
  if (dns.search?.length) out.search = [...dns.search];
  if (dns.options?.length) out.options = [...dns.options];
  return out;
}

/** The Go encoding of a DNS: struct field order, every field `omitempty`. */
export function dnsToGo(dns: DNS): object {
  return goStruct({
    nameservers: dns.nameservers?.length ? dns.nameservers : undefined,
    domain: dns.domain ? dns.domain : undefined,
    search: dns.search?.length ? dns.search : undefined,
    options: dns.options?.length ? dns.options : undefined,
  });
}

/** The decoding schema of a `dns` field (a plain Go struct: errors name `DNS.dns.<field>`). */
export const dnsField: FieldSchema = {
  type: "struct",
  goName: "DNS",
  goType: "types.DNS",
  struct: {
    fields: {
      nameservers: { type: "array", items: { type: "string" } },
      domain: { type: "string" },
      search: { type: "array", items: { type: "string" } },
      options: { type: "array", items: { type: "string" } },
    },
  },
};
