package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"draindesign/eventstore/postgres"
	"draindesign/projections"
)

// lines reads a file of the repository as its non-comment lines.
func lines(t *testing.T, name string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// An image is built from the sources alone: not the machine's
// node_modules, built binaries, the data directory (the store and its
// secret key) or the deployment's signing key; and git never takes the key.
func TestBuildContextAndGitLeaveSecretsOut(t *testing.T) {
	docker := lines(t, ".dockerignore")
	for _, want := range []string{"web/node_modules", "bin", "data", "secret.key", ".git"} {
		if !slices.Contains(docker, want) {
			t.Errorf(".dockerignore misses %s", want)
		}
	}
	if !slices.Contains(lines(t, ".gitignore"), "secret.key") {
		t.Error(".gitignore misses secret.key")
	}
}

// composeFile is the part of docker-compose.yml the deployment relies on.
type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Build       any               `yaml:"build"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Ports       []string          `yaml:"ports"`
		DependsOn   any               `yaml:"depends_on"`
		Deploy      struct {
			Replicas int `yaml:"replicas"`
		} `yaml:"deploy"`
	} `yaml:"services"`
	Secrets map[string]struct {
		File string `yaml:"file"`
	} `yaml:"secrets"`
	Configs map[string]struct {
		Content string `yaml:"content"`
	} `yaml:"configs"`
}

// readCompose parses docker-compose.yml.
func readCompose(t *testing.T) composeFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	return c
}

// Every app replica at its busiest (all its pools full), with the
// migration job and a few tools beside them, fits in the compose
// PostgreSQL's max_connections: past it the server answers "too many
// clients" to everyone.
func TestComposeHasConnectionsForEveryInstance(t *testing.T) {
	c := readCompose(t)
	maxConns := 100 // PostgreSQL's default
	cmd := c.Services["postgres"].Command
	for i, arg := range cmd {
		if v, ok := strings.CutPrefix(arg, "max_connections="); ok && i > 0 && cmd[i-1] == "-c" {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("postgres command %v: %v", cmd, err)
			}
			maxConns = n
		}
	}
	const tools = 10 // migrate, a backup, psql sessions
	perInstance := int(postgres.Conns(postgres.DefaultMaxConns)) + projections.MaxReadModelConns
	if need := c.Services["app"].Deploy.Replicas*perInstance + tools; need > maxConns {
		t.Errorf("%d app replicas need up to %d connections (%d each) and %d for tools: %d, above max_connections %d",
			c.Services["app"].Deploy.Replicas, c.Services["app"].Deploy.Replicas*perInstance, perInstance, tools, need, maxConns)
	}
}

// The compose file starts PostgreSQL, NATS with JetStream, at least two app
// instances on both, and a published load balancer in front of them; where
// Docker exists, `docker compose config` accepts it too.
func TestComposeStartsTheScaleOutDeployment(t *testing.T) {
	c := readCompose(t)
	image := func(svc, prefix string) {
		if s, ok := c.Services[svc]; !ok || !strings.HasPrefix(s.Image, prefix) {
			t.Errorf("service %s: image %q, want %s*", svc, c.Services[svc].Image, prefix)
		}
	}
	image("postgres", "postgres:")
	image("nats", "nats:")
	image("lb", "caddy:")
	if !slices.Contains(c.Services["nats"].Command, "-js") {
		t.Errorf("nats command %v does not enable JetStream", c.Services["nats"].Command)
	}
	app, ok := c.Services["app"]
	if !ok {
		t.Fatal("no app service")
	}
	if app.Deploy.Replicas < 2 {
		t.Errorf("app replicas %d, want at least two instances", app.Deploy.Replicas)
	}
	if len(app.Command) == 0 || app.Command[0] != "serve" || !slices.Contains(app.Command, "0.0.0.0:8080") {
		t.Errorf("app command %v, want serve on 0.0.0.0:8080", app.Command)
	}
	env := app.Environment
	if !strings.Contains(env["DATABASE_URL"], "@postgres:5432/") || env["NATS_URL"] != "nats://nats:4222" {
		t.Errorf("app environment %v does not point at the postgres and nats services", env)
	}
	for _, v := range []string{"PUBLIC_URL", "SECRET_KEY_FILE", "TRUSTED_PROXIES"} {
		if env[v] == "" {
			t.Errorf("app environment misses %s", v)
		}
	}
	if c.Services["migrate"].Command[0] != "migrate" {
		t.Errorf("migrate service runs %v", c.Services["migrate"].Command)
	}
	// The balancer proxies to every app replica, keeping each designer on
	// one for a while (docs/decisions.md, "Designers kept on one
	// instance"): the cookie expires, so designers spread again over a
	// replica that comes back.
	lb := c.Services["lb"]
	caddyfile := c.Configs["caddyfile"].Content
	if !slices.Contains(lb.Command, "/etc/caddy/Caddyfile") || len(lb.Ports) == 0 ||
		!strings.Contains(caddyfile, "dynamic a app 8080") || !strings.Contains(caddyfile, "lb_policy cookie") ||
		!strings.Contains(caddyfile, "max_age 5m") {
		t.Errorf("lb: command %v ports %v, Caddyfile\n%s\nwant a published proxy to app:8080, sticky for 5 minutes", lb.Command, lb.Ports, caddyfile)
	}
	if c.Secrets["draindesign_secret"].File != "./secret.key" {
		t.Errorf("secret file %q, want ./secret.key", c.Secrets["draindesign_secret"].File)
	}

	docker, err := exec.LookPath("docker")
	if err == nil {
		err = exec.Command(docker, "compose", "version").Run()
	}
	if err != nil {
		t.Logf("no docker compose here (%v): docker compose config not run", err)
		return
	}
	cmd := exec.Command(docker, "compose", "-f", filepath.Join("..", "..", "docker-compose.yml"), "config", "--quiet")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("docker compose config: %v\n%s", err, out)
	}
}
