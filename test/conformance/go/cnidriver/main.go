// Command cnidriver drives Go libcni (Debian's 1.1.2, built in GOPATH mode) through one
// differential case and prints what it observed, so the TypeScript port can be run through
// the same case and compared (test/conformance/).
//
// Input (stdin, JSON):
//
//	{ "confList" | "confListB64": the conflist bytes (text or base64),
//	  "conf" | "confB64": a single-plugin config for the *Net ops,
//	  "pluginPaths": [...], "cacheDir": "...",
//	  "runtimeConf": {"containerID","netNS","ifName","args":[[k,v]],"capabilityArgs":{}},
//	  "ops": ["add","check","del","getCachedResult","getCachedConfig","validate",
//	          "versionInfo:<type>","addNet","checkNet","delNet","getNetCachedResult",
//	          "getNetCachedConfig","validateNet","confListFromConf",
//	          "getCachedAttachments" (rt's container), "getCachedAttachments:all":
//	          the driver's own listing written from the documented rules, as 1.1.2 lacks it],
//	  "watchDirs": [...] }
//
// Output (stdout, JSON): the parse outcome of each config, then per op its result (Go's
// json.Marshal and PrintTo bytes), its error (code when a *types.Error is in the chain, and
// the message) and a snapshot of every watched directory (mode and base64 of each file).
package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"io/ioutil"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/containernetworking/cni/libcni"
	"github.com/containernetworking/cni/pkg/types"
)

type runtimeConf struct {
	ContainerID    string                 `json:"containerID"`
	NetNS          string                 `json:"netNS"`
	IfName         string                 `json:"ifName"`
	Args           [][2]string            `json:"args"`
	CapabilityArgs map[string]interface{} `json:"capabilityArgs"`
}

type input struct {
	ConfList    *string     `json:"confList"`
	ConfListB64 *string     `json:"confListB64"`
	Conf        *string     `json:"conf"`
	ConfB64     *string     `json:"confB64"`
	PluginPaths []string    `json:"pluginPaths"`
	CacheDir    string      `json:"cacheDir"`
	RuntimeConf runtimeConf `json:"runtimeConf"`
	Ops         []string    `json:"ops"`
	WatchDirs   []string    `json:"watchDirs"`
	// CacheViaRuntimeConf: give the cache dir through the deprecated RuntimeConf.CacheDir.
	CacheViaRuntimeConf bool `json:"cacheViaRuntimeConf"`
}

type errOut struct {
	Code *uint  `json:"code"`
	Msg  string `json:"msg"`
}

type fileOut struct {
	Mode string  `json:"mode"`
	B64  *string `json:"b64"`
}

type cachedConfigOut struct {
	BytesB64 *string      `json:"bytesB64"`
	Rt       *runtimeConf `json:"rt"`
}

type opOut struct {
	Op           string                         `json:"op"`
	Result       *string                        `json:"result,omitempty"`
	Printed      *string                        `json:"printed,omitempty"`
	Error        *errOut                        `json:"error,omitempty"`
	CachedConfig *cachedConfigOut               `json:"cachedConfig,omitempty"`
	Caps         *[]string                      `json:"caps,omitempty"`
	Versions     *[]string                      `json:"versions,omitempty"`
	Bytes        *string                        `json:"bytesB64,omitempty"`
	Attachments  *[]attachmentOut               `json:"attachments,omitempty"`
	Dirs         map[string]map[string]*fileOut `json:"dirs"`
}

type listOut struct {
	Name         string   `json:"name"`
	CNIVersion   string   `json:"cniVersion"`
	DisableCheck bool     `json:"disableCheck"`
	Plugins      []string `json:"pluginsB64"`
}

type parseOut struct {
	List  *listOut `json:"list,omitempty"`
	Conf  *string  `json:"confB64,omitempty"`
	Error *errOut  `json:"error,omitempty"`
}

type output struct {
	ParseList *parseOut `json:"parseList,omitempty"`
	ParseConf *parseOut `json:"parseConf,omitempty"`
	Ops       []opOut   `json:"ops"`
}

