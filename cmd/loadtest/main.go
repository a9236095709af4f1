// Command loadtest is `make load`: it starts two draindesign instances on
// PostgreSQL and NATS JetStream behind haproxy, all on loopback ports, and
// simulates designers through the balancer: each signs in, opens a draft
// over the live stream in two tabs, edits its run, calculates (70 % small
// runs, 25 % stepped 100 to 500 m, 5 % 3000 m) and saves, while the second
// tab must show every edit. Mid-run one instance is killed (SIGKILL) and
// started again, then the app's connections to NATS are cut for a while
// through a TCP proxy this program controls, and its database is taken
// away as a PostgreSQL restart would (connections ended, new ones refused;
// eventstore/pgoutage): the shared servers themselves are never restarted.
// At the end every acknowledged write is read back from the store. It
// prints the figures, writes a chart and the "Load test (issue 15)"
// section of docs/performance.md.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"draindesign/api/usecase"
	"draindesign/cmd/draindesign/app"
	"draindesign/domain/account"
	"draindesign/eventstore/postgres"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"
)

const password = "load test password"

type config struct {
	roundRobin  bool
	stickyFor   time.Duration
	users       int
	duration    time.Duration
	ramp        time.Duration
	signInLimit time.Duration
	think       time.Duration
	saveEvery   int
	count       int
	bin         string
	pgServer    string
	natsURL     string
	killAt      time.Duration
	restartIn   time.Duration
	natsCutAt   time.Duration
	pgCutAt     time.Duration
	cutFor      time.Duration
	doc, chart  string
	keep        bool
	haproxy     string
	profile     string
}

