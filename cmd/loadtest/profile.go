package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"
)

// profileInstances saves a CPU profile of every instance over the given
// time into the -profile directory, read from each instance's metrics
// listener (net/http/pprof), so that a slow run shows where its time went,
// at its start the instance's goroutines, which show what requests wait
// on when the CPU is not the limit, and after it a short execution trace
// (go tool trace), which shows how long each request's goroutine waited
// for a core, for the network or for a lock: the answer when a cheap call
// is slow on a full machine. The trace follows the profile rather than
// running beside it, so that neither's overhead is in the other.
func (r *rig) profileInstances(ctx context.Context, over time.Duration) {
	if err := os.MkdirAll(r.c.profile, 0o755); err != nil {
		log.Printf("profile: %v", err)
		return
	}
	var wg sync.WaitGroup
	// The load generator itself, on the same cores: what it costs the
	// system under test.
	wg.Go(func() {
		path := filepath.Join(r.c.profile, "loadtest.cpu.pprof")
		f, err := os.Create(path)
		if err != nil {
			log.Printf("profile of the load generator: %v", err)
			return
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Printf("profile of the load generator: %v", err)
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(over):
		}
		pprof.StopCPUProfile()
		log.Printf("profile of the load generator in %s", path)
	})
	for _, in := range r.insts {
		wg.Go(func() {
			g := filepath.Join(r.c.profile, in.name+".goroutines.txt")
			if err := fetchTo(ctx, "http://"+in.metricsAddr+"/debug/pprof/goroutine?debug=1", g); err != nil {
				log.Printf("goroutines of %s: %v", in.name, err)
			}
			path := filepath.Join(r.c.profile, in.name+".cpu.pprof")
			url := fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", in.metricsAddr, int(over/time.Second))
			if err := fetchTo(ctx, url, path); err != nil {
				log.Printf("profile %s: %v", in.name, err)
				return
			}
			log.Printf("profile of %s in %s (go tool pprof -top %s %s)", in.name, path, r.c.bin, path)
			trace := filepath.Join(r.c.profile, in.name+".trace")
			url = fmt.Sprintf("http://%s/debug/pprof/trace?seconds=%d", in.metricsAddr, int(traceFor/time.Second))
			if err := fetchTo(ctx, url, trace); err != nil {
				log.Printf("trace %s: %v", in.name, err)
				return
			}
			log.Printf("trace of %s in %s (go tool trace %s)", in.name, trace, trace)
		})
	}
	wg.Wait()
}

// traceFor is how long each instance is traced: the trace of a loaded
// instance grows by megabytes a second.
const traceFor = 3 * time.Second

// fetchTo saves what a GET of url answers in path.
func fetchTo(ctx context.Context, url, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