func b64(b []byte) *string {
	s := base64.StdEncoding.EncodeToString(b)
	return &s
}

func pick(text, enc *string) ([]byte, bool, error) {
	if text != nil {
		return []byte(*text), true, nil
	}
	if enc != nil {
		b, err := base64.StdEncoding.DecodeString(*enc)
		return b, true, err
	}
	return nil, false, nil
}

func toErr(err error) *errOut {
	if err == nil {
		return nil
	}
	out := &errOut{Msg: err.Error()}
	var te *types.Error
	if errors.As(err, &te) {
		c := te.Code
		out.Code = &c
	}
	return out
}

func snapshot(dirs []string) map[string]map[string]*fileOut {
	snap := map[string]map[string]*fileOut{}
	for _, dir := range dirs {
		files := map[string]*fileOut{}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == dir {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			info, ierr := d.Info()
			if ierr != nil {
				return nil
			}
			f := &fileOut{Mode: fmt.Sprintf("%o", uint32(info.Mode().Perm())|dirBit(info))}
			if !d.IsDir() {
				if data, rerr := ioutil.ReadFile(p); rerr == nil {
					f.B64 = b64(data)
				}
			}
			files[rel] = f
			return nil
		})
		snap[dir] = files
	}
	return snap
}

func dirBit(info fs.FileInfo) uint32 {
	if info.IsDir() {
		return 0o40000
	}
	return 0
}

func resultOut(o *opOut, r types.Result) {
	if r == nil {
		return
	}
	data, err := json.Marshal(r)
	if err != nil {
		o.Error = toErr(err)
		return
	}
	s := string(data)
	o.Result = &s
	var buf bytes.Buffer
	if err := r.PrintTo(&buf); err == nil {
		p := buf.String()
		o.Printed = &p
	}
}

func cachedOut(o *opOut, data []byte, rt *libcni.RuntimeConf, err error) {
	if err != nil {
		o.Error = toErr(err)
		return
	}
	c := &cachedConfigOut{}
	if data != nil {
		c.BytesB64 = b64(data)
	}
	if rt != nil {
		c.Rt = &runtimeConf{rt.ContainerID, rt.NetNS, rt.IfName, rt.Args, rt.CapabilityArgs}
	}
	o.CachedConfig = c
}

func capsOut(o *opOut, caps []string, err error) {
	if err != nil {
		o.Error = toErr(err)
		return
	}
	// Go's order is random (a map walk): compare the sorted list.
	sort.Strings(caps)
	c := append([]string{}, caps...)
	o.Caps = &c
}