func main() {
	log.SetFlags(log.Ltime)
	// The generator shares the cores with the system it measures: it
	// trades memory (a few hundred MiB of 24 GiB) for fewer collections,
	// which took a seventh of its CPU at the default.
	debug.SetGCPercent(400)
	// It stands for 200 browsers, whose answers must not wait for one
	// another: with a P per core and both busy, Go notices a socket's data
	// only every 10 ms (cmd/draindesign/procs.go), which the latencies
	// recorded here would include. Spare Ps notice it at once.
	runtime.GOMAXPROCS(2 * runtime.GOMAXPROCS(0))
	var c config
	flag.IntVar(&c.users, "users", 200, "simulated designers")
	flag.DurationVar(&c.duration, "duration", 100*time.Second, "length of the load phase, which begins once every designer has signed in and opened a project")
	flag.DurationVar(&c.ramp, "ramp", 60*time.Second, "designers start signing in spread over this time")
	flag.DurationVar(&c.signInLimit, "sign-in-limit", 100*time.Second, "the load phase begins at the latest this long after the first sign-in")
	flag.DurationVar(&c.think, "think", 100*time.Millisecond, "mean pause of a designer between edits")
	flag.IntVar(&c.saveEvery, "save-every", 3, "a designer saves after every this many calculations")
	flag.IntVar(&c.count, "count", 0, "edits per designer at most (0: until the time is up)")
	flag.StringVar(&c.bin, "bin", "bin/draindesign", "the draindesign binary")
	pg := os.Getenv("DATABASE_URL")
	if pg == "" {
		pg = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	flag.StringVar(&c.pgServer, "pg", pg, "PostgreSQL server to create the run's database on")
	nu := os.Getenv("NATS_URL")
	if nu == "" {
		nu = "nats://127.0.0.1:4222"
	}
	flag.StringVar(&c.natsURL, "nats", nu, "NATS JetStream server")
	flag.DurationVar(&c.killAt, "kill-at", 30*time.Second, "when, into the load phase, to SIGKILL the second instance (0: never)")
	flag.DurationVar(&c.restartIn, "restart-after", 10*time.Second, "the killed instance starts again this long after")
	flag.DurationVar(&c.natsCutAt, "nats-cut-at", 55*time.Second, "when, into the load phase, to cut the instances' NATS connections (0: never)")
	flag.DurationVar(&c.pgCutAt, "pg-cut-at", 75*time.Second, "when, into the load phase, to cut the instances' PostgreSQL connections (0: never)")
	flag.DurationVar(&c.cutFor, "cut-for", 5*time.Second, "how long a cut lasts")
	flag.StringVar(&c.doc, "doc", "", "markdown file whose \"Load test (issue 15)\" section is rewritten (empty: none)")
	flag.StringVar(&c.chart, "chart", "", "PNG chart to write (empty: none)")
	flag.BoolVar(&c.keep, "keep", false, "keep the database, the NATS stream and the work directory")
	flag.StringVar(&c.haproxy, "haproxy", "haproxy", "haproxy binary")
	flag.BoolVar(&c.roundRobin, "round-robin", false, "spread every call over the instances, instead of keeping each designer on one (sticky, by a cookie of the balancer's)")
	flag.DurationVar(&c.stickyFor, "sticky-for", 5*time.Minute, "how long the balancer keeps a designer on one instance before choosing again (the life of its cookie: docker-compose's Caddy keeps 5 minutes, after which designers spread again over an instance that came back)")
	flag.StringVar(&c.profile, "profile", "", "directory for 20 s CPU profiles of each instance, taken 5 s into the load phase (empty: none)")
	flag.Parse()
	if err := run(c); err != nil {
		log.Fatalf("loadtest: %v", err)
	}
}

// instance is one app process.
type instance struct {
	name string
	addr string
	// metricsAddr serves /metrics and, for -profile, /debug/pprof/.
	metricsAddr string
	cmd         *exec.Cmd
	done        chan struct{}
}

type rig struct {
	c        config
	work     string
	dbName   string
	dbURL    string // direct, for setup and the read-back
	stream   string
	natProxy *Proxy
	insts    []*instance
	lb       *exec.Cmd
	lbAddr   string
	// busyBefore is the share of the cores busy just before the run
	// started anything (-1: unknown).
	busyBefore float64
	// procs is what the first instance said of its calculations and Ps.
	procs string
}

// busySample is how long the machine is watched, before the run starts
// anything, for other work on its cores.
const busySample = 2 * time.Second

// busyLimit: cores busier than this before the run mean other work was
// running, and the run's figures are pessimistic.
const busyLimit = 0.25

func run(c config) error {
	if err := DefaultMix.Validate(); err != nil {
		return err
	}
	// Interrupted, the run ends its designers, removes what it made (its
	// database, NATS stream, instances and balancer) and reports nothing;
	// a second signal quits at once.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		log.Print("interrupted: ending the run and removing what it made (again to quit at once)")
		signal.Stop(sigs) // the next signal ends the program at once
		cancel()
	}()
	work, err := os.MkdirTemp("", "draindesign-load-")
	if err != nil {
		return err
	}
	suffix := randHex(4)
	r := &rig{c: c, work: work, dbName: "load_" + suffix, stream: "LOAD_" + strings.ToUpper(suffix)}
	defer r.teardown()
	r.busyBefore = -1
	if busy, err := BusyShare(busySample); err == nil {
		r.busyBefore = busy
	}
	began := time.Now()
	log.Printf("work directory %s, database %s, NATS stream %s", work, r.dbName, r.stream)
	if err := r.setup(ctx); err != nil {
		return err
	}
	log.Printf("set up in %s", time.Since(began).Round(time.Millisecond))
	res, err := r.load(ctx)
	if ctx.Err() != nil {
		return errors.New("interrupted: nothing reported")
	}
	if err != nil {
		return err
	}
	res.setupTook = time.Since(began) - res.loadTook - res.verifyTook
	return r.report(res)
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (r *rig) setup(ctx context.Context) error {
	if _, err := os.Stat(r.c.bin); err != nil {
		return fmt.Errorf("the binary %s: %w (make build)", r.c.bin, err)
	}
	if err := r.createDatabase(ctx); err != nil {
		return err
	}
	if err := postgres.Migrate(ctx, r.dbURL); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := r.addUsers(ctx); err != nil {
		return err
	}
	natsHost, err := hostOf(r.c.natsURL)
	if err != nil {
		return err
	}
	if r.natProxy, err = NewProxy(natsHost); err != nil {
		return err
	}
	for _, name := range []string{"app1", "app2"} {
		port, err := freePort()
		if err != nil {
			return err
		}
		mport, err := freePort()
		if err != nil {
			return err
		}
		in := &instance{name: name, addr: "127.0.0.1:" + port, metricsAddr: "127.0.0.1:" + mport}
		r.insts = append(r.insts, in)
	}
	lbPort, err := freePort()
	if err != nil {
		return err
	}
	r.lbAddr = "127.0.0.1:" + lbPort
	for _, in := range r.insts {
		if err := r.startInstance(ctx, in); err != nil {
			return err
		}
	}
	return r.startBalancer(ctx)
}

func hostOf(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	if u.Port() == "" {
		return "", fmt.Errorf("%s names no port", raw)
	}
	return u.Host, nil
}

func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, err := net.SplitHostPort(ln.Addr().String())
	return port, err
}

