package main

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// LagWatch samples, every second, how far the furthest read model is
// behind the log: the events after its checkpoint, counted in the run's
// database. "Projections catch up" after a disruption is then a figure,
// and a read model that falls behind under load shows (the relays once
// announced 35 events a second, and every read model ended 15,000 events
// behind without any other sign but slow list reads after the load).
type LagWatch struct {
	url   string
	start time.Time

	mu      sync.Mutex
	conn    *pgx.Conn
	samples []lagSample
}

type lagSample struct {
	at     time.Duration
	behind int64
	name   string // the read model furthest behind
	// each is every read model's count, by name (nil in samples made
	// before it was kept).
	each map[string]int64
}

func NewLagWatch(url string, start time.Time) *LagWatch {
	return &LagWatch{url: url, start: start}
}

// lagQuery is how many events each read model has still to apply,
// furthest behind first.
const lagQuery = `SELECT c.name,
	(SELECT count(*) FROM events e WHERE (e.tx_id, e.seq) > (c.commit_pos::text::xid8, c.seq_pos)) AS behind
	FROM projection_checkpoints c ORDER BY behind DESC, c.name`

// Sample takes one sample; a failure (the database cut off) is skipped,
// and the connection made again next time.
func (w *LagWatch) Sample(ctx context.Context) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn == nil {
		c, err := pgx.Connect(ctx, w.url)
		if err != nil {
			return
		}
		w.conn = c
	}
	qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	s, err := sampleLag(qctx, w.conn)
	if err != nil {
		w.conn.Close(context.Background())
		w.conn = nil
		return
	}
	s.at = time.Since(w.start)
	w.samples = append(w.samples, s)
}

// sampleLag reads every read model's lag; the first row is the furthest.
func sampleLag(ctx context.Context, conn *pgx.Conn) (lagSample, error) {
	rows, err := conn.Query(ctx, lagQuery)
	if err != nil {
		return lagSample{}, err
	}
	defer rows.Close()
	s := lagSample{each: map[string]int64{}}
	for rows.Next() {
		var name string
		var behind int64
		if err := rows.Scan(&name, &behind); err != nil {
			return lagSample{}, err
		}
		if len(s.each) == 0 {
			s.name, s.behind = name, behind
		}
		s.each[name] = behind
	}
	if err := rows.Err(); err != nil {
		return lagSample{}, err
	}
	if len(s.each) == 0 {
		return lagSample{}, errors.New("no read model checkpoints")
	}
	return s, nil
}

// Close ends the watch's connection.
func (w *LagWatch) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn != nil {
		w.conn.Close(context.Background())
		w.conn = nil
	}
}

// LagSummary is the furthest read model's lag over a window.
type LagSummary struct {
	Samples  int
	P50, Max int64
	MaxName  string // which read model was furthest behind at the max
	MaxAt    time.Duration
}

// Summary over [from, to).
func (w *LagWatch) Summary(from, to time.Duration) LagSummary {
	w.mu.Lock()
	defer w.mu.Unlock()
	return lagSummary(w.samples, from, to)
}

func lagSummary(samples []lagSample, from, to time.Duration) LagSummary {
	var out LagSummary
	var behind []int64
	for _, s := range samples {
		if s.at < from || s.at >= to {
			continue
		}
		behind = append(behind, s.behind)
		if len(behind) == 1 || s.behind > out.Max {
			out.Max, out.MaxName, out.MaxAt = s.behind, s.name, s.at
		}
	}
	out.Samples = len(behind)
	if len(behind) > 0 {
		slices.Sort(behind)
		out.P50 = behind[(len(behind)-1)/2]
	}
	return out
}

// ModelLag is one read model's lag over a window.
type ModelLag struct {
	Name     string
	P50, Max int64
}

// EachSummary is every read model's lag over [from, to), by name.
func (w *LagWatch) EachSummary(from, to time.Duration) []ModelLag {
	w.mu.Lock()
	defer w.mu.Unlock()
	return eachSummary(w.samples, from, to)
}

func eachSummary(samples []lagSample, from, to time.Duration) []ModelLag {
	byName := map[string][]int64{}
	for _, s := range samples {
		if s.at < from || s.at >= to {
			continue
		}
		for name, behind := range s.each {
			byName[name] = append(byName[name], behind)
		}
	}
	out := make([]ModelLag, 0, len(byName))
	for name, behind := range byName {
		slices.Sort(behind)
		out = append(out, ModelLag{Name: name, P50: behind[(len(behind)-1)/2], Max: behind[len(behind)-1]})
	}
	slices.SortFunc(out, func(a, b ModelLag) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// CaughtUp is when, at or after t, a sample first found every read model
// at the log's head; false if none did.
func (w *LagWatch) CaughtUp(t time.Duration) (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return caughtUp(w.samples, t)
}

func caughtUp(samples []lagSample, t time.Duration) (time.Duration, bool) {
	for _, s := range samples {
		if s.at >= t && s.behind == 0 {
			return s.at, true
		}
	}
	return 0, false
}

// PerSecond is the furthest lag sampled in each second of the run (NaN
// where none was taken).
func (w *LagWatch) PerSecond(n int) []float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]float64, n)
	for i := range out {
		out[i] = nan()
	}
	for _, s := range w.samples {
		if sec := int(s.at / time.Second); sec >= 0 && sec < n && (math.IsNaN(out[sec]) || float64(s.behind) > out[sec]) {
			out[sec] = float64(s.behind)
		}
	}
	return out
}