func run(in *input) (*output, error) {
	out := &output{Ops: []opOut{}}
	var list *libcni.NetworkConfigList
	var conf *libcni.NetworkConfig

	if data, ok, err := pick(in.ConfList, in.ConfListB64); err != nil {
		return nil, err
	} else if ok {
		l, perr := libcni.ConfListFromBytes(data)
		out.ParseList = &parseOut{Error: toErr(perr)}
		if perr == nil {
			list = l
			lo := &listOut{Name: l.Name, CNIVersion: l.CNIVersion, DisableCheck: l.DisableCheck, Plugins: []string{}}
			for _, p := range l.Plugins {
				lo.Plugins = append(lo.Plugins, *b64(p.Bytes))
			}
			out.ParseList.List = lo
		}
	}
	if data, ok, err := pick(in.Conf, in.ConfB64); err != nil {
		return nil, err
	} else if ok {
		c, perr := libcni.ConfFromBytes(data)
		out.ParseConf = &parseOut{Error: toErr(perr)}
		if perr == nil {
			conf = c
			out.ParseConf.Conf = b64(c.Bytes)
		}
	}

	cni := libcni.NewCNIConfigWithCacheDir(in.PluginPaths, in.CacheDir, nil)
	if in.CacheViaRuntimeConf {
		cni = libcni.NewCNIConfig(in.PluginPaths, nil)
	}
	rt := &libcni.RuntimeConf{
		ContainerID:    in.RuntimeConf.ContainerID,
		NetNS:          in.RuntimeConf.NetNS,
		IfName:         in.RuntimeConf.IfName,
		Args:           in.RuntimeConf.Args,
		CapabilityArgs: in.RuntimeConf.CapabilityArgs,
	}
	if in.CacheViaRuntimeConf {
		rt.CacheDir = in.CacheDir
	}

	for _, op := range in.Ops {
		o := opOut{Op: op}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		free := strings.HasPrefix(op, "versionInfo:") || strings.HasPrefix(op, "getCachedAttachments")
		needList := !strings.HasSuffix(op, "Net") && op != "confListFromConf" && !free
		if (needList && list == nil) || (!needList && conf == nil && !free) {
			o.Error = &errOut{Msg: "driver: no parsed config for " + op}
			cancel()
			o.Dirs = snapshot(in.WatchDirs)
			out.Ops = append(out.Ops, o)
			continue
		}
		switch {
		case op == "add":
			r, err := cni.AddNetworkList(ctx, list, rt)
			o.Error = toErr(err)
			resultOut(&o, r)
		case op == "check":
			o.Error = toErr(cni.CheckNetworkList(ctx, list, rt))
		case op == "del":
			o.Error = toErr(cni.DelNetworkList(ctx, list, rt))
		case op == "getCachedResult":
			r, err := cni.GetNetworkListCachedResult(list, rt)
			o.Error = toErr(err)
			resultOut(&o, r)
		case op == "getCachedConfig":
			data, nrt, err := cni.GetNetworkListCachedConfig(list, rt)
			cachedOut(&o, data, nrt, err)
		case op == "validate":
			caps, err := cni.ValidateNetworkList(ctx, list)
			capsOut(&o, caps, err)
		case op == "addNet":
			r, err := cni.AddNetwork(ctx, conf, rt)
			o.Error = toErr(err)
			resultOut(&o, r)
		case op == "checkNet":
			o.Error = toErr(cni.CheckNetwork(ctx, conf, rt))
		case op == "delNet":
			o.Error = toErr(cni.DelNetwork(ctx, conf, rt))
		case op == "getNetCachedResult":
			r, err := cni.GetNetworkCachedResult(conf, rt)
			o.Error = toErr(err)
			resultOut(&o, r)
		case op == "getNetCachedConfig":
			data, nrt, err := cni.GetNetworkCachedConfig(conf, rt)
			cachedOut(&o, data, nrt, err)
		case op == "validateNet":
			caps, err := cni.ValidateNetwork(ctx, conf)
			capsOut(&o, caps, err)
		case op == "confListFromConf":
			l, err := libcni.ConfListFromConf(conf)
			o.Error = toErr(err)
			if err == nil {
				o.Bytes = b64(l.Bytes)
			}
		case op == "getCachedAttachments" || op == "getCachedAttachments:all":
			cid := rt.ContainerID
			if op == "getCachedAttachments:all" {
				cid = ""
			}
			// 1.1.2 has no GetCachedAttachments: the driver's own listing (cachelisting.go).
			atts, err := listCachedAttachments(in.CacheDir, cid)
			o.Error = toErr(err)
			if err == nil {
				o.Attachments = &atts
			}
		case strings.HasPrefix(op, "versionInfo:"):
			vi, err := cni.GetVersionInfo(ctx, strings.TrimPrefix(op, "versionInfo:"))
			o.Error = toErr(err)
			if err == nil {
				v := append([]string{}, vi.SupportedVersions()...)
				o.Versions = &v
			}
		default:
			o.Error = &errOut{Msg: "driver: unknown op " + op}
		}
		cancel()
		o.Dirs = snapshot(in.WatchDirs)
		out.Ops = append(out.Ops, o)
	}
	return out, nil
}

func main() {
	var in input
	dec := json.NewDecoder(os.Stdin)
	if err := dec.Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, "cnidriver: bad input:", err)
		os.Exit(2)
	}
	out, err := run(&in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cnidriver:", err)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "cnidriver:", err)
		os.Exit(2)
	}
}
