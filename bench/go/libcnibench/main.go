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
// libcni 1.1.2 predates GC (added in v1.2.0), so "gc" runs upstream v1.3.0's GCNetworkList
// and GetCachedAttachments, copied below line for line over 1.1.2's public API.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/containernetworking/cni/libcni"
	"github.com/containernetworking/cni/pkg/invoke"
	"github.com/containernetworking/cni/pkg/types"
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
		if _, err := cni.AddNetworkList(ctx, list, runtimeConf(c.ContainerID)); err != nil {
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

// ---- upstream v1.3.0 GC, over 1.1.2 ----

type gcAttachment struct {
	ContainerID string `json:"containerID"`
	IfName      string `json:"ifname"`
}

type networkAttachment struct {
	ContainerID    string
	Network        string
	IfName         string
	Config         []byte
	NetNS          string
	CniArgs        [][2]string
	CapabilityArgs map[string]interface{}
}

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
	Result         types.Result           `json:"-"`
}

// getCachedAttachments is v1.3.0's CNIConfig.GetCachedAttachments.
func getCachedAttachments(cacheDir, containerID string) ([]*networkAttachment, error) {
	dirPath := filepath.Join(cacheDir, "results")
	entries, err := os.ReadDir(dirPath)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	fileNames := make([]string, 0, len(entries))
	for _, e := range entries {
		fileNames = append(fileNames, e.Name())
	}
	sort.Strings(fileNames)
	attachments := []*networkAttachment{}
	for _, fname := range fileNames {
		if len(containerID) > 0 {
			part := fmt.Sprintf("-%s-", containerID)
			pos := strings.Index(fname, part)
			if pos <= 0 || pos+len(part) >= len(fname) {
				continue
			}
		}
		bytes, err := os.ReadFile(filepath.Join(dirPath, fname))
		if err != nil {
			continue
		}
		info := cachedInfo{}
		if err := json.Unmarshal(bytes, &info); err != nil {
			continue
		}
		if info.Kind != libcni.CNICacheV1 {
			continue
		}
		if len(containerID) > 0 && info.ContainerID != containerID {
			continue
		}
		if info.IfName == "" || info.NetworkName == "" {
			continue
		}
		attachments = append(attachments, &networkAttachment{
			ContainerID: info.ContainerID, Network: info.NetworkName, IfName: info.IfName,
			Config: info.Config, NetNS: info.NetNS, CniArgs: info.CniArgs, CapabilityArgs: info.CapabilityArgs,
		})
	}
	return attachments, nil
}

// gcNetworkList is v1.3.0's CNIConfig.GCNetworkList (its plugin call is gcNetwork's).
func gcNetworkList(ctx context.Context, cni *libcni.CNIConfig, cacheDir string, list *libcni.NetworkConfigList, valid []gcAttachment) error {
	cachedAttachments, err := getCachedAttachments(cacheDir, "")
	if err != nil {
		return nil
	}
	validAttachments := make(map[gcAttachment]interface{}, len(valid))
	for _, a := range valid {
		validAttachments[a] = nil
	}
	var errs []error
	for _, cachedAttachment := range cachedAttachments {
		if cachedAttachment.Network != list.Name {
			continue
		}
		gca := gcAttachment{ContainerID: cachedAttachment.ContainerID, IfName: cachedAttachment.IfName}
		if _, ok := validAttachments[gca]; ok {
			continue
		}
		rt := libcni.RuntimeConf{
			ContainerID: cachedAttachment.ContainerID, NetNS: cachedAttachment.NetNS, IfName: cachedAttachment.IfName,
			Args: cachedAttachment.CniArgs, CapabilityArgs: cachedAttachment.CapabilityArgs,
		}
		if err := cni.DelNetworkList(ctx, list, &rt); err != nil {
			errs = append(errs, fmt.Errorf("failed to delete stale attachment %s %s: %w", rt.ContainerID, rt.IfName, err))
		}
	}
	if gt, _ := version.GreaterThanOrEqualTo(list.CNIVersion, "1.1.0"); gt {
		inject := map[string]interface{}{
			"name":                      list.Name,
			"cniVersion":                list.CNIVersion,
			"cni.dev/valid-attachments": valid,
			"cni.dev/attachments":       valid,
		}
		for _, plugin := range list.Plugins {
			pluginConfig, err := libcni.InjectConf(plugin, inject)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			exec := &invoke.DefaultExec{RawExec: &invoke.RawExec{Stderr: os.Stderr}}
			pluginPath, err := exec.FindInPath(plugin.Network.Type, cni.Path)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			args := &invoke.Args{Command: "GC", Path: strings.Join(cni.Path, string(os.PathListSeparator))}
			if err := invoke.ExecPluginWithoutResult(ctx, pluginPath, pluginConfig.Bytes, args, exec); err != nil {
				errs = append(errs, fmt.Errorf("failed to GC plugin %s: %w", plugin.Network.Type, err))
			}
		}
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

func gc(c command) (time.Duration, error) {
	list, err := libcni.ConfListFromFile(c.Conflist)
	if err != nil {
		return 0, err
	}
	cni := libcni.NewCNIConfigWithCacheDir([]string{c.PluginDir}, c.CacheDir, nil)
	valid := make([]gcAttachment, c.Valid)
	for i := range valid {
		valid[i] = gcAttachment{ContainerID: fmt.Sprintf("%s%d", c.Prefix, i), IfName: "eth0"}
	}
	start := time.Now()
	err = gcNetworkList(context.Background(), cni, c.CacheDir, list, valid)
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
