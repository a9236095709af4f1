package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"draindesign/domain/project"
	"draindesign/eventstore/pgoutage"
	"draindesign/eventstore/postgres"
)

// event is something the run did to the system, for the report and chart.
type event struct {
	at   time.Duration
	what string
}

type results struct {
	env          *env
	procs        *ProcWatch
	events       []event
	seconds      int // length of the load phase in whole seconds
	steadyFrom   time.Duration
	steadyTo     time.Duration
	t0           time.Duration // when the load phase began, after the sign-ins
	designers    int
	opened       int
	lost         []Lost
	acked        int
	savesChecked int
	catchUp      time.Duration // until every saved project showed its last save in its owner's list
	notCaught    int
	loadTook     time.Duration
	verifyTook   time.Duration
	setupTook    time.Duration
	loadAvg      string
	loadAvgEnd   string
	others       []string // process series beside the instances
	instances    []string // names of the process series, in order
	lag          *LagWatch
	loadEnd      time.Duration // when the load phase ended
}

func (r *rig) load(ctx context.Context) (*results, error) {
	loadAvg := readLoadAvg()
	start := time.Now()
	e := &env{base: "http://" + r.lbAddr, rec: NewRecorder(start), mix: DefaultMix, think: r.c.think,
		saveEvery: r.c.saveEvery, start: start, repeated: map[string]int{}, waitedOut: map[string]int{},
		transport: &http.Transport{MaxIdleConns: 2 * r.c.users, MaxIdleConnsPerHost: 2 * r.c.users, IdleConnTimeout: time.Minute}}
	res := &results{env: e, procs: NewProcWatch(start), designers: r.c.users, loadAvg: loadAvg}
	liveCtx, stopLive := context.WithCancel(ctx)
	defer stopLive()

	// Processes sampled every second; the restarted instance is a new series.
	series := map[string]int{}
	var seriesMu sync.Mutex
	setSeries := func(name string, pid int) {
		seriesMu.Lock()
		series[name] = pid
		seriesMu.Unlock()
		res.instances = append(res.instances, name)
	}
	for _, in := range r.insts {
		setSeries(in.name, in.cmd.Process.Pid)
	}
	// The load generator and the balancer share the cores; their use is
	// reported (not charted) beside the instances'.
	series["load generator"] = os.Getpid()
	series["haproxy"] = r.lb.Process.Pid
	res.others = []string{"haproxy", "load generator"}
	samplerDone := everySecond(liveCtx, func() {
		seriesMu.Lock()
		for name, pid := range series {
			res.procs.Sample(name, pid)
		}
		seriesMu.Unlock()
		res.procs.SampleMachine()
	})

	// The read models' lag, sampled beside the processes until they have
	// caught up after the load (or 30 s have passed).
	res.lag = NewLagWatch(r.dbURL, start)
	defer res.lag.Close()
	lagCtx, stopLag := context.WithCancel(ctx)
	defer stopLag()
	lagDone := everySecond(lagCtx, func() { res.lag.Sample(lagCtx) })

	var evMu sync.Mutex
	note := func(what string) {
		evMu.Lock()
		res.events = append(res.events, event{at: time.Since(start), what: what})
		evMu.Unlock()
		log.Printf("t=%5.1fs %s", time.Since(start).Seconds(), what)
	}

	// Sign-in phase: the designers start spread over the ramp; each signs
	// in, creates its draft and opens both tabs, then waits for the rest.
	designers := make([]*designer, r.c.users)
	var wg, opening sync.WaitGroup
	var openedMu sync.Mutex
	begin := make(chan struct{})
	var workCtx context.Context
	opening.Add(len(designers))
	for i := range designers {
		d := newDesigner(e, designerName(i), uint64(i+1))
		designers[i] = d
		delay := r.c.ramp * time.Duration(i) / time.Duration(max(1, r.c.users))
		wg.Go(func() {
			sleep(liveCtx, delay)
			err := d.open(liveCtx)
			opening.Done()
			if err != nil {
				log.Printf("%s could not open a project: %v", d.name, err)
				return
			}
			openedMu.Lock()
			res.opened++
			openedMu.Unlock()
			<-begin
			d.work(workCtx, r.c.count)
		})
	}
	opened := make(chan struct{})
	go func() { opening.Wait(); close(opened) }()
	select {
	case <-opened:
	case <-time.After(r.c.signInLimit):
		log.Printf("not every designer signed in within %s: the load phase starts with those who did", r.c.signInLimit)
	}
	openedMu.Lock()
	note(fmt.Sprintf("load phase begins (%d designers working)", res.opened))
	openedMu.Unlock()
	t0 := time.Since(start)
	res.t0 = t0
	var stopWork context.CancelFunc
	workCtx, stopWork = context.WithTimeout(ctx, r.c.duration)
	defer stopWork()
	close(begin)

	// The disruptions, on the load phase's clock.
	var timeline sync.WaitGroup
	at := func(t time.Duration, f func()) {
		if t <= 0 || t >= r.c.duration {
			return
		}
		timeline.Go(func() {
			sleep(workCtx, t0+t-time.Since(start))
			if workCtx.Err() == nil {
				f()
			}
		})
	}
	if r.c.profile != "" {
		at(5*time.Second, func() { r.profileInstances(workCtx, 20*time.Second) })
	}
	victim := r.insts[len(r.insts)-1]
	at(r.c.killAt, func() {
		_ = victim.cmd.Process.Signal(syscall.SIGKILL)
		<-victim.done
		note("SIGKILL " + victim.name)
		if r.c.restartIn <= 0 {
			return
		}
		sleep(workCtx, r.c.restartIn)
		if workCtx.Err() != nil {
			return
		}
		note("restart " + victim.name)
		if err := r.startInstance(ctx, victim); err != nil {
			log.Printf("restart %s: %v", victim.name, err)
			return
		}
		setSeries(victim.name+" restarted", victim.cmd.Process.Pid)
		note(victim.name + " ready")
	})
	at(r.c.natsCutAt, func() {
		r.natProxy.Cut()
		note("NATS cut")
		sleep(workCtx, r.c.cutFor)
		r.natProxy.Restore()
		note("NATS back")
	})
	at(r.c.pgCutAt, func() {
		// The database is taken away, not the path to it: a TCP proxy in
		// the instances' path did this before, but it sat in every query's
		// path for the whole run, costing every round trip two more hops
		// and the load generator a tenth of a core, on the same cores as
		// the system it measures.
		outage := pgoutage.Outage{Server: r.c.pgServer, Database: r.dbName}
		if err := outage.Cut(ctx); err != nil {
			log.Printf("%v", err)
		}
		note("PostgreSQL cut")
		sleep(workCtx, r.c.cutFor)
		if err := outage.Restore(ctx); err != nil {
			log.Printf("%v", err)
		}
		note("PostgreSQL back")
	})
	<-workCtx.Done()
	wg.Wait()
	timeline.Wait()
	res.loadTook = time.Since(start)
	res.loadEnd = res.loadTook
	res.loadAvgEnd = readLoadAvg()
	res.seconds = int(res.loadTook/time.Second) + 1
	res.steadyFrom = t0 + 5*time.Second
	res.steadyTo = t0 + r.c.duration
	for _, t := range []time.Duration{r.c.killAt, r.c.natsCutAt, r.c.pgCutAt} {
		if t > 0 && t0+t < res.steadyTo {
			res.steadyTo = t0 + t
		}
	}
	note("load ends")

	// The other tabs get a few seconds to show the last edits.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		waiting := 0
		for _, d := range designers {
			if d.tabB != nil {
				waiting += d.tabB.unseen()
			}
		}
		if waiting == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, d := range designers {
		if d.tabB != nil {
			e.unseen += d.tabB.unseen()
		}
	}
	verifyStart := time.Now()
	if err := r.catchUp(ctx, designers, res); err != nil {
		return nil, err
	}
	stopLive()
	<-samplerDone
	for wait := time.Now().Add(30 * time.Second); time.Now().Before(wait); time.Sleep(200 * time.Millisecond) {
		if _, ok := res.lag.CaughtUp(res.loadEnd); ok {
			break
		}
	}
	stopLag()
	<-lagDone
	if err := r.readBack(ctx, res); err != nil {
		return nil, err
	}
	res.verifyTook = time.Since(verifyStart)
	return res, nil
}

