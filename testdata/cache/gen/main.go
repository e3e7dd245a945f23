// Command gen writes the result-cache goldens of testdata/cache with Go itself, so the
// TypeScript tests compare against Go's own bytes and Go's own decoding:
//
//	<case>.record   the bytes of a cache file
//	<case>.go.json  how Go's json.Unmarshal into upstream's cachedInfo sees them:
//	                {"error": "..."} or {"decoded": {...}} (config as text)
//
// The record struct is copied from upstream libcni v1.3.0 (api.go, cachedInfo). The case
// "go112-libcni" is written by Debian's Go libcni 1.1.2 itself (AddNetworkList with a fake
// exec). Run from the repository root, in GOPATH mode against Debian's Go sources:
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go run testdata/cache/gen/main.go testdata/cache
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/containernetworking/cni/libcni"
	"github.com/containernetworking/cni/pkg/version"
)

// cachedInfo as in upstream libcni v1.3.0 api.go.
type cachedInfo struct {
	Kind           string                 `json:"kind"`
	ContainerID    string                 `json:"containerId"`
	Config         []byte                 `json:"config"`
	IfName         string                 `json:"ifName"`
	NetworkName    string                 `json:"networkName"`
	NetNS          string                 `json:"netns,omitempty"`
	CniArgs        [][2]string            `json:"cniArgs,omitempty"`
	CapabilityArgs map[string]interface{} `json:"capabilityArgs,omitempty"`
	RawResult      map[string]interface{} `json:"result,omitempty"`
}

// decodedView is what the tests compare: Go's decoded fields, config as text.
type decodedView struct {
	Kind           string                 `json:"kind"`
	ContainerID    string                 `json:"containerId"`
	ConfigIsNil    bool                   `json:"configIsNil"`
	ConfigText     string                 `json:"configText"`
	IfName         string                 `json:"ifName"`
	NetworkName    string                 `json:"networkName"`
	NetNS          string                 `json:"netns"`
	CniArgs        [][2]string            `json:"cniArgs"`
	CapabilityArgs map[string]interface{} `json:"capabilityArgs"`
	RawResult      map[string]interface{} `json:"result"`
}

func mustMap(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(err)
	}
	return m
}

// written: records encoded by Go from known inputs (the TS encoder must give the same bytes).
func written() map[string]cachedInfo {
	return map[string]cachedInfo{
		"full": {
			Kind:        "cniCacheV1",
			ContainerID: "some-container-id",
			Config:      []byte("{\n\"name\": \"some-list\",\n\"cniVersion\": \"1.1.0\",\n\"plugins\": [{\"type\": \"noop\", \"x\": \"<&>\"}]\n}"),
			IfName:      "eth0",
			NetworkName: "some-list",
			NetNS:       "/var/run/netns/test",
			CniArgs:     [][2]string{{"FOO", "BAR"}, {"DEBUG", "/tmp/debug"}},
			CapabilityArgs: mustMap(`{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}],
				"otherCapability":33}`),
			RawResult: mustMap(`{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}],
				"dns":{"nameservers":["1.2.3.4"]}}`),
		},
		"minimal": {
			Kind:        "cniCacheV1",
			ContainerID: "c1",
			Config:      []byte(`{"cniVersion":"0.4.0","name":"n","type":"noop"}`),
			IfName:      "net1",
			NetworkName: "n",
			RawResult: mustMap(`{"cniVersion":"0.4.0","interfaces":[{"name":"eth0","mac":"00:11:22:33:44:55",
				"sandbox":"/var/run/netns/x"}],"ips":[{"version":"4","interface":0,"address":"10.0.0.5/24",
				"gateway":"10.0.0.1"}],"routes":[{"dst":"0.0.0.0/0"}],"dns":{}}`),
		},
		"nil-config": {
			Kind:        "cniCacheV1",
			ContainerID: "c2",
			IfName:      "eth1",
			NetworkName: "nil.config_net",
		},
		"escapes": {
			Kind:        "cniCacheV1",
			ContainerID: "C.d_e-9",
			Config:      []byte("caf\xc3\xa9 \x00\xff"),
			IfName:      "veth\u00e9",
			NetworkName: "net.with_chars-1",
			CniArgs:     [][2]string{{"K", "v=1;x"}, {"", ""}},
			CapabilityArgs: mustMap(`{"html":"<a&b>","ls":"\u2028\u2029","num":[1e21,1e-7,0.000001,1.5,-0,
				123456789012345680000,12,1e20],"nested":{"b":1,"a":{"z":true,"A":null,"10":"ten","9":"nine"}},
				"\u00e9":"\u00fc","tab":"\t\"\\"}`),
			RawResult: mustMap(`{"cniVersion":"1.0.0","interfaces":[{"name":"eth0","mtu":1500}]}`),
		},
	}
}

