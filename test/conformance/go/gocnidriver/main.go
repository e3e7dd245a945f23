// Command gocnidriver drives containerd/go-cni (Debian's 1.1.7 over libcni 1.1.2, built in
// GOPATH mode) through one pod's setup, CHECK and teardown, so that libcni/runtime can be run
// through the same pod on the same plugins and the plugin invocations compared
// (test/conformance/runtime-go-cni.test.ts).
//
// Input (stdin, JSON):
//
//	{ "pluginDirs": [...], "confDir": "...", "prefix": "eth", "loopback": true,
//	  "id": "...", "netns": "...", "portMappings": [...], "bandwidth": {...},
//	  "args": {"K": "v"}, "ops": ["setupSerially", "check", "remove"] }
//
// Output (stdout, JSON): {"ops": [{"op": "...", "error": "..."}]}, one entry per op, the
// error's text when it failed. go-cni keeps its result cache in /var/lib/cni (it has no option
// for another dir): the test runs this program in a private mount namespace with a temp dir
// bound there.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	gocni "github.com/containerd/go-cni"
)

type input struct {
	PluginDirs   []string            `json:"pluginDirs"`
	ConfDir      string              `json:"confDir"`
	Prefix       string              `json:"prefix"`
	Loopback     bool                `json:"loopback"`
	ID           string              `json:"id"`
	NetNS        string              `json:"netns"`
	PortMappings []gocni.PortMapping `json:"portMappings"`
	Bandwidth    *gocni.BandWidth    `json:"bandwidth"`
	Args         map[string]string   `json:"args"`
	Ops          []string            `json:"ops"`
}

type opOut struct {
	Op    string  `json:"op"`
	Error *string `json:"error,omitempty"`
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail(err)
	}
	c, err := gocni.New(
		gocni.WithPluginDir(in.PluginDirs),
		gocni.WithPluginConfDir(in.ConfDir),
		gocni.WithInterfacePrefix(in.Prefix),
	)
	if err != nil {
		fail(err)
	}
	// containerd's order: the loopback first, then every conf file.
	loads := []gocni.Opt{gocni.WithAllConf}
	if in.Loopback {
		loads = []gocni.Opt{gocni.WithLoNetwork, gocni.WithAllConf}
	}
	if err := c.Load(loads...); err != nil {
		fail(err)
	}
	var opts []gocni.NamespaceOpts
	if in.PortMappings != nil {
		opts = append(opts, gocni.WithCapabilityPortMap(in.PortMappings))
	}
	if in.Bandwidth != nil {
		opts = append(opts, gocni.WithCapabilityBandWidth(*in.Bandwidth))
	}
	for k, v := range in.Args {
		opts = append(opts, gocni.WithArgs(k, v))
	}
	ctx := context.Background()
	var out struct {
		Ops []opOut `json:"ops"`
	}
	for _, op := range in.Ops {
		var err error
		switch op {
		case "setupSerially":
			_, err = c.SetupSerially(ctx, in.ID, in.NetNS, opts...)
		case "check":
			err = c.Check(ctx, in.ID, in.NetNS, opts...)
		case "remove":
			err = c.Remove(ctx, in.ID, in.NetNS, opts...)
		default:
			err = fmt.Errorf("unknown op %q", op)
		}
		o := opOut{Op: op}
		if err != nil {
			text := err.Error()
			o.Error = &text
		}
		out.Ops = append(out.Ops, o)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail(err)
	}
}
