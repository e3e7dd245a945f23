// Command libcnibench is the Go side of the benchmarks: Debian's Go libcni 1.1.2 (GOPATH mode)
// doing the same work as the TypeScript port, timed inside the process so that only the
// library and the plugin runs are measured, never this program's start.
//
// It reads one JSON command per line on stdin and answers each with one JSON line:
//
//	{"op":"add","conflist":F,"cacheDir":D,"calls":N,"containerID":C}  N sequential AddNetworkList
//	{"op":"concurrent","conflist":F,"cacheDir":D,"calls":N,"prefix":P} N AddNetworkList at once,
//	                                                                     container IDs P0..P(N-1)
//	{"op":"loadconfs","dir":D,"name":N}   LoadConfList(D, N) (every .conflist parsed up to N)
//	{"op":"gc","conflist":F,"cacheDir":D,"valid":N}  GC with the first N attachments valid
//	{"op":"cachewrite","record":F,"cacheDir":D,"calls":N,"containerID":C}  N cache-file writes
//	{"op":"rss"}                          this process's peak RSS (KiB)
//
// Answer: {"ns": elapsed nanoseconds} or {"error": "..."}.
//
// libcni 1.1.2 predates GC, so "gc" runs this program's own gcList, written from the documented
// behaviour over 1.1.2's public API: read and decode every cached record, DelNetworkList each
// stale attachment of the network, then one GC request per plugin carrying the valid set.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/containernetworking/cni/libcni"
	"github.com/containernetworking/cni/pkg/invoke"
	"github.com/containernetworking/cni/pkg/version"
)

type command struct {
	Op          string `json:"op"`
	Conflist    string `json:"conflist"`
	CacheDir    string `json:"cacheDir"`
	Calls       int    `json:"calls"`
	ContainerID string `json:"containerID"`
	Prefix      string `json:"prefix"`
	Dir         string `json:"dir"`
	Name        string `json:"name"`
	Valid       int    `json:"valid"`
	PluginDir   string `json:"pluginDir"`
	Record      string `json:"record"`
}

type answer struct {
	Ns     int64  `json:"ns,omitempty"`
	MaxRSS int64  `json:"maxRSS,omitempty"`
	Error  string `json:"error,omitempty"`
}

func runtimeConf(containerID string) *libcni.RuntimeConf {
	return &libcni.RuntimeConf{
		ContainerID: containerID,
		NetNS:       "/var/run/netns/bench",
		IfName:      "eth0",
	}
}