func (r *rig) createDatabase(ctx context.Context) error {
	admin, err := pgx.Connect(ctx, r.c.pgServer)
	if err != nil {
		return fmt.Errorf("PostgreSQL at %s: %w", r.c.pgServer, err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{r.dbName}.Sanitize()); err != nil {
		return fmt.Errorf("create database %s: %w", r.dbName, err)
	}
	u, err := url.Parse(r.c.pgServer)
	if err != nil {
		return err
	}
	u.Path = "/" + r.dbName
	r.dbURL = u.String()
	return nil
}

// addUsers creates the designers' accounts as `draindesign users add`
// does, in this process with four workers (a process per account would
// spend most of the time starting up).
func (r *rig) addUsers(ctx context.Context) error {
	began := time.Now()
	store, db, err := app.OpenStores(ctx, app.Options{DatabaseURL: r.dbURL, DataDir: r.work})
	if err != nil {
		return err
	}
	defer store.Close()
	defer db.Close()
	// One password for all, hashed once: argon2id takes 64 MiB and tens of
	// milliseconds a hash, which for hundreds of accounts would be most of
	// the setup. Signing in still verifies it on the server every time.
	hash, err := account.HashPassword(password)
	if err != nil {
		return err
	}
	svc := usecase.NewAccounts(usecase.Config{Store: store, HashPassword: func(string) (string, error) { return hash, nil }}, nil, nil)
	names := make(chan int)
	errc := make(chan error, 4)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range names {
				in := account.RegisterInput{
					Username: designerName(i), Email: designerName(i) + "@example.com", Password: password,
					PasswordConfirmation: password, FirstName: "Load", LastName: "Designer", Company: "Load Ltd",
					Country: "GB", Address: "1 High Street", City: "Leeds", Postcode: "LS1 1AA",
				}
				if _, err := svc.AddUser(ctx, usecase.Actor{}, in, account.GroupStandard); err != nil {
					errc <- fmt.Errorf("add %s: %w", in.Username, err)
					return
				}
			}
		})
	}
	var failed error
	for i := 0; i < r.c.users && failed == nil; i++ {
		select {
		case names <- i:
		case failed = <-errc:
		}
	}
	close(names)
	wg.Wait()
	if failed == nil && len(errc) > 0 {
		failed = <-errc
	}
	if failed != nil {
		return failed
	}
	log.Printf("%d designer accounts created in %s", r.c.users, time.Since(began).Round(time.Millisecond))
	return nil
}

func designerName(i int) string { return fmt.Sprintf("designer%03d", i+1) }

func (r *rig) startInstance(ctx context.Context, in *instance) error {
	logf, err := os.OpenFile(filepath.Join(r.work, in.name+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	natsVia := "nats://" + r.natProxy.Addr()
	cmd := exec.Command(r.c.bin, "serve", "--addr", in.addr, "--data-dir", filepath.Join(r.work, "data"))
	cmd.Env = append(os.Environ(), "DATABASE_URL="+r.dbURL, "NATS_URL="+natsVia, "NATS_STREAM="+r.stream,
		"PUBLIC_URL=http://"+r.lbAddr, "TRUSTED_PROXIES=127.0.0.1", "SENTRY_DSN=", "METRICS_ADDR="+in.metricsAddr)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start %s: %w", in.name, err)
	}
	in.cmd, in.done = cmd, make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(in.done)
	}()
	if err := waitReady(ctx, "http://"+in.addr, 60*time.Second, in.done); err != nil {
		return fmt.Errorf("%s: %w (log in %s)", in.name, err, logf.Name())
	}
	log.Printf("%s ready at %s (pid %d)", in.name, in.addr, cmd.Process.Pid)
	if r.procs == "" {
		r.procs = lineWith(logf.Name(), "calculations run ")
	}
	return nil
}

