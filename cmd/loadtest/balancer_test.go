package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The balancer's configuration: sticky by default (a cookie naming each
// server, living stickyFor), round robin on request; haproxy itself
// accepts each.
func TestHaproxyConfig(t *testing.T) {
	servers := []string{"127.0.0.1:4001", "127.0.0.1:4002"}
	for _, tc := range []struct {
		roundRobin bool
		stickyFor  time.Duration
		want       []string
		wantNot    []string
	}{
		{false, 30 * time.Second, []string{"cookie DDINSTANCE insert indirect nocache httponly maxlife 30000ms\n", "server app1 127.0.0.1:4001 check cookie app1", "server app2 127.0.0.1:4002 check cookie app2", "option redispatch 1", "on-error mark-down"}, nil},
		{false, 0, []string{"cookie DDINSTANCE insert indirect nocache httponly\n"}, []string{"maxlife"}},
		{true, 30 * time.Second, []string{"server app1 127.0.0.1:4001 check\n", "balance roundrobin"}, []string{"cookie"}},
	} {
		cfg := haproxyConfig("127.0.0.1:4000", servers, tc.roundRobin, tc.stickyFor)
		for _, w := range tc.want {
			if !strings.Contains(cfg, w) {
				t.Errorf("round robin %v: no %q in\n%s", tc.roundRobin, w, cfg)
			}
		}
		for _, w := range tc.wantNot {
			if strings.Contains(cfg, w) {
				t.Errorf("round robin %v: %q in\n%s", tc.roundRobin, w, cfg)
			}
		}
		bin, err := exec.LookPath("haproxy")
		if err != nil {
			t.Logf("haproxy not installed (make load installs it): configuration not checked by haproxy")
			continue
		}
		file := filepath.Join(t.TempDir(), "haproxy.cfg")
		if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "-c", "-f", file).CombinedOutput(); err != nil {
			t.Errorf("round robin %v: haproxy -c: %v\n%s", tc.roundRobin, err, out)
		}
	}
}

// An instance that dies while a request is on its way (its listening
// socket took the connection, then the process went) answers nothing: the
// balancer sends a GET (a live stream's upgrade) on to the other instance,
// and fails a POST, which the dead one may have carried out (502, or the
// client's connection closed unanswered), rather than send it twice.
func TestHaproxyRetriesOnlyReads(t *testing.T) {
	bin := haproxyForTest(t)
	for _, method := range []string{"GET", "POST"} {
		t.Run(method, func(t *testing.T) {
			dying := newSilentServer(t)
			alive := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				_, _ = io.WriteString(w, "alive")
			}))
			defer alive.Close()
			lb := startHaproxy(t, bin, []string{dying.addr(), strings.TrimPrefix(alive.URL, "http://")})

			statuses := map[int]int{}
			for range 4 {
				req, err := http.NewRequest(method, "http://"+lb+"/probe", strings.NewReader(""))
				if err != nil {
					t.Fatal(err)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					// haproxy closes a kept-alive client connection
					// without an answer, as the server did, for the
					// client to decide.
					statuses[0]++
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				statuses[resp.StatusCode]++
			}
			reached := dying.requests(method)
			if reached == 0 {
				t.Fatalf("no %s reached the silent instance (answers %v): nothing was tested", method, statuses)
			}
			switch method {
			case "GET":
				if statuses[http.StatusOK] != 4 {
					t.Errorf("GET answers %v with %d sent to the silent instance; want every one 200, tried again on the other", statuses, reached)
				}
			case "POST":
				if failed := statuses[http.StatusBadGateway] + statuses[0]; failed != reached {
					t.Errorf("POST answers %v (0: connection closed unanswered) with %d sent to the silent instance; want that many failed, none sent again", statuses, reached)
				}
			}
		})
	}
}

func haproxyForTest(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("haproxy missing under CI (make test-go installs it)")
		}
		t.Skip("haproxy not installed (web/scripts/install-haproxy.sh installs it)")
	}
	return bin
}

// startHaproxy runs haproxy with the load test's (sticky) configuration
// over servers and returns its address once it accepts connections.
func startHaproxy(t *testing.T, bin string, servers []string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	file := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(file, []byte(haproxyConfig(addr, servers, false, 0)), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-f", file, "-db")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy not listening on %s: %s", addr, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// silentServer reads each request for /probe and closes the connection
// without an answer, as an instance killed after the kernel accepted the
// connection does, counting them by method; other paths (the readiness
// check) are answered 200.
type silentServer struct {
	l     net.Listener
	mu    sync.Mutex
	count map[string]int
}

func newSilentServer(t *testing.T) *silentServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &silentServer{l: l, count: map[string]int{}}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *silentServer) serve(c net.Conn) {
	defer c.Close()
	req, err := http.ReadRequest(bufio.NewReader(c))
	if err != nil {
		return
	}
	if req.URL.Path != "/probe" { // the balancer's readiness checks pass
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		return
	}
	s.mu.Lock()
	s.count[req.Method]++
	s.mu.Unlock()
}

func (s *silentServer) addr() string { return s.l.Addr().String() }

func (s *silentServer) requests(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count[method]
}
