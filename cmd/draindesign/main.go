// Command draindesign serves the drainage design tool and runs its
// maintenance tasks. Run with no arguments for help.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"draindesign/api/exchangelog"
	"draindesign/api/usecase"
	"draindesign/cmd/draindesign/app"
	"draindesign/domain/account"
	"draindesign/eventstore/postgres"
	"draindesign/projections"
)

const usage = `draindesign: hydraulic design of linear surface drainage

Commands:
  serve [--addr HOST:PORT] [--data-dir DIR]   serve the API and the web client
  migrate                                     apply the PostgreSQL schema (DATABASE_URL)
  projections rebuild [--data-dir DIR]        rebuild every read model from the first event
  backup --to DIR [--data-dir DIR]            copy the store (SQLite, or PostgreSQL by pg_dump) and its secret key into a new directory (safe while serving)
  restore --from DIR [--data-dir DIR]         restore a backup into an empty data directory (and empty DATABASE_URL database) and rebuild the read models
  users add --username U --email E --password P [--group G] [--first F --last L --company C --country ISO]
  calc [FILE|-]                               calculate a run: the body of POST /api/drainage/calculate/ in, its answer out
  calc --server URL [--token T] [FILE|-]      the same, calculated by that server with a personal API token (or DRAINDESIGN_TOKEN)

Environment: DATABASE_URL, NATS_URL, SMTP_URL, PUBLIC_URL, TRUSTED_PROXIES, SECRET_KEY_FILE, DRAINDESIGN_TOKEN (see README).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop() // before os.Exit, which would skip a deferred call
	if err != nil {
		fmt.Fprintln(os.Stderr, "draindesign:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(out, usage)
		return nil
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], out)
	case "migrate":
		url := os.Getenv("DATABASE_URL")
		if url == "" {
			return errors.New("migrate needs DATABASE_URL (the embedded store creates its schema itself)")
		}
		if err := postgres.Migrate(ctx, url); err != nil {
			return err
		}
		fmt.Fprintln(out, "schema up to date")
		return nil
	case "projections":
		if len(args) < 2 || args[1] != "rebuild" {
			return errors.New("usage: draindesign projections rebuild [--data-dir DIR]")
		}
		return rebuild(ctx, args[2:], out)
	case "backup":
		return backup(ctx, args[1:], out)
	case "restore":
		return restore(ctx, args[1:], out)
	case "users":
		if len(args) < 2 || args[1] != "add" {
			return errors.New("usage: draindesign users add --username U --email E --password P [--group G]")
		}
		return addUser(ctx, args[2:], out)
	case "calc":
		return calc(ctx, args[1:], out)
	case "help", "-h", "--help":
		fmt.Fprint(out, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n\n%s", args[0], usage)
}

func serve(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	dataDir := fs.String("data-dir", "./data", "directory for the embedded store, mail and keys")
	metricsAddr := fs.String("metrics-addr", os.Getenv("METRICS_ADDR"), "address for Prometheus metrics (/metrics); empty: none")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts := app.FromEnv(*dataDir)
	heavy, restore := setProcs(os.Getenv("GOMAXPROCS"))
	defer restore()
	opts.Limits.HeavyTotal = heavy
	var err error
	if opts.CalculationNice, err = calculationNice(os.Getenv("CALCULATION_NICE")); err != nil {
		return err
	}
	gogc, restoreGC := setCollector(os.Getenv("GOGC"))
	defer restoreGC()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	if opts.PublicURL, err = publicURL(ln.Addr(), opts.PublicURL); err != nil {
		return err
	}
	a, err := app.Start(ctx, opts)
	if err != nil {
		return err
	}
	defer a.Close()
	srv := a.Server()
	if path := os.Getenv(exchangelog.EnvVar); path != "" {
		// The browser tests' record, held to the OpenAPI document afterwards.
		rec, err := exchangelog.Open(path)
		if err != nil {
			return err
		}
		defer rec.Close()
		srv.Handler = rec.Middleware(srv.Handler)
		fmt.Fprintf(out, "recording every /api exchange to %s (%s: for test runs only, the record holds passwords)\n", path, exchangelog.EnvVar)
	}
	store := "embedded SQLite store in " + *dataDir
	if opts.DatabaseURL != "" {
		store = "PostgreSQL"
	}
	if opts.KurrentDBURL != "" {
		store = "KurrentDB events, read models in " + store
	}
	fmt.Fprintf(out, "draindesign is running at http://%s (%s); links point to %s\n", ln.Addr(), store, opts.PublicURL)
	fmt.Fprintf(out, "calculations run %d at a time%s, on %d Go Ps, collector at GOGC=%s (cmd/draindesign/procs.go, collector.go)\n",
		heavy, niceText(opts.CalculationNice), runtime.GOMAXPROCS(0), gogc)
	if opts.SMTPURL == "" {
		fmt.Fprintf(out, "Sign up in the browser: the confirmation e-mail is written to %s/mail and its link is printed here.\n", *dataDir)
	}
	fmt.Fprintln(out, accountHint(os.Args[0], *dataDir, opts.DatabaseURL != ""))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if *metricsAddr != "" {
		// Metrics get their own listener, kept off the public address, so
		// they need no account and reveal nothing to the internet.
		metrics := &http.Server{Addr: *metricsAddr, Handler: a.MetricsHandler(), ReadHeaderTimeout: 10 * time.Second}
		go func() { errc <- metrics.ListenAndServe() }()
		defer metrics.Close()
		fmt.Fprintf(out, "metrics at http://%s/metrics\n", *metricsAddr)
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}

// publicURL is the configured public address, or on a loopback address
// the listening one: mailed links are never built from a request's Host
// header, so a server reachable from elsewhere must be told its address.
func publicURL(listening net.Addr, configured string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	if tcp, ok := listening.(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		return "http://" + tcp.String(), nil
	}
	return "", fmt.Errorf("PUBLIC_URL is required when listening on %s, beyond loopback: set it to the address people open "+
		"(for example PUBLIC_URL=https://drains.example.com); mailed and shared links are built only from it", listening)
}

func rebuild(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("projections rebuild", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "./data", "directory of the embedded store")
	if err := fs.Parse(args); err != nil {
		return err
	}
	store, db, err := app.OpenStores(ctx, app.FromEnv(*dataDir))
	if err != nil {
		return err
	}
	defer store.Close()
	defer db.Close()
	runner, err := projections.NewRunner(projections.Config{Store: store, DB: db, Projections: app.Projections()})
	if err != nil {
		return err
	}
	if err := runner.Rebuild(ctx); err != nil {
		return err
	}
	pos, err := runner.Position(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "read models rebuilt up to position %s\n", pos)
	return nil
}

func backup(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "./data", "directory of the embedded store")
	to := fs.String("to", "", "new (or empty) directory to write the backup to (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts := app.FromEnv(*dataDir)
	if *to == "" {
		return errors.New("usage: draindesign backup --to DIR [--data-dir DIR]")
	}
	res, err := app.Backup(ctx, opts, *to)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "backed up %s into %s: %s\n", storeName(*dataDir, opts), *to, strings.Join(res.Files, ", "))
	printNotes(out, res.Notes)
	return nil
}

func restore(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "./data", "empty directory to restore the embedded store into")
	from := fs.String("from", "", "directory written by draindesign backup (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts := app.FromEnv(*dataDir)
	if *from == "" {
		return errors.New("usage: draindesign restore --from DIR [--data-dir DIR]")
	}
	res, err := app.Restore(ctx, opts, *from)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "restored %s into %s (%s); read models rebuilt up to position %s\n", *from, storeName(*dataDir, opts), strings.Join(res.Files, ", "), res.Position)
	printNotes(out, res.Notes)
	return nil
}

// storeName names the store backed up or restored.
func storeName(dataDir string, o app.Options) string {
	if o.DatabaseURL != "" {
		return "the PostgreSQL database of DATABASE_URL (files in " + dataDir + ")"
	}
	return dataDir
}

func printNotes(out io.Writer, notes []string) {
	for _, n := range notes {
		fmt.Fprintln(out, "note:", n)
	}
}

func addUser(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("users add", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "./data", "directory of the embedded store")
	in := account.RegisterInput{}
	fs.StringVar(&in.Username, "username", "", "username (required)")
	fs.StringVar(&in.Email, "email", "", "e-mail address (required)")
	fs.StringVar(&in.Password, "password", "", "password, at least 8 characters (required)")
	fs.StringVar(&in.FirstName, "first", "Draindesign", "first name")
	fs.StringVar(&in.LastName, "last", "User", "last name")
	fs.StringVar(&in.Company, "company", "-", "company")
	fs.StringVar(&in.Country, "country", "GB", "country ISO code")
	fs.StringVar(&in.Address, "address", "-", "address")
	fs.StringVar(&in.City, "city", "-", "city")
	fs.StringVar(&in.Postcode, "postcode", "-", "postcode")
	group := fs.String("group", "standard", "permission group: standard, advanced, support, translator, marketing, admin, superadmin")
	if err := fs.Parse(args); err != nil {
		return err
	}
	g, err := account.ParseGroup(*group)
	if err != nil {
		return err
	}
	in.PasswordConfirmation = in.Password
	store, db, err := app.OpenStores(ctx, app.FromEnv(*dataDir))
	if err != nil {
		return err
	}
	defer store.Close()
	defer db.Close()
	svc := usecase.NewAccounts(usecase.Config{Store: store}, nil, nil)
	a, err := svc.AddUser(ctx, usecase.Actor{}, in, g)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "user %s created in group %s (id %s)\n", a.Username, g, a.ID)
	return nil
}

// accountHint is the start-up line telling how to create an account in the
// store this server uses: the same data directory (a hint without it
// would create the user in ./data, not in the running store), or the same
// DATABASE_URL.
func accountHint(binary, dataDir string, postgres bool) string {
	cmd := binary + " users add"
	if postgres {
		return "Or create an account (with the same DATABASE_URL): " + cmd + " --username NAME --email ADDRESS --password PASSWORD"
	}
	return "Or create an account: " + cmd + " --data-dir " + shellQuote(dataDir) + " --username NAME --email ADDRESS --password PASSWORD"
}

// shellQuote quotes a path for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