// lineWith is the first line of the file at path that holds s, trimmed
// ("" when none does or the file cannot be read).
func lineWith(path, s string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(data)) {
		if strings.Contains(line, s) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

func waitReady(ctx context.Context, base string, within time.Duration, exited <-chan struct{}) error {
	deadline := time.Now().Add(within)
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/health/ready/", nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-exited:
			return errors.New("exited before it was ready")
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready within %s", within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// haproxyConfig balances over the instances, checking each one's
// readiness every second (an answer may take up to 5 s on a busy
// machine): three failed checks take it out, two good ones bring it back.
// A refused connection (a killed instance) is tried on the other server at
// once. WebSockets are tunnels kept for an hour.
//
// Sticky (roundRobin false), the balancer keeps each designer on the
// instance its first call reached, by a cookie of its own (as the
// deployment docs advise: each instance's caches then hold its designers'
// projects, current, and their tabs hear of their edits within the
// instance); a designer whose instance is out moves to the other. A
// refused connection takes the server out at once (observe layer4) and
// every retry may go to another server (redispatch 1): without them, the
// killed instance's designers kept being sent to it, a second apart, until
// three health checks had failed (SIGKILL gap 3.2 s at the median).
// The cookie lives stickyFor (maxlife): then the designer is balanced
// again, so that an instance that came back after a failure (or a rolling
// restart) gets its share again instead of standing idle while the other
// carries everyone.
func haproxyConfig(listen string, servers []string, roundRobin bool, stickyFor time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, `global
    maxconn 8000

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    option redispatch 1
    retries 2
    # A request sent to an instance that dies before answering (its
    # listening socket took the connection, then the process went) is sent
    # again, to the other, when it is a GET or HEAD (a live stream's
    # upgrade: before this, each broken stream's first reconnection after
    # a SIGKILL could fail with 502); a POST the dying instance may have
    # carried out fails instead (disable-l7-retry below), for the client
    # to decide.
    retry-on conn-failure empty-response

frontend designers
    bind %s
    option forwardfor
    default_backend app

backend app
    balance roundrobin
    http-request disable-l7-retry unless METH_GET
    option httpchk GET /api/health/ready/
    http-check expect status 200
    timeout check 5s
    default-server inter 1s fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down
`, listen)
	if !roundRobin {
		b.WriteString("    cookie DDINSTANCE insert indirect nocache httponly")
		if stickyFor > 0 {
			fmt.Fprintf(&b, " maxlife %dms", stickyFor.Milliseconds())
		}
		b.WriteString("\n")
	}
	for i, s := range servers {
		fmt.Fprintf(&b, "    server app%d %s check", i+1, s)
		if !roundRobin {
			fmt.Fprintf(&b, " cookie app%d", i+1)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (r *rig) startBalancer(ctx context.Context) error {
	var servers []string
	for _, in := range r.insts {
		servers = append(servers, in.addr)
	}
	cfg := filepath.Join(r.work, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(haproxyConfig(r.lbAddr, servers, r.c.roundRobin, r.c.stickyFor)), 0o600); err != nil {
		return err
	}
	logf, err := os.Create(filepath.Join(r.work, "haproxy.log"))
	if err != nil {
		return err
	}
	cmd := exec.Command(r.c.haproxy, "-f", cfg, "-db")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start haproxy (web/scripts/install-haproxy.sh installs it): %w", err)
	}
	r.lb = cmd
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); logf.Close(); close(exited) }()
	if err := waitReady(ctx, "http://"+r.lbAddr, 30*time.Second, exited); err != nil {
		return fmt.Errorf("haproxy: %w (log in %s)", err, logf.Name())
	}
	// Both servers up: the first check of each must have passed.
	time.Sleep(1200 * time.Millisecond)
	log.Printf("haproxy balancing at %s (pid %d)", r.lbAddr, cmd.Process.Pid)
	return nil
}

func (r *rig) teardown() {
	if r.lb != nil && r.lb.Process != nil {
		_ = r.lb.Process.Signal(syscall.SIGTERM)
	}
	for _, in := range r.insts {
		r.stopInstance(in)
	}
	if r.natProxy != nil {
		r.natProxy.Close()
	}
	if r.c.keep {
		log.Printf("kept: database %s, NATS stream %s, %s", r.dbName, r.stream, r.work)
		return
	}
	if nc, err := nats.Connect(r.c.natsURL, nats.Timeout(5*time.Second)); err == nil {
		if js, err := nc.JetStream(); err == nil {
			if err := js.DeleteStream(r.stream); err != nil && !errors.Is(err, nats.ErrStreamNotFound) {
				log.Printf("delete NATS stream %s: %v", r.stream, err)
			}
		}
		nc.Close()
	}
	if r.dbURL != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if admin, err := pgx.Connect(ctx, r.c.pgServer); err == nil {
			if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{r.dbName}.Sanitize()+" WITH (FORCE)"); err != nil {
				log.Printf("drop database %s: %v", r.dbName, err)
			}
			admin.Close(ctx)
		}
	}
	_ = os.RemoveAll(r.work)
}

func (r *rig) stopInstance(in *instance) {
	if in.cmd == nil || in.cmd.Process == nil {
		return
	}
	select {
	case <-in.done:
		return
	default:
	}
	_ = in.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-in.done:
	case <-time.After(15 * time.Second):
		_ = in.cmd.Process.Kill()
		<-in.done
	}
}

// sortedKeys of a map with string keys.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
