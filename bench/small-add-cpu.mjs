#!/usr/bin/env node
/**
 * The CPU path of a small ADD, two builds side by side (the large-result path must not cost
 * small results; the hot path must not parse or encode a document twice): for each plugin of a
 * chain (1 or 5), its stdin built with the previous result as prevResult, the plugin's output
 * parsed (fixupResultVersion) and the result created; then the cache record encoded. Each
 * build runs what its own runner runs per plugin: a build with `StdinTemplate` (the
 * configuration prepared once per network) uses it, and passes the stdin's known version to
 * fixupResultVersion; an older build runs `buildOneConfig` and reads the version from the
 * stdin. Interleaved rounds in one process; the figure is the median per-round ratio.
 *
 *   npm run build && node bench/small-add-cpu.mjs "$PWD/dist" <other dist dir>
 *
 * BENCH_ROUNDS (default 15).
 */
const dists = process.argv.slice(2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const mods = [];
for (const d of dists) {
  const buildConfig = await import(`${d}/api/build-config.js`);
  mods.push({
    d,
    fixup: (await import(`${d}/version/fixup-result.js`)).fixupResultVersion,
    findCreator: (await import(`${d}/types/convert.js`)).findCreator,
    enc: (await import(`${d}/api/cache-record.js`)).encodeCacheRecord,
    build: buildConfig.buildOneConfig,
    Template: buildConfig.StdinTemplate,
    conf: (await import(`${d}/conf/index.js`)).networkPluginConfFromBytes,
  });
}
const out = Buffer.from(
  '{"cniVersion":"1.0.0","interfaces":[{"name":"cni0","mac":"0a:58:0a:01:02:01"},{"name":"veth1234","mac":"0a:58:0a:01:02:02"},{"name":"eth0","mac":"00:11:22:33:44:55","sandbox":"/var/run/netns/x"}],"ips":[{"interface":2,"address":"10.1.2.3/24","gateway":"10.1.2.1"},{"interface":2,"address":"2001:db8::3/64"}],"routes":[{"dst":"0.0.0.0/0","gw":"10.1.2.1"},{"dst":"::/0"}],"dns":{"nameservers":["10.1.2.1"]}}',
);
const netconf = Buffer.from(
  '{"cniVersion":"1.0.0","name":"n","type":"bridge","bridge":"cni0","isGateway":true,"ipMasq":true,"mtu":1500,"ipam":{"type":"host-local","ranges":[[{"subnet":"10.1.2.0/24","gateway":"10.1.2.1"}]],"routes":[{"dst":"0.0.0.0/0"}],"dataDir":"/run/cni/ipam"}}',
);
const rt = { containerID: "c", netNS: "/x", ifName: "eth0", args: [["K8S_POD_NAME", "p"]] };
function run(m, chain, n) {
  const pc = m.conf(netconf);
  // Prepared once per network, as the runner does: not timed.
  const template = m.Template ? new m.Template(pc) : undefined;
  const s = performance.now();
  for (let i = 0; i < n; i++) {
    let r;
    for (let p = 0; p < chain; p++) {
      let f;
      if (template) {
        const stdin = template.bytes("n", "1.0.0", r, rt);
        f = m.fixup(stdin, out, template.versionOfStdin("1.0.0"));
      } else {
        const stdin = m.build("n", "1.0.0", pc, r, rt).bytes;
        f = m.fixup(stdin, out);
      }
      r = m.findCreator(f.version)(f.value);
    }
    m.enc({
      containerId: "c",
      config: netconf,
      ifName: "eth0",
      networkName: "n",
      netns: "/x",
      cniArgs: rt.args,
      result: r,
    });
  }
  return (performance.now() - s) / n;
}
const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
for (const chain of [1, 5]) {
  const n = chain === 1 ? 1000 : 200;
  for (const m of mods) run(m, chain, 2 * n);
  const per = mods.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < mods.length; j++) {
      const i = (j + round) % mods.length;
      per[i].push(run(mods[i], chain, n));
    }
  }
  console.log(`chain of ${chain}: ${ROUNDS} rounds of ${n} ADDs (CPU path)`);
  for (const [i, m] of mods.entries()) {
    const ratios = per[i].map((x, r) => x / per[0][r]);
    console.log(
      `  ${m.d}: ${(med(per[i]) * 1000).toFixed(1)} µs per ADD; over the first ${med(ratios).toFixed(3)}x [${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}]`,
    );
  }
}
