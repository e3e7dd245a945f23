// The env table as a property: for any verb and any set of missing variables, skel reports
// exactly the required ones that are missing, in upstream's table order, or succeeds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CNIError } from "../../src/errors/index.js";
import { readEnv } from "../../src/skel/env.js";
import { ErrInvalidEnvironmentVariables } from "../../src/types/error-codes.js";

const order = [
  "CNI_COMMAND",
  "CNI_CONTAINERID",
  "CNI_NETNS",
  "CNI_IFNAME",
  "CNI_ARGS",
  "CNI_PATH",
  "CNI_NETNS_OVERRIDE",
];

// Upstream's reqForCmd, written out independently of the implementation's table.
const required: Record<string, string[]> = {
  ADD: ["CNI_COMMAND", "CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_PATH"],
  CHECK: ["CNI_COMMAND", "CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_PATH"],
  DEL: ["CNI_COMMAND", "CNI_CONTAINERID", "CNI_IFNAME", "CNI_PATH"],
  GC: ["CNI_COMMAND", "CNI_PATH"],
  STATUS: ["CNI_COMMAND", "CNI_PATH"],
  VERSION: ["CNI_COMMAND"],
  NOPE: ["CNI_COMMAND"],
};

const full = (command: string): Record<string, string> => ({
  CNI_COMMAND: command,
  CNI_CONTAINERID: "ctr",
  CNI_NETNS: "/var/run/netns/x",
  CNI_IFNAME: "eth0",
  CNI_ARGS: "A=B",
  CNI_PATH: "/opt/cni/bin",
  CNI_NETNS_OVERRIDE: "1",
});

describe("readEnv", () => {
  it("reports exactly the missing required variables, in table order (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(required)),
        fc.subarray(order.slice(1)),
        fc.boolean(),
        (command, removed, emptyInsteadOfUnset) => {
          const env = full(command);
          for (const name of removed) {
            if (emptyInsteadOfUnset) env[name] = "";
            else delete env[name];
          }
          const missing = order.filter((n) => removed.includes(n) && required[command].includes(n));
          const got = readEnv(env);
          if (missing.length === 0) {
            expect(got).not.toBeInstanceOf(CNIError);
          } else {
            expect(got).toBeInstanceOf(CNIError);
            expect((got as CNIError).code).toBe(ErrInvalidEnvironmentVariables);
            expect((got as CNIError).msg).toBe(
              `required env variables [${missing.join(",")}] missing`,
            );
          }
        },
      ),
    );
  });

  it("returns every value, and empty strings for unset optional ones", () => {
    expect(readEnv(full("ADD"))).toEqual({
      command: "ADD",
      containerID: "ctr",
      netns: "/var/run/netns/x",
      ifName: "eth0",
      args: "A=B",
      path: "/opt/cni/bin",
      netnsOverride: "1",
    });
    expect(readEnv({ CNI_COMMAND: "VERSION" })).toEqual({
      command: "VERSION",
      containerID: "",
      netns: "",
      ifName: "",
      args: "",
      path: "",
      netnsOverride: "",
    });
  });

  it("reads values verbatim: no trimming, and validation only where upstream validates", () => {
    const env = { ...full("GC"), CNI_PATH: " /a:/b ", CNI_IFNAME: " x " };
    const got = readEnv(env);
    expect(got).not.toBeInstanceOf(CNIError);
    expect(got).toMatchObject({ path: " /a:/b ", ifName: " x " });
  });
});