// catchUp waits until each designer's list (a read model, through the
// balancer) shows the project under the name of its last acknowledged save.
func (r *rig) catchUp(ctx context.Context, designers []*designer, res *results) error {
	began := time.Now()
	deadline := began.Add(20 * time.Second)
	todo := []*designer{}
	for _, d := range designers {
		if d.lastSavedName != "" {
			todo = append(todo, d)
		}
	}
	for len(todo) > 0 && time.Now().Before(deadline) {
		// The designers look at their lists at once, a few at a time, as
		// people would (one after another, 200 reads took seconds).
		found := make([]bool, len(todo))
		var g errgroup.Group
		g.SetLimit(16)
		for i, d := range todo {
			g.Go(func() error {
				var items []struct {
					ID   string `json:"id"`
					Name string `json:"name"`
				}
				if _, err := d.call(ctx, "projects (read back)", "GET", "/api/drainage/projects/", nil, &items); err != nil {
					return err
				}
				d.listed = "(not listed)"
				for _, it := range items {
					if it.ID == d.project {
						d.listed = it.Name
						found[i] = d.listNames[it.Name]
					}
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		var left []*designer
		for i, d := range todo {
			if !found[i] {
				left = append(left, d)
			}
		}
		todo = left
		if len(todo) > 0 {
			time.Sleep(200 * time.Millisecond)
		}
	}
	res.catchUp = time.Since(began)
	res.notCaught = len(todo)
	for _, d := range todo {
		log.Printf("%s: project %s listed as %q, last acknowledged save %q", d.name, d.project, d.listed, d.lastSavedName)
	}
	return nil
}

// readBack reads every project's stream straight from PostgreSQL and
// checks each acknowledged write against it.
func (r *rig) readBack(ctx context.Context, res *results) error {
	store, err := postgres.Open(ctx, r.dbURL)
	if err != nil {
		return err
	}
	defer store.Close()
	e := res.env
	e.mu.Lock()
	acks := append([]Ack(nil), e.acks...)
	e.mu.Unlock()
	streams := map[string][]StoredEvent{}
	for _, a := range acks {
		if _, ok := streams[a.Project]; ok {
			continue
		}
		var stored []StoredEvent
		for from := int64(1); ; {
			evs, err := store.ReadStream(ctx, project.Stream(a.Project), from, 1000)
			if err != nil {
				return fmt.Errorf("read back %s: %w", a.Project, err)
			}
			for _, ev := range evs {
				stored = append(stored, StoredEvent{Version: ev.Version, Type: ev.Type, Data: ev.Data})
			}
			if len(evs) < 1000 {
				break
			}
			from = evs[len(evs)-1].Version + 1
		}
		streams[a.Project] = stored
	}
	for _, a := range acks {
		if a.Kind == "save" {
			res.savesChecked++
		}
	}
	res.acked = len(acks)
	res.lost = LostWrites(acks, streams)
	return nil
}

// everySecond calls f at once and then every second until ctx ends; the
// channel closes when it has stopped.
func everySecond(ctx context.Context, f func()) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			f()
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return done
}
