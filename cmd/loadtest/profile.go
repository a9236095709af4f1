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
// and at its start the instance's goroutines, which show what requests
// wait on when the CPU is not the limit.
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
		})
	}
	wg.Wait()
}

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
