package calcaudit_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/calcaudit"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/projectlist"
	"draindesign/projections/userlist"
)

// The sizes the history must stay fast at.
const (
	benchCalculations = 100_000
	benchUsers        = 10_000
	benchProjects     = 20_000
)

var benchSystems = []string{"poly-100", "poly-hicap", "fibre", "super", "big-bls", "steel", "concrete"}

// seedHistory fills a read-model database with benchUsers accounts,
// benchProjects projects and benchCalculations calculations over a year,
// one a little over five minutes after the other: every 25th failed, every
// 10th flooded, every 7th super-critical.
func seedHistory(b *testing.B) (*projections.DB, time.Time) {
	db, err := projections.OpenSQLite(filepath.Join(b.TempDir(), "readmodels.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	step := 365 * 24 * time.Hour / benchCalculations
	var seq uint64
	enc := testkit.Encode(b)
	emit := func(yield func(eventstore.Event), stream, author string, at time.Time, version int64, e testkit.Encoded) {
		seq++
		yield(eventstore.Event{ID: fmt.Sprintf("e%07d", seq), Stream: stream, Version: version, Type: e.Type, Schema: e.Schema, Data: e.Data,
			Position: eventstore.Position{Commit: seq, Seq: seq}, Metadata: eventstore.Metadata{Author: author, Time: at}})
	}
	ps := []projections.Projection{calcaudit.Projection{}, userlist.Projection{}, projectlist.Projection{}}
	testkit.Seed(b, db, ps, func(yield func(eventstore.Event)) {
		for i := range benchUsers {
			id := fmt.Sprintf("u%05d", i)
			emit(yield, account.Stream(id), id, start, 1, enc(account.Encode(account.Registered{UserID: id,
				Username: fmt.Sprintf("user%05d", i), Country: "GB", Group: account.GroupStandard, At: start})))
		}
		for p := range benchProjects {
			pid, owner := fmt.Sprintf("p%05d", p), fmt.Sprintf("u%05d", p%benchUsers)
			stream := project.Stream(pid)
			emit(yield, stream, owner, start, 1, enc(project.Encode(project.Created{ProjectID: pid, Owner: owner, Country: "GB", At: start})))
			emit(yield, stream, owner, start, 2, enc(project.Encode(project.DetailsChanged{Details: project.Details{Name: fmt.Sprintf("Yard %05d", p)}})))
			emit(yield, stream, owner, start, 3, enc(project.Encode(project.RunAdded{RunID: pid + "-r", Name: "Run 1"})))
		}
		for c := range benchCalculations {
			p := c % benchProjects
			pid, owner := fmt.Sprintf("p%05d", p), fmt.Sprintf("u%05d", p%benchUsers)
			at := start.Add(time.Duration(c) * step)
			in := inputs(benchSystems[c%len(benchSystems)], float64(10+c%90), float64(100+c%5000), 50)
			var e testkit.Encoded
			switch {
			case c%25 == 3:
				e = enc(project.Encode(project.CalculationFailed{RunID: pid + "-r", Inputs: in,
					Error: "No channel could be designed to fulfil the current parameters", DurationMS: 4}))
			default:
				e = enc(project.Encode(project.RunCalculated{RunID: pid + "-r", Inputs: in, DurationMS: 1.5, Summary: project.Summary{
					"overflowed": raw(c%10 == 1), "went_super_critical": raw(c%7 == 2), "flow": raw(float64(c%900) / 10)}}))
			}
			emit(yield, project.Stream(pid), owner, at, int64(4+c/benchProjects), e)
		}
	})
	return db, start
}

// BenchmarkCalculationPage is one page of the staff calculation history
// over 100,000 calculations, 10,000 users and 20,000 projects: the target
// is under 100 ms (docs/performance.md).
func BenchmarkCalculationPage(b *testing.B) {
	db, start := seedHistory(b)
	ctx := context.Background()
	month := calcaudit.Filter{From: start.AddDate(0, 6, 0), To: start.AddDate(0, 7, 0)}
	for _, bc := range []struct {
		name          string
		filter        calcaudit.Filter
		offset, limit int
		min           int
	}{
		{name: "first-page", limit: 50, min: 50},
		{name: "deep-page", offset: 50_000, limit: 50, min: 50},
		{name: "user-by-name", filter: calcaudit.Filter{User: "user04242"}, limit: 50, min: 10},
		{name: "user-failed", filter: calcaudit.Filter{User: "user00003", Outcome: calcaudit.Failed}, limit: 50, min: 1},
		{name: "project-name", filter: calcaudit.Filter{Project: "yard 1234"}, limit: 50, min: 5},
		{name: "system", filter: calcaudit.Filter{System: "steel"}, offset: 5_000, limit: 50, min: 50},
		{name: "outcome-flooded", filter: calcaudit.Filter{Outcome: calcaudit.Flooded}, limit: 50, min: 50},
		{name: "month", filter: month, limit: 50, min: 50},
		{name: "month-system-failed", filter: calcaudit.Filter{From: month.From, To: month.To, System: "fibre", Outcome: calcaudit.Failed}, limit: 50, min: 1},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				p, err := calcaudit.List(ctx, db, bc.filter, bc.offset, bc.limit, false)
				if err != nil {
					b.Fatal(err)
				}
				if len(p.Rows) < bc.min {
					b.Fatalf("%d rows, want at least %d", len(p.Rows), bc.min)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/op")
		})
	}
	b.Run("counts-today", func(b *testing.B) {
		for b.Loop() {
			if _, err := calcaudit.CountSince(ctx, db, start.AddDate(0, 11, 30)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/op")
	})
	b.Run("systems", func(b *testing.B) {
		for b.Loop() {
			if s, err := calcaudit.Systems(ctx, db); err != nil || len(s) != len(benchSystems) {
				b.Fatal(s, err)
			}
		}
		b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/op")
	})
}
