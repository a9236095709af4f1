package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"draindesign/eventstore/pgtest"
)

// buildBinary compiles this command once for the crash tests.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "draindesign")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// server is the real binary running in its own process.
type server struct {
	cmd *exec.Cmd
	url string
}

func serveProcess(t *testing.T, bin, dataDir string, env []string) *server {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir)
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", log.String())
		}
	})
	lines := bufio.NewScanner(stdout)
	deadline := time.After(30 * time.Second)
	found := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if _, rest, ok := strings.Cut(lines.Text(), "running at "); ok {
				found <- strings.Fields(rest)[0]
			}
		}
	}()
	select {
	case url := <-found:
		return &server{cmd: cmd, url: url}
	case <-deadline:
		t.Fatal("server did not start within 30 s")
	}
	return nil
}

// syncBuffer collects a process's output while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func client(t *testing.T, base, username string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	// Generous: CI runs this beside other packages on two cores.
	c := &http.Client{Jar: jar, Timeout: 60 * time.Second}
	body, _ := json.Marshal(map[string]string{"username": username, "password": "a long password"})
	start := time.Now()
	resp, err := c.Post(base+"/api/auth/login/", "application/json", bytes.NewReader(body))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("login after %s: %v %v", time.Since(start), err, resp)
	}
	resp.Body.Close()
	return c
}

// Killing the server with SIGKILL in the middle of writes loses no
// acknowledged save, and the restarted server serves every one of them.
func TestKillLosesNoAcknowledgedWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	cases := []struct {
		name string
		env  func(t *testing.T) []string
	}{
		{"sqlite", func(*testing.T) []string { return []string{"DATABASE_URL="} }},
		{"postgres", func(t *testing.T) []string { return []string{"DATABASE_URL=" + pgtest.NewDatabase(t)} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, dataDir := tc.env(t), t.TempDir()
			add := exec.Command(bin, "users", "add", "--data-dir", dataDir, "--username", "kim", "--email", "kim@example.com", "--password", "a long password")
			add.Env = append(os.Environ(), env...)
			if out, err := add.CombinedOutput(); err != nil {
				t.Fatalf("users add: %v\n%s", err, out)
			}
			srv := serveProcess(t, bin, dataDir, env)
			c := client(t, srv.url, "kim")

			var mu sync.Mutex
			var acked []string
			ctx, stop := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for w := 0; w < 4; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; ctx.Err() == nil; i++ {
						if id := save(c, srv.url, fmt.Sprintf("w%d-%d", w, i)); id != "" {
							mu.Lock()
							acked = append(acked, id)
							mu.Unlock()
						}
					}
				}()
			}
			// Kill once writes are flowing: a count of acknowledged saves,
			// not a fixed time, so a loaded machine still tests something.
			deadline := time.Now().Add(30 * time.Second)
			for {
				mu.Lock()
				n := len(acked)
				mu.Unlock()
				if n >= 10 || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = srv.cmd.Wait()
			stop()
			wg.Wait()
			if len(acked) < 5 {
				t.Fatalf("only %d saves acknowledged before the kill; the test proves nothing", len(acked))
			}

			srv = serveProcess(t, bin, dataDir, env)
			c = client(t, srv.url, "kim")
			resp, err := c.Get(srv.url + "/api/drainage/projects/")
			if err != nil {
				t.Fatal(err)
			}
			var list []struct{ ID string }
			if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			have := map[string]bool{}
			for _, it := range list {
				have[it.ID] = true
			}
			for _, id := range acked {
				if !have[id] {
					t.Fatalf("acknowledged save %s lost after SIGKILL (%d acknowledged, %d listed)", id, len(acked), len(list))
				}
			}
			t.Logf("%d acknowledged saves, all served after restart", len(acked))
		})
	}
}

// save stores a one-run project and returns its id if the server
// acknowledged it.
func save(c *http.Client, base, name string) string {
	body, _ := json.Marshal(map[string]any{"project": map[string]any{
		"details": map[string]any{"name": name},
		// A run the server can calculate: a save stores only its own results.
		"runs": []any{map[string]any{"name": "Run 1", "channel_group": "concrete", "channel_length_m": 10, "drainage_area_m2": 144,
			"concreteChannel": map[string]any{"width": 100, "depth": 300}, "rainfall": map[string]any{"rainfall_mm_per_hr": 50}}},
	}})
	resp, err := c.Post(base+"/api/drainage/save/", "application/json", bytes.NewReader(body))
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var ans struct{ SaveID string }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&ans) != nil {
		return ""
	}
	return ans.SaveID
}