func add(c command) (time.Duration, error) {
	list, err := libcni.ConfListFromFile(c.Conflist)
	if err != nil {
		return 0, err
	}
	cni := libcni.NewCNIConfigWithCacheDir([]string{c.PluginDir}, c.CacheDir, nil)
	ctx := context.Background()
	start := time.Now()
	for i := 0; i < c.Calls; i++ {
		// With a prefix, each call ADDs a new attachment (<prefix><i>), as a runtime does.
		id := c.ContainerID
		if c.Prefix != "" {
			id = fmt.Sprintf("%s%d", c.Prefix, i)
		}
		if _, err := cni.AddNetworkList(ctx, list, runtimeConf(id)); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

func concurrent(c command) (time.Duration, error) {
	list, err := libcni.ConfListFromFile(c.Conflist)
	if err != nil {
		return 0, err
	}
	cni := libcni.NewCNIConfigWithCacheDir([]string{c.PluginDir}, c.CacheDir, nil)
	ctx := context.Background()
	errs := make([]error, c.Calls)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < c.Calls; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = cni.AddNetworkList(ctx, list, runtimeConf(fmt.Sprintf("%s%d", c.Prefix, i)))
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return elapsed, nil
}

func loadconfs(c command) (time.Duration, error) {
	start := time.Now()
	list, err := libcni.LoadConfList(c.Dir, c.Name)
	elapsed := time.Since(start)
	if err != nil {
		return 0, err
	}
	if list.Name != c.Name {
		return 0, fmt.Errorf("loaded %q, not %q", list.Name, c.Name)
	}
	return elapsed, nil
}

// ---- GC, written for this benchmark over 1.1.2's public API ----

// attachmentKey identifies one attachment in the valid set; JSON keys as in a GC request.
type attachmentKey struct {
	ContainerID string `json:"containerID"`
	IfName      string `json:"ifname"`
}

// cacheRecord is one cniCacheV1 file as the library writes it. Every field is decoded,
// result included, so that Go does the same decoding work as the TypeScript side.
type cacheRecord struct {
	Kind           string                 `json:"kind"`
	ContainerID    string                 `json:"containerId"`
	Config         []byte                 `json:"config"`
	IfName         string                 `json:"ifName"`
	NetworkName    string                 `json:"networkName"`
	NetNS          string                 `json:"netns"`
	CNIArgs        [][2]string            `json:"cniArgs"`
	CapabilityArgs map[string]interface{} `json:"capabilityArgs"`
	Result         map[string]interface{} `json:"result"`
}

// staleRuntimeConfs reads every record under <cacheDir>/results and returns a RuntimeConf
// for each attachment of network whose key is not in keep. Files that cannot be read or
// decoded, or are not cniCacheV1 records naming an interface, are not attachments.
func staleRuntimeConfs(cacheDir, network string, keep map[attachmentKey]bool) ([]*libcni.RuntimeConf, error) {
	dir := filepath.Join(cacheDir, "results")
	entries, err := os.ReadDir(dir) // sorted by name
	if os.IsNotExist(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var stale []*libcni.RuntimeConf
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var r cacheRecord
		if json.Unmarshal(data, &r) != nil || r.Kind != libcni.CNICacheV1 || r.IfName == "" || r.NetworkName != network {
			continue
		}
		if keep[attachmentKey{r.ContainerID, r.IfName}] {
			continue
		}
		stale = append(stale, &libcni.RuntimeConf{
			ContainerID:    r.ContainerID,
			NetNS:          r.NetNS,
			IfName:         r.IfName,
			Args:           r.CNIArgs,
			CapabilityArgs: r.CapabilityArgs,
		})
	}
	return stale, nil
}

// gcList deletes the stale attachments of list, then (config version 1.1.0 and up) sends
// each plugin a GC request carrying the valid set. It goes on after a failure and returns
// every failure, one per line.
func gcList(ctx context.Context, cni *libcni.CNIConfig, cacheDir string, list *libcni.NetworkConfigList, valid []attachmentKey) error {
	keep := make(map[attachmentKey]bool, len(valid))
	for _, a := range valid {
		keep[a] = true
	}
	stale, err := staleRuntimeConfs(cacheDir, list.Name, keep)
	if err != nil {
		return err
	}
	var failures []string
	for _, rt := range stale {
		if err := cni.DelNetworkList(ctx, list, rt); err != nil {
			failures = append(failures, fmt.Sprintf("deleting %s/%s: %v", rt.ContainerID, rt.IfName, err))
		}
	}
	if ok, _ := version.GreaterThanOrEqualTo(list.CNIVersion, "1.1.0"); ok {
		extra := map[string]interface{}{
			"name":                      list.Name,
			"cniVersion":                list.CNIVersion,
			"cni.dev/valid-attachments": valid,
			"cni.dev/attachments":       valid,
		}
		env := &invoke.Args{Command: "GC", Path: strings.Join(cni.Path, string(os.PathListSeparator))}
		for _, p := range list.Plugins {
			if err := gcPlugin(ctx, cni.Path, p, extra, env); err != nil {
				failures = append(failures, err.Error())
			}
		}
	}
	if len(failures) > 0 {
		return errors.New(strings.Join(failures, "\n"))
	}
	return nil
}

// gcPlugin sends one plugin its GC request: its config with extra merged in.
func gcPlugin(ctx context.Context, paths []string, p *libcni.NetworkConfig, extra map[string]interface{}, env *invoke.Args) error {
	conf, err := libcni.InjectConf(p, extra)
	if err != nil {
		return err
	}
	exe, err := invoke.FindInPath(p.Network.Type, paths)
	if err != nil {
		return err
	}
	if err := invoke.ExecPluginWithoutResult(ctx, exe, conf.Bytes, env, nil); err != nil {
		return fmt.Errorf("GC of plugin %s: %w", p.Network.Type, err)
	}
	return nil
}

func gc(c command) (time.Duration, error) {
	list, err := libcni.ConfListFromFile(c.Conflist)
	if err != nil {
		return 0, err
	}
	cni := libcni.NewCNIConfigWithCacheDir([]string{c.PluginDir}, c.CacheDir, nil)
	valid := make([]attachmentKey, c.Valid)
	for i := range valid {
		valid[i] = attachmentKey{ContainerID: fmt.Sprintf("%s%d", c.Prefix, i), IfName: "eth0"}
	}
	start := time.Now()
	err = gcList(context.Background(), cni, c.CacheDir, list, valid)
	return time.Since(start), err
}

// cachewrite is 1.1.2's cacheAdd file handling: MkdirAll, then WriteFile in place (no temp
// file, no fsync), c.Calls times over the same attachment.
func cachewrite(c command) (time.Duration, error) {
	bytes, err := os.ReadFile(c.Record)
	if err != nil {
		return 0, err
	}
	fname := filepath.Join(c.CacheDir, "results", "bench-"+c.ContainerID+"-eth0")
	start := time.Now()
	for i := 0; i < c.Calls; i++ {
		if err := os.MkdirAll(filepath.Dir(fname), 0700); err != nil {
			return 0, err
		}
		if err := os.WriteFile(fname, bytes, 0600); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

func maxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var c command
		var a answer
		var d time.Duration
		err := json.Unmarshal(in.Bytes(), &c)
		if err == nil {
			switch c.Op {
			case "add":
				d, err = add(c)
			case "concurrent":
				d, err = concurrent(c)
			case "loadconfs":
				d, err = loadconfs(c)
			case "gc":
				d, err = gc(c)
			case "cachewrite":
				d, err = cachewrite(c)
			case "rss":
				a.MaxRSS = maxRSS()
			default:
				err = errors.New("unknown op " + c.Op)
			}
		}
		if err != nil {
			a.Error = err.Error()
		} else {
			a.Ns = d.Nanoseconds()
		}
		if err := out.Encode(a); err != nil {
			os.Exit(1)
		}
	}
}
