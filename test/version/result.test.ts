import { describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import { parseJSON } from "../../src/encoding/parse.js";
import { decodePluginConf } from "../../src/types/plugin-conf.js";
import { current, newResult, parsePrevResult } from "../../src/version/index.js";

/** A prevResult map as Go's json.Unmarshal into map[string]interface{} gives it. */
function raw(json: string): Record<string, unknown> {
  return parseJSON(json) as Record<string, unknown>;
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a throw");
}

describe("parsePrevResult (upstream 'when a prevResult is available')", () => {
  it("parses the prevResult", () => {
    const rawPrevResult = raw(`{
      "cniVersion": "1.0.0",
      "interfaces": [
        {
          "name":        "eth0",
          "mac":         "00:11:22:33:44:55",
          "sandbox":     "/proc/3553/ns/net",
          "pciID":       "8086:9a01",
          "socketPath":  "/path/to/vhost/fd"
        }
      ],
      "ips": [
        {
          "version": "4",
          "interface": 0,
          "address": "1.2.3.30/24",
          "gateway": "1.2.3.1"
        }
      ]
    }`);
    const conf = { cniVersion: "1.0.0", name: "foobar", type: "baz", rawPrevResult };
    const result = parsePrevResult(conf);
    expect(result).toBeDefined();
    expect(result?.version()).toBe("1.0.0");
    // 1.x results encode with sorted keys; the IP version is gone, interface index 0 is kept.
    expect(marshal(result)).toBe(
      '{"cniVersion":"1.0.0","interfaces":[{"mac":"00:11:22:33:44:55","name":"eth0","pciID":"8086:9a01","sandbox":"/proc/3553/ns/net","socketPath":"/path/to/vhost/fd"}],"ips":[{"address":"1.2.3.30/24","gateway":"1.2.3.1","interface":0}]}',
    );
    // The caller's configuration is not modified.
    expect(Object.keys(conf.rawPrevResult)).toEqual(["cniVersion", "interfaces", "ips"]);
  });

  it("fails if the prevResult version is unknown", () => {
    const err = thrown(() =>
      parsePrevResult({ cniVersion: current(), rawPrevResult: { cniVersion: "5678.456" } }),
    );
    expect(err.message).toBe(
      'could not parse prevResult: result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "5678.456"',
    );
    expect(err.cause).toBeInstanceOf(Error);
  });

  it("fails if the prevResult version does not match the config version", () => {
    const err = thrown(() =>
      parsePrevResult({
        cniVersion: current(),
        rawPrevResult: { cniVersion: "0.2.0", ip4: { ip: "1.2.3.30/24", gateway: "1.2.3.1" } },
      }),
    );
    expect(err.message).toBe(
      'could not parse prevResult: result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.2.0"',
    );
  });

  it("injects the config's version when the prevResult has none", () => {
    const result = parsePrevResult({
      cniVersion: "1.0.0",
      rawPrevResult: { ips: [{ address: "1.2.3.4/24" }] },
    });
    expect(result?.version()).toBe("1.0.0");
    expect(marshal(result)).toBe('{"cniVersion":"1.0.0","ips":[{"address":"1.2.3.4/24"}]}');

    const old = parsePrevResult({
      cniVersion: "0.2.0",
      rawPrevResult: { ip4: { ip: "1.2.3.4/24" } },
    });
    expect(old?.version()).toBe("0.2.0");
    expect(marshal(old)).toBe('{"cniVersion":"0.2.0","ip4":{"ip":"1.2.3.4/24"},"dns":{}}');
  });

  // The cases below follow upstream's literal algorithm (inject under "CNIVersion", marshal
  // sorted, last matching key wins); each outcome was checked against Go (Debian's libcni,
  // whose ParsePrevResult is v1.3.0's; its 100 creator lacks 1.1.0, hence [1.0.0 1.1.0] here).
  it("does not relabel a prevResult of another version", () => {
    expect(
      thrown(() => parsePrevResult({ cniVersion: "0.4.0", rawPrevResult: { cniVersion: "1.0.0" } }))
        .message,
    ).toBe(
      'could not parse prevResult: result type supports [0.3.0 0.3.1 0.4.0] but unmarshalled CNIVersion is "1.0.0"',
    );
    // Same family (v1.3.0's 100 creator takes 1.0.0 and 1.1.0): accepted, and still 1.1.0.
    expect(
      parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { cniVersion: "1.1.0" } })?.version(),
    ).toBe("1.1.0");
  });

  it("treats an empty cniVersion in the prevResult as upstream does (an error)", () => {
    expect(
      thrown(() => parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { cniVersion: "" } }))
        .message,
    ).toBe(
      'could not parse prevResult: result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is ""',
    );
  });

  it("injects when the prevResult's cniVersion is null or its CNIVersion key is empty", () => {
    expect(
      parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { cniVersion: null } })?.version(),
    ).toBe("1.0.0");
    expect(
      parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { CNIVersion: "" } })?.version(),
    ).toBe("1.0.0");
  });

  it("does not inject over an existing CNIVersion key", () => {
    expect(
      thrown(() => parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { CNIVersion: "0.4.0" } }))
        .message,
    ).toBe(
      'could not parse prevResult: result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.4.0"',
    );
    expect(
      thrown(() => parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { CNIVersion: null } }))
        .message,
    ).toBe(
      'could not parse prevResult: result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is ""',
    );
  });

  it("lets a differently cased cniVersion key win, as Go's last-key-wins decoding", () => {
    expect(
      thrown(() => parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { cniversion: "0.2.0" } }))
        .message,
    ).toBe(
      'could not parse prevResult: result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.2.0"',
    );
  });

  it("reports a wrong type with Go's text", () => {
    expect(
      thrown(() => parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { cniVersion: 5 } }))
        .message,
    ).toBe(
      "could not parse prevResult: json: cannot unmarshal number into Go struct field Result.cniVersion of type string",
    );
  });

  it("reports an unknown config version", () => {
    expect(thrown(() => parsePrevResult({ cniVersion: "9.9.9", rawPrevResult: {} })).message).toBe(
      'could not parse prevResult: unsupported CNI result version "9.9.9"',
    );
  });

  it("parses an empty prevResult of a config without a version as 0.1.0", () => {
    expect(parsePrevResult({ cniVersion: "", rawPrevResult: {} })?.version()).toBe("0.1.0");
  });

  it("rejects a hand-built non-object prevResult with Go's decode text", () => {
    expect(thrown(() => parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: [1] })).message).toBe(
      "could not parse prevResult: json: cannot unmarshal array into Go struct field PluginConf.prevResult of type map[string]interface {}",
    );
    expect(
      thrown(() => parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: "x" })).message,
    ).toMatch(/cannot unmarshal string into/);
  });

  it("reports a prevResult that cannot be serialized", () => {
    expect(
      thrown(() => parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { n: Number.NaN } }))
        .message,
    ).toMatch(/^could not serialize prevResult: /);
  });

  it("works on a configuration decoded by decodePluginConf", () => {
    const conf = decodePluginConf(
      parseJSON(
        '{"cniVersion":"0.4.0","name":"n","type":"t","prevResult":{"ips":[{"version":"4","address":"10.0.0.2/24","interface":0}],"interfaces":[{"name":"eth0"}]}}',
      ),
    );
    const result = parsePrevResult(conf);
    expect(result?.version()).toBe("0.4.0");
    expect(marshal(result)).toBe(
      '{"cniVersion":"0.4.0","interfaces":[{"name":"eth0"}],"ips":[{"version":"4","interface":0,"address":"10.0.0.2/24"}],"dns":{}}',
    );
  });
});

describe("parsePrevResult (upstream 'when a prevResult is not available')", () => {
  it("does not fail", () => {
    expect(parsePrevResult({ cniVersion: current() })).toBeUndefined();
    expect(parsePrevResult({ cniVersion: current(), rawPrevResult: undefined })).toBeUndefined();
    expect(parsePrevResult({ cniVersion: current(), rawPrevResult: null })).toBeUndefined();
  });
});

describe("newResult", () => {
  it("parses bytes as the given version", () => {
    const result = newResult("1.1.0", '{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]}');
    expect(result.version()).toBe("1.1.0");
    expect(marshal(result)).toBe('{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]}');
  });

  it("rejects an unknown version and a mismatch with upstream's texts", () => {
    expect(() => newResult("2.0.0", "{}")).toThrow('unsupported CNI result version "2.0.0"');
    expect(() => newResult("1.0.0", '{"cniVersion":"0.4.0"}')).toThrow(
      'result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.4.0"',
    );
  });
});
