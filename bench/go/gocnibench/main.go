// Command gocnibench is the Go side of bench/pod.mjs: containerd/go-cni (Debian's 1.1.7 over
// libcni 1.1.2, built in GOPATH mode) setting pods up and tearing them down, timed inside the
// process so that only go-cni and the plugin runs are measured, never this program's start.
//
// go-cni has no option for its result cache dir (it writes /var/lib/cni): bench/pod.mjs runs
// this program in its own mount namespace with a temp dir bound over /var/lib, and in its own
// network namespace (the pods' host side: bridge, routes, iptables rules).
//
// It reads one JSON command per line on stdin and answers each with one JSON line:
//
//	{"op":"load","name":N,"confDir":D,"pluginDirs":[...],"prefix":"eth","loopback":true}
//	    a go-cni instance N: New(WithPluginDir, WithPluginConfDir, WithInterfacePrefix),
//	    then Load(WithLoNetwork, WithAllConf) as containerd does
//	{"op":"pods","name":N,"pods":[{"id","netns","hostPort"}],"serial":false}
//	    one pod after another: Setup (SetupSerially when serial), then Remove; the two summed
//	{"op":"burstup","name":N,"pods":[...],"serial":false}
//	    every pod's Setup at once (one goroutine each)
//	{"op":"burstdown","name":N,"pods":[...]}
//	    every pod's Remove at once
//	{"op":"rss"}   this process's peak RSS (KiB)
//
// Answer: {"setupNs":..., "teardownNs":...} (pods), {"ns":..., "cpuNs":...} (bursts: the
// elapsed time and this process's CPU time, not its children's), {"maxRSS":...} or
// {"error": "..."}.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	gocni "github.com/containerd/go-cni"
)

type pod struct {
	ID       string `json:"id"`
	Netns    string `json:"netns"`
	HostPort int32  `json:"hostPort"`
}

type command struct {
	Op         string   `json:"op"`
	Name       string   `json:"name"`
	ConfDir    string   `json:"confDir"`
	PluginDirs []string `json:"pluginDirs"`
	Prefix     string   `json:"prefix"`
	Loopback   bool     `json:"loopback"`
	Pods       []pod    `json:"pods"`
	Serial     bool     `json:"serial"`
}

type answer struct {
	Ns         int64  `json:"ns,omitempty"`
	CPUNs      int64  `json:"cpuNs,omitempty"`
	SetupNs    int64  `json:"setupNs,omitempty"`
	TeardownNs int64  `json:"teardownNs,omitempty"`
	MaxRSS     int64  `json:"maxRSS,omitempty"`
	Error      string `json:"error,omitempty"`
}

var instances = map[string]gocni.CNI{}

// podOpts is what containerd's CRI passes for a pod: its labels as CNI_ARGS (IgnoreUnknown
// first) and the pod's port mappings.
func podOpts(p pod) []gocni.NamespaceOpts {
	return []gocni.NamespaceOpts{
		gocni.WithArgs("IgnoreUnknown", "1"),
		gocni.WithArgs("K8S_POD_NAMESPACE", "bench"),
		gocni.WithArgs("K8S_POD_NAME", p.ID),
		gocni.WithArgs("K8S_POD_INFRA_CONTAINER_ID", p.ID),
		gocni.WithCapabilityPortMap([]gocni.PortMapping{
			{HostPort: p.HostPort, ContainerPort: 80, Protocol: "tcp", HostIP: ""},
		}),
	}
}

func setup(ctx context.Context, c gocni.CNI, p pod, serial bool) error {
	var err error
	if serial {
		_, err = c.SetupSerially(ctx, p.ID, p.Netns, podOpts(p)...)
	} else {
		_, err = c.Setup(ctx, p.ID, p.Netns, podOpts(p)...)
	}
	return err
}

func remove(ctx context.Context, c gocni.CNI, p pod) error {
	return c.Remove(ctx, p.ID, p.Netns, podOpts(p)...)
}

func load(c command) error {
	cni, err := gocni.New(
		gocni.WithPluginDir(c.PluginDirs),
		gocni.WithPluginConfDir(c.ConfDir),
		gocni.WithInterfacePrefix(c.Prefix),
	)
	if err != nil {
		return err
	}
	opts := []gocni.Opt{gocni.WithAllConf}
	if c.Loopback {
		opts = []gocni.Opt{gocni.WithLoNetwork, gocni.WithAllConf}
	}
	if err := cni.Load(opts...); err != nil {
		return err
	}
	instances[c.Name] = cni
	return nil
}

func pods(c command, cni gocni.CNI) (answer, error) {
	ctx := context.Background()
	var a answer
	for _, p := range c.Pods {
		start := time.Now()
		if err := setup(ctx, cni, p, c.Serial); err != nil {
			return a, fmt.Errorf("setup %s: %w", p.ID, err)
		}
		mid := time.Now()
		if err := remove(ctx, cni, p); err != nil {
			return a, fmt.Errorf("remove %s: %w", p.ID, err)
		}
		a.SetupNs += int64(mid.Sub(start))
		a.TeardownNs += int64(time.Since(mid))
	}
	return a, nil
}

// cpuNs is this process's CPU time so far (user + system; not its children, the plugins).
func cpuNs() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// all runs f for every pod at once and returns the elapsed time and the first error.
func all(ps []pod, f func(pod) error) (time.Duration, error) {
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	start := time.Now()
	for i, p := range ps {
		wg.Add(1)
		go func(i int, p pod) {
			defer wg.Done()
			errs[i] = f(p)
		}(i, p)
	}
	wg.Wait()
	elapsed := time.Since(start)
	for i, err := range errs {
		if err != nil {
			return elapsed, fmt.Errorf("%s: %w", ps[i].ID, err)
		}
	}
	return elapsed, nil
}

func burstUp(c command, cni gocni.CNI) (answer, error) {
	ctx := context.Background()
	cpu0 := cpuNs()
	up, err := all(c.Pods, func(p pod) error { return setup(ctx, cni, p, c.Serial) })
	if err != nil {
		// Whatever was set up is removed, so that the next round starts clean.
		all(c.Pods, func(p pod) error { return remove(ctx, cni, p) })
		return answer{}, fmt.Errorf("setup %w", err)
	}
	return answer{Ns: int64(up), CPUNs: cpuNs() - cpu0}, nil
}

func burstDown(c command, cni gocni.CNI) (answer, error) {
	ctx := context.Background()
	cpu0 := cpuNs()
	down, err := all(c.Pods, func(p pod) error { return remove(ctx, cni, p) })
	if err != nil {
		return answer{}, fmt.Errorf("remove %w", err)
	}
	return answer{Ns: int64(down), CPUNs: cpuNs() - cpu0}, nil
}

func handle(c command) (answer, error) {
	switch c.Op {
	case "load":
		return answer{}, load(c)
	case "rss":
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return answer{}, err
		}
		return answer{MaxRSS: ru.Maxrss}, nil
	}
	cni, ok := instances[c.Name]
	if !ok {
		return answer{}, fmt.Errorf("no instance %q (load it first)", c.Name)
	}
	switch c.Op {
	case "pods":
		return pods(c, cni)
	case "burstup":
		return burstUp(c, cni)
	case "burstdown":
		return burstDown(c, cni)
	}
	return answer{}, fmt.Errorf("unknown op %q", c.Op)
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var c command
		var a answer
		var err error
		if err = json.Unmarshal(in.Bytes(), &c); err == nil {
			a, err = handle(c)
		}
		if err != nil {
			a = answer{Error: err.Error()}
		}
		if err := out.Encode(a); err != nil {
			os.Exit(1)
		}
	}
}
