import { describe, expect, it } from "vitest";
import { JSONSyntaxError, UnmarshalTypeError, VersionError } from "../../src/errors/index.js";
import { utf8Encode } from "../../src/internal/bytes.js";
import { decodePluginInfo, PluginDecoder, pluginSupports } from "../../src/version/plugin-info.js";

describe("decodePluginInfo (upstream 'Decoding versions reported by a plugin')", () => {
  const versionStdout = `{
    "cniVersion": "some-library-version",
    "supportedVersions": [ "some-version", "some-other-version" ]
  }`;

  it("returns a PluginInfo that represents the given json bytes", () => {
    const info = decodePluginInfo(utf8Encode(versionStdout));
    expect(info.supportedVersions()).toEqual(["some-version", "some-other-version"]);
    // The plugin's own cniVersion is kept, as upstream keeps the decoded struct.
    expect(info.encode()).toBe(
      '{"cniVersion":"some-library-version","supportedVersions":["some-version","some-other-version"]}\n',
    );
  });

  it("accepts a string as well as bytes", () => {
    expect(decodePluginInfo(versionStdout).supportedVersions()).toEqual([
      "some-version",
      "some-other-version",
    ]);
  });

  it("returns a meaningful error when the bytes cannot be decoded as json", () => {
    let caught: unknown;
    try {
      decodePluginInfo("{{{");
    } catch (err) {
      caught = err;
    }
    expect(caught).toEqual(
      new VersionError(
        "decoding version info: invalid character '{' looking for beginning of object key string",
      ),
    );
    expect((caught as Error).cause).toBeInstanceOf(JSONSyntaxError);
  });

  it("returns a meaningful error when the CNIVersion field is missing", () => {
    expect(() => decodePluginInfo('{ "supportedVersions": [ "foo" ] }')).toThrow(
      new VersionError("decoding version info: missing field cniVersion"),
    );
  });

  it("assumes 0.1.0 and 0.2.0 when a 0.2.0 plugin lists no supported versions", () => {
    const info = decodePluginInfo('{ "cniVersion": "0.2.0" }');
    expect(info.supportedVersions()).toEqual(["0.1.0", "0.2.0"]);
    // As upstream, that info is PluginSupports(...): it reports this library's version.
    expect(info.encode()).toBe('{"cniVersion":"1.1.0","supportedVersions":["0.1.0","0.2.0"]}\n');
    expect(
      decodePluginInfo('{"cniVersion":"0.2.0","supportedVersions":[]}').supportedVersions(),
    ).toEqual(["0.1.0", "0.2.0"]);
    expect(
      decodePluginInfo('{"cniVersion":"0.2.0","supportedVersions":null}').supportedVersions(),
    ).toEqual(["0.1.0", "0.2.0"]);
  });

  // Expected texts produced by upstream's PluginDecoder under Go 1.19.
  it.each([
    ['{"cniVersion":"1.0.0"}', "decoding version info: missing field supportedVersions"],
    ['{"cniVersion":"0.1.0"}', "decoding version info: missing field supportedVersions"],
    [
      '{"cniVersion":"1.0.0","supportedVersions":null}',
      "decoding version info: missing field supportedVersions",
    ],
    [
      '{"cniVersion":"1.0.0","supportedVersions":[]}',
      "decoding version info: missing field supportedVersions",
    ],
    ["null", "decoding version info: missing field cniVersion"],
    ["{}", "decoding version info: missing field cniVersion"],
    [
      '{"cniVersion":null,"supportedVersions":["a"]}',
      "decoding version info: missing field cniVersion",
    ],
    [
      '{"cniVersion":"","supportedVersions":["a"]}',
      "decoding version info: missing field cniVersion",
    ],
    ["", "decoding version info: unexpected end of JSON input"],
    [
      '{"cniVersion":"1.0.0","supportedVersions":["a"]} x',
      "decoding version info: invalid character 'x' after top-level value",
    ],
  ])("rejects %j", (input, message) => {
    expect(() => decodePluginInfo(input)).toThrow(new VersionError(message));
  });

  it.each([
    [
      '{"cniVersion":1}',
      "decoding version info: json: cannot unmarshal number into Go struct field pluginInfo.cniVersion of type string",
    ],
    [
      "[]",
      "decoding version info: json: cannot unmarshal array into Go value of type version.pluginInfo",
    ],
    [
      '"x"',
      "decoding version info: json: cannot unmarshal string into Go value of type version.pluginInfo",
    ],
    [
      '{"cniVersion":"1.0.0","supportedVersions":"a"}',
      "decoding version info: json: cannot unmarshal string into Go struct field pluginInfo.supportedVersions of type []string",
    ],
    [
      '{"cniVersion":"1.0.0","supportedVersions":[1,"b"]}',
      "decoding version info: json: cannot unmarshal number into Go struct field pluginInfo.supportedVersions of type string",
    ],
  ])("rejects wrong types in %j with Go's text", (input, message) => {
    let caught: unknown;
    try {
      decodePluginInfo(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toEqual(new VersionError(message));
    expect((caught as Error).cause).toBeInstanceOf(UnmarshalTypeError);
  });

  it("matches keys case-insensitively, the last duplicate winning, as Go", () => {
    expect(
      decodePluginInfo('{"CNIVERSION":"1.0.0","SupportedVersions":["x"]}').supportedVersions(),
    ).toEqual(["x"]);
    expect(
      decodePluginInfo(
        '{"cniVersion":"a","supportedVersions":["x"],"SUPPORTEDVERSIONS":["y"]}',
      ).supportedVersions(),
    ).toEqual(["y"]);
  });

  it("ignores unknown fields", () => {
    expect(
      decodePluginInfo(
        '{"cniVersion":"1.0.0","supportedVersions":["1.0.0"],"extra":{"a":1}}',
      ).supportedVersions(),
    ).toEqual(["1.0.0"]);
  });

  it("decodes invalid UTF-8 as U+FFFD rather than failing", () => {
    const bytes = Uint8Array.from([
      ...utf8Encode('{"cniVersion":"1.0.0","supportedVersions":["a'),
      0xff,
      ...utf8Encode('"]}'),
    ]);
    expect(decodePluginInfo(bytes).supportedVersions()).toEqual(["a\ufffd"]);
  });

  it("is what PluginDecoder.decode does", () => {
    expect(new PluginDecoder().decode('{"cniVersion":"0.2.0"}').supportedVersions()).toEqual([
      "0.1.0",
      "0.2.0",
    ]);
    expect(() => new PluginDecoder().decode("{}")).toThrow("missing field cniVersion");
  });

  it("never throws anything but an Error on deeply nested input", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(() => decodePluginInfo(deep)).toThrow(/^decoding version info: /);
  });
});

describe("pluginSupports", () => {
  it("reports the given versions, with this library's version as cniVersion", () => {
    const info = pluginSupports("0.4.0", "1.0.0");
    expect(info.supportedVersions()).toEqual(["0.4.0", "1.0.0"]);
    expect(info.encode()).toBe('{"cniVersion":"1.1.0","supportedVersions":["0.4.0","1.0.0"]}\n');
  });

  it("encodes as Go's json.Encoder: HTML-safe escaping and a trailing newline", () => {
    expect(pluginSupports("0.1.0", "<&>").encode()).toBe(
      '{"cniVersion":"1.1.0","supportedVersions":["0.1.0","\\u003c\\u0026\\u003e"]}\n',
    );
  });

  it("round-trips through decodePluginInfo", () => {
    const info = pluginSupports("0.3.0", "0.3.1", 'weird "version"');
    expect(decodePluginInfo(info.encode()).supportedVersions()).toEqual(info.supportedVersions());
  });

  it("throws (upstream panics) when given no version", () => {
    expect(() => pluginSupports()).toThrow(
      "programmer error: you must support at least one version",
    );
  });

  it("cannot be changed through the returned list or the arguments", () => {
    const args = ["1.0.0"];
    const info = pluginSupports(...args);
    args.push("2.0.0");
    info.supportedVersions().push("3.0.0");
    expect(info.supportedVersions()).toEqual(["1.0.0"]);
  });
});
