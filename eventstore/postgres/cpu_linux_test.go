//go:build linux

package postgres_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"draindesign/eventstore"
	"draindesign/eventstore/pgtest"
)

// BenchmarkReadAllCPU reads a log of 20,000 events in pages of 1,000 on
// one connection and reports the CPU time per page of this process and,
// when the server runs on this machine, of its backend: on a shared machine
// these move far less with the load than events/s do
// (docs/performance.md, "Event store targets (issue 15)").
func BenchmarkReadAllCPU(b *testing.B) {
	const app = "readall-cpu-bench"
	u, err := url.Parse(pgtest.NewDatabase(b))
	if err != nil || u.Scheme == "" {
		b.Skipf("DATABASE_URL is not a URL (%v)", err)
	}
	q := u.Query()
	q.Set("pool_max_conns", "1")
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	s := open(b, u.String())
	defer s.Close()
	ctx := b.Context()
	fillLog(b, s, 20_000)

	// The log is read on the store's pool of log readers, which connects
	// on first use: one read first, so that its backend is there to find.
	if _, err := s.ReadAll(ctx, eventstore.Position{}, 1); err != nil {
		b.Fatal(err)
	}
	backend := backendRunTime(ctx, b, u.String(), app)
	const page = 1000
	var after eventstore.Position
	read, pages := 0, 0
	client0, server0, start := processCPU(b), backend(), time.Now()
	b.ResetTimer()
	for range b.N {
		evs, err := s.ReadAll(ctx, after, page)
		if err != nil {
			b.Fatal(err)
		}
		read, pages = read+len(evs), pages+1
		after = eventstore.Position{}
		if len(evs) == page {
			after = evs[len(evs)-1].Position
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(read)/time.Since(start).Seconds(), "events/s")
	b.ReportMetric(float64(processCPU(b)-client0)/1e3/float64(pages), "client-cpu-µs/page")
	if server := backend(); server >= 0 {
		b.ReportMetric(float64(server-server0)/1e3/float64(pages), "server-cpu-µs/page")
	}
}

// fillLog appends events in appends of 100 to new streams, as
// eventstoretest.Benchmark does, until the log holds at least n.
func fillLog(b *testing.B, s eventstore.Store, n int) {
	data := []byte(`{"pipe":"P-0042","diameter_mm":300,"slope":0.0125,"length_m":48.5,"material":"PVC","nodes":["MH-12","MH-13"],"note":"benchmark payload"}`)
	for have := 0; have < n; have += 100 {
		evs := make([]eventstore.NewEvent, 100)
		for i := range evs {
			evs[i] = eventstore.NewEvent{ID: uuid.NewString(), Type: "PipeSized", Data: data, Metadata: eventstore.Metadata{
				Author: "bench@example.org", CorrelationID: "c0ffee00-0000-4000-8000-000000000000", Time: time.Now(),
			}}
		}
		if _, err := s.Append(b.Context(), "fill-"+uuid.NewString(), eventstore.NoStream, evs...); err != nil {
			b.Fatal(err)
		}
	}
}

// processCPU is this process's user and system time.
func processCPU(b *testing.B) time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		b.Fatal(err)
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// backendRunTime returns a function giving the run time of the backends
// serving application app (the store's two pools, one connection each),
// summed, from /proc/<pid>/schedstat (nanoseconds, unlike the clock ticks
// of /proc/<pid>/stat), or -1 when it cannot be read: a server on another
// machine or in another PID namespace.
func backendRunTime(ctx context.Context, b *testing.B, databaseURL, app string) func() time.Duration {
	cfg, err := pgxpool.ParseConfig(databaseURL) // which takes the pool_* settings
	if err != nil {
		b.Fatal(err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var pids []int32
	rows, err := conn.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database() AND pid <> pg_backend_pid()`, app)
	if err == nil {
		pids, err = pgx.CollectRows(rows, pgx.RowTo[int32])
	}
	if err != nil {
		b.Fatal(err)
	}
	none := func() time.Duration { return -1 }
	if len(pids) == 0 || len(pids) > 2 {
		b.Logf("%d backends of %s, no server CPU", len(pids), app)
		return none
	}
	read := func() time.Duration {
		var sum time.Duration
		for _, pid := range pids {
			raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid))
			if err != nil {
				return -1
			}
			ns, err := strconv.ParseInt(strings.Fields(string(raw))[0], 10, 64)
			if err != nil {
				return -1
			}
			sum += time.Duration(ns)
		}
		return sum
	}
	if read() < 0 {
		b.Logf("cannot read the backends' /proc/<pid>/schedstat (server not on this machine?), no server CPU")
		return none
	}
	return read
}
