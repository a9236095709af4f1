package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