// handMade: bytes a reader may meet, decoded by Go.
func handMade(full []byte) map[string][]byte {
	return map[string][]byte{
		"mixed-case": []byte(`{"Kind":"cniCacheV1","CONTAINERID":"c1","config":"e30=","ifname":"eth0",` +
			`"NetworkName":"n","cniargs":[["a"],["b","c","d"],null,[null,"e"]],"unknown":1,` +
			`"result":{"cniVersion":"1.0.0"},"kind":"cniCacheV1"}`),
		"wrong-kind-type":    []byte(`{"kind":5,"containerId":"c1"}`),
		"wrong-args-type":    []byte(`{"kind":"cniCacheV1","cniArgs":[["a",1]]}`),
		"bad-base64":         []byte(`{"kind":"cniCacheV1","config":"e30"}`),
		"bad-base64-char":    []byte(`{"kind":"cniCacheV1","config":"e3*="}`),
		"base64-newlines":    []byte(`{"kind":"cniCacheV1","config":"e3\n0=\r\n"}`),
		"toplevel-array":     []byte(`[1]`),
		"config-array":       []byte(`{"kind":"cniCacheV1","config":[104,105,null]}`),
		"config-array-big":   []byte(`{"kind":"cniCacheV1","config":[300]}`),
		"config-array-float": []byte(`{"kind":"cniCacheV1","config":[1.5]}`),
		"config-number":      []byte(`{"kind":"cniCacheV1","config":5}`),
		"toplevel-null":      []byte(`null`),
		"other-kind":         []byte(`{"kind":"somethingElse","containerId":"c1","ifName":"eth0","networkName":"n"}`),
		"legacy-040":         []byte(`{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.1.2.3/24"}],"dns":{}}`),
		"empty":              {},
		"torn":               full[:len(full)/2],
		"not-json":           []byte("adfadsfasdfasfdsafaf"),
		"config-null-result": []byte(`{"kind":"cniCacheV1","containerId":"c1","config":null,"ifName":"eth0","networkName":"n","result":null}`),
	}
}

func view(bytes []byte) interface{} {
	var ci cachedInfo
	if err := json.Unmarshal(bytes, &ci); err != nil {
		return map[string]string{"error": err.Error()}
	}
	return map[string]interface{}{"decoded": decodedView{
		Kind: ci.Kind, ContainerID: ci.ContainerID, ConfigIsNil: ci.Config == nil,
		ConfigText: string(ci.Config), IfName: ci.IfName, NetworkName: ci.NetworkName,
		NetNS: ci.NetNS, CniArgs: ci.CniArgs, CapabilityArgs: ci.CapabilityArgs, RawResult: ci.RawResult,
	}}
}

func write(dir, name string, record []byte) {
	must(os.WriteFile(filepath.Join(dir, name+".record"), record, 0o644))
	v, err := json.Marshal(view(record))
	must(err)
	must(os.WriteFile(filepath.Join(dir, name+".go.json"), append(v, '\n'), 0o644))
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// fakeExec answers every ADD with a fixed 1.0.0 result.
type fakeExec struct{ version.PluginDecoder }

func (fakeExec) ExecPlugin(_ context.Context, _ string, _ []byte, _ []string) ([]byte, error) {
	return []byte(`{"cniVersion":"1.0.0","interfaces":[{"name":"eth0","sandbox":"/var/run/netns/x"}],` +
		`"ips":[{"interface":0,"address":"10.88.0.2/16","gateway":"10.88.0.1"}],"dns":{}}`), nil
}

func (fakeExec) FindInPath(plugin string, _ []string) (string, error) { return "/fake/" + plugin, nil }

// writtenByLibcni112 lets Debian's Go libcni 1.1.2 write a record through AddNetworkList.
func writtenByLibcni112() []byte {
	tmp, err := os.MkdirTemp("", "cni-golden")
	must(err)
	defer os.RemoveAll(tmp)
	list, err := libcni.ConfListFromBytes([]byte(`{"cniVersion":"1.0.0","name":"go112net","plugins":[{"type":"fake"}]}`))
	must(err)
	c := libcni.NewCNIConfigWithCacheDir([]string{"/fake"}, tmp, &fakeExec{})
	rt := &libcni.RuntimeConf{
		ContainerID: "go112-container", NetNS: "/var/run/netns/go112", IfName: "eth0",
		Args:           [][2]string{{"IgnoreUnknown", "1"}},
		CapabilityArgs: map[string]interface{}{"mac": "c2:11:22:33:44:55"},
	}
	_, err = c.AddNetworkList(context.Background(), list, rt)
	must(err)
	b, err := os.ReadFile(filepath.Join(tmp, "results", "go112net-go112-container-eth0"))
	must(err)
	return b
}

func main() {
	dir := os.Args[1]
	var full []byte
	for name, ci := range written() {
		b, err := json.Marshal(&ci)
		must(err)
		if name == "full" {
			full = b
		}
		write(dir, name, b)
	}
	for name, b := range handMade(full) {
		write(dir, name, b)
	}
	write(dir, "go112-libcni", writtenByLibcni112())
	fmt.Println("goldens written to", dir)
}
