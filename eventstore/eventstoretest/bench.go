package eventstoretest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"draindesign/eventstore"
)

// Baseline writes the rows of one append with plain INSERTs, in one
// transaction, into a bare table shaped like the store's events table: no
// version check, no idempotency, no constraints. It is what the store's
// appends are measured against, in the same run, on the same database.
type Baseline func(ctx context.Context, stream string, firstVersion int64, evs []eventstore.NewEvent) error

// Benchmark measures appends of 1 and 10 events per commit from 1 and 8
// concurrent writers, and reading the global log in pages.
//
// Each writer alternates a store append with the same rows written by raw,
// taking turns at which goes first, so that both meet the same load: on a shared machine, timing them one
// after the other compares moments more than methods. An op is one store
// append plus one raw append; the metrics give each one's mean latency,
// their ratio, and the store's throughput in events/s.
func Benchmark(b *testing.B, s eventstore.Store, raw Baseline) {
	store := func(ctx context.Context, stream string, firstVersion int64, evs []eventstore.NewEvent) error {
		_, err := s.Append(ctx, stream, eventstore.Exactly(firstVersion-1), evs...)
		return err
	}
	for _, events := range []int{1, 10} {
		for _, writers := range []int{1, 8} {
			b.Run(fmt.Sprintf("Append/events=%d/writers=%d", events, writers), func(b *testing.B) {
				benchAppend(b, store, raw, events, writers)
			})
		}
	}
	for _, page := range []int{100, 1000} {
		b.Run(fmt.Sprintf("ReadAll/page=%d", page), func(b *testing.B) { benchReadAll(b, s, page) })
	}
}

var benchData = json.RawMessage(`{"pipe":"P-0042","diameter_mm":300,"slope":0.0125,"length_m":48.5,"material":"PVC","nodes":["MH-12","MH-13"],"note":"benchmark payload"}`)

// benchEvents are n events with IDs as the product makes them (UUIDv7,
// usecase.NewID): ordered by time, so that the store's index of event IDs
// grows at its end. Random (v4) IDs land all over that index, and after
// each checkpoint the first write to each of its pages logs the whole
// page: about twice the WAL per event (docs/performance.md).
func benchEvents(n int) []eventstore.NewEvent {
	evs := make([]eventstore.NewEvent, n)
	now := time.Now()
	for i := range evs {
		evs[i] = eventstore.NewEvent{ID: uuid.Must(uuid.NewV7()).String(), Type: "PipeSized", Data: benchData, Metadata: eventstore.Metadata{
			Author: "bench@example.org", CorrelationID: "c0ffee00-0000-4000-8000-000000000000", Time: now,
		}}
	}
	return evs
}

// benchAppend makes b.N store appends and b.N raw ones of events events
// each, shared among writers goroutines that each append to a stream of
// their own.
func benchAppend(b *testing.B, store, raw Baseline, events, writers int) {
	ctx := context.Background()
	prefix := "bench-" + uuid.NewString() + "-"
	var (
		next                 atomic.Int64
		mu                   sync.Mutex
		storeTimes, rawTimes []time.Duration
		wg                   sync.WaitGroup
	)
	b.ResetTimer()
	for w := range writers {
		wg.Go(func() {
			stream := fmt.Sprintf("%s%d", prefix, w)
			version := int64(1)
			var times [2][]time.Duration // store, raw
			fns := [2]Baseline{store, raw}
			for op := 0; next.Add(1) <= int64(b.N); op++ {
				for k := range 2 {
					// Taking turns at going first, as the first of a pair
					// was seen to pay for waking the writer up.
					m := (k + op) % 2
					evs := benchEvents(events)
					start := time.Now()
					if err := fns[m](ctx, stream, version, evs); err != nil {
						b.Errorf("append to %s: %v", stream, err)
						return
					}
					times[m] = append(times[m], time.Since(start))
				}
				version += int64(events)
			}
			mu.Lock()
			storeTimes, rawTimes = append(storeTimes, times[0]...), append(rawTimes, times[1]...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if b.Failed() {
		return
	}
	storeMean, rawMean := mean(storeTimes), mean(rawTimes)
	b.ReportMetric(storeMean/1e3, "store-µs/append")
	b.ReportMetric(rawMean/1e3, "raw-µs/append")
	b.ReportMetric(storeMean/rawMean, "store/raw")
	// The median ratio as well: on a shared machine a few stalls of other
	// work can sway a mean.
	b.ReportMetric(median(storeTimes)/median(rawTimes), "store/raw-p50")
	// writers appends are under way at any time, each taking storeMean.
	b.ReportMetric(float64(writers*events)/storeMean*1e9, "store-events/s")
}

func mean(ds []time.Duration) float64 {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return float64(sum) / float64(len(ds))
}

func median(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2])
}

// benchReadAll reads the log in pages, from the start again at its end,
// after filling it to at least 20,000 events.
func benchReadAll(b *testing.B, s eventstore.Store, page int) {
	ctx := context.Background()
	const want = 20_000
	have := len(readAllB(b, s))
	for ; have < want; have += 100 {
		if _, err := s.Append(ctx, "fill-"+uuid.NewString(), eventstore.NoStream, benchEvents(100)...); err != nil {
			b.Fatal(err)
		}
	}
	read := 0
	var after eventstore.Position
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		evs, err := s.ReadAll(ctx, after, page)
		if err != nil {
			b.Fatal(err)
		}
		read += len(evs)
		if len(evs) < page {
			after = eventstore.Position{}
		} else {
			after = evs[len(evs)-1].Position
		}
	}
	b.ReportMetric(float64(read)/time.Since(start).Seconds(), "events/s")
}

func readAllB(b *testing.B, s eventstore.Store) []eventstore.Event {
	evs, err := s.ReadAll(context.Background(), eventstore.Position{}, 0)
	if err != nil {
		b.Fatal(err)
	}
	return evs
}
