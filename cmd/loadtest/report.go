package main

import (
	"fmt"
	"log"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"
)

func readLoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// machine describes the computer: CPU model, cores and memory.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "model name") {
				if _, v, ok := strings.Cut(line, ":"); ok {
					model = strings.TrimSpace(v)
					break
				}
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kib int64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kib); err == nil {
			mem = fmt.Sprintf(", %.0f GiB RAM", float64(kib)/1024/1024)
		}
	}
	hap := ""
	if out, err := exec.Command("haproxy", "-v").Output(); err == nil {
		hap = ", " + strings.SplitN(strings.TrimSpace(string(out)), " - ", 2)[0]
	}
	return fmt.Sprintf("%s, %d cores%s; %s, %s/%s%s", model, runtime.NumCPU(), mem, runtime.Version(), runtime.GOOS, runtime.GOARCH, hap)
}

// window is a span of the run affected by one disruption.
type window struct {
	name     string
	from, to time.Duration
}

// disruptions are the spans during which failures are the disruption's:
// from its start until ten seconds after it ended.
func (r *rig) disruptions(t0 time.Duration) []window {
	var out []window
	add := func(name string, at, lasts time.Duration) {
		if at > 0 && at < r.c.duration {
			out = append(out, window{name, t0 + at, t0 + at + lasts + 10*time.Second})
		}
	}
	add("instance SIGKILL", r.c.killAt, r.c.restartIn)
	add("NATS cut", r.c.natsCutAt, r.c.cutFor)
	add("PostgreSQL cut", r.c.pgCutAt, r.c.cutFor)
	return out
}

// inside names the window at falls in; of overlapping ones, the one that
// began last.
func inside(at time.Duration, ws []window) string {
	name, from := "", time.Duration(-1)
	for _, w := range ws {
		if at >= w.from && at < w.to && w.from > from {
			name, from = w.name, w.from
		}
	}
	return name
}

func ms(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

func (r *rig) report(res *results) error {
	e := res.env
	ws := r.disruptions(res.t0)
	steadySecs := (res.steadyTo - res.steadyFrom).Seconds()
	calcNames := []string{"calculate small", "calculate stepped", "calculate 3000m"}
	var calcs int
	for _, n := range calcNames {
		ok, _ := e.rec.Window(n, res.steadyFrom, res.steadyTo)
		calcs += len(ok)
	}
	calcRate := float64(calcs) / steadySecs
	var allCalcs int
	for _, n := range calcNames {
		ok, _ := e.rec.Window(n, 0, time.Duration(math.MaxInt64))
		allCalcs += len(ok)
	}
	edSteady, _ := e.rec.Window("edit→other tab", res.steadyFrom, res.steadyTo)
	edAll, _ := e.rec.Window("edit→other tab", 0, time.Duration(math.MaxInt64))
	steadyTab, allTab := Summarize(edSteady), Summarize(edAll)

	e.mu.Lock()
	errs := append([]callError(nil), e.errs...)
	gaps := append([]gap(nil), e.gaps...)
	throttled, conflicts, unseen := e.throttled, e.conflicts, e.unseen
	repeated, waitedOut := maps.Clone(e.repeated), maps.Clone(e.waitedOut)
	e.mu.Unlock()
	errByPhase := map[string]int{}
	killCalls := 0                       // calls that failed through the SIGKILL (not the streams it broke)
	kinds := map[string]map[string]int{} // per window, per kind of error
	for _, ce := range errs {
		w := inside(ce.at, ws)
		if w == "" {
			w = "outside disruptions"
		}
		errByPhase[w]++
		if w == "instance SIGKILL" && ce.call != "live" {
			killCalls++
		}
		if kinds[w] == nil {
			kinds[w] = map[string]int{}
		}
		kinds[w][ce.call+": "+errorKind(ce.what)]++
	}
	outside := errByPhase["outside disruptions"]

	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("## Load test (issue 15)\n\n")
	p("`make load` (cmd/loadtest, run %s). Machine: %s. %s Load average (1, 5, 15 min) when the load phase began: %s; when it ended: %s (the run's own processes).\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), machine(), busyBeforeText(r.busyBefore), res.loadAvg, res.loadAvgEnd)
	p("Setup: two instances of bin/draindesign on loopback ports, on a fresh PostgreSQL database and a NATS JetStream "+
		"stream of their own, behind haproxy (%s, readiness checks on /api/health/ready/ every second, 3 failures to take a server out, 2 passes to bring it back). "+
		"The instances reach NATS through a TCP proxy in the load program, which cuts them off for the NATS failure phase; for the PostgreSQL one, every connection to the run's database is ended and new ones are refused (ALLOW_CONNECTIONS false), as a restart would; "+
		"the shared servers are never restarted.%s The load generator runs on the same %d cores. "+
		"%d designers (%d opened their project; started over %s), each: sign in, list projects, create a draft, open it in two tabs (two WebSockets); "+
		"once all have (%.0f s after the first sign-in: password hashing dominates), the load phase begins, in which each designer repeatedly changes the run's inputs, calculates it (mix %.0f %% small 10 to 60 m, %.0f %% stepped 100 to 500 m, %.0f %% 3000 m; recorded in the project), "+
		"saves every %d calculations and pauses %s on average. A 429 (the per-instance limit on calculations at once) is waited out and retried. "+
		"Load phase %s; figures marked steady are from %s to %s into it, before the first disruption.\n\n",
		balancing(r.c.roundRobin, r.c.stickyFor), procsText(r.procs), runtime.NumCPU(), res.designers, res.opened, r.c.ramp, res.t0.Seconds(), DefaultMix.Small, DefaultMix.Stepped, DefaultMix.Long, r.c.saveEvery, r.c.think,
		r.c.duration, (res.steadyFrom - res.t0).Round(time.Second), (res.steadyTo - res.t0).Round(time.Second))

	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**not met**"
	}
	p("| Figure | Target | Result | |\n|---|---|---|---|\n")
	p("| Mixed calculations/s, two instances (steady) | ≥ 500 | %.0f | %s |\n", calcRate, met(calcRate >= 500))
	p("| p99 edit → other tab (steady) | < 100 ms | %s ms (p50 %s, p95 %s; %d edits) | %s |\n", ms(steadyTab.P99), ms(steadyTab.P50), ms(steadyTab.P95), steadyTab.Count, met(steadyTab.Count > 0 && steadyTab.P99 < 100*time.Millisecond))
	p("| p99 edit → other tab (whole run, with the disruptions) | | %s ms (max %s; %d edits) | |\n", ms(allTab.P99), ms(allTab.Max), allTab.Count)
	p("| Errors outside the disruptions | 0 | %d | %s |\n", outside, met(outside == 0))
	if r.c.killAt > 0 && r.c.killAt < r.c.duration {
		p("| Calls that failed through the instance SIGKILL (the live streams it broke: Disruptions, below) | 0 | %d | %s |\n", killCalls, met(killCalls == 0))
	}
	p("| Acknowledged writes lost (SIGKILL, NATS cut, PostgreSQL cut) | 0 | %d of %d (%d saves, the rest edits) | %s |\n", len(res.lost), res.acked, res.savesChecked, met(len(res.lost) == 0))
	p("| Edits the other tab never showed | 0 | %d | %s |\n", unseen, met(unseen == 0))
	p("| Saved projects not in their owner's list after %s | 0 | %d | %s |\n", res.catchUp.Round(100*time.Millisecond), res.notCaught, met(res.notCaught == 0))
	p("\nWhole run: %d calculations (%.0f/s over %s), %d throttled attempts (429, retried), %d save conflicts (409, retried on the newer version), %s; %s.\n\n",
		allCalcs, float64(allCalcs)/r.c.duration.Seconds(), r.c.duration, throttled, conflicts, repeatedText(repeated), waitedText(waitedOut))
	p("%s\n\n", lagSentence(res))

	if r.c.chart != "" {
		rel, err := filepath.Rel(filepath.Dir(r.c.doc), r.c.chart)
		if err != nil || r.c.doc == "" {
			rel = r.c.chart
		}
		p("![Load test: calculations per second, p99 latencies, CPU per instance and the read models' lag over the run](%s)\n\n", filepath.ToSlash(rel))
	}

	p("Latency per call (steady window; through haproxy):\n\n| Call | Count | p50 ms | p95 ms | p99 ms | max ms |\n|---|---|---|---|---|---|\n")
	for _, n := range e.rec.Names() {
		ok, _ := e.rec.Window(n, res.steadyFrom, res.steadyTo)
		if len(ok) == 0 {
			ok, _ = e.rec.Window(n, 0, time.Duration(math.MaxInt64))
			n += " (whole run)"
		}
		s := Summarize(ok)
		p("| %s | %d | %s | %s | %s | %s |\n", n, s.Count, ms(s.P50), ms(s.P95), ms(s.P99), ms(s.Max))
	}

	p("\nDisruptions: what the designers saw. A gap runs from a designer's first failed call (or broken live stream) to its next success; errors are failed calls and stream breaks within the disruption and the 10 s after it.\n\n")
	p("| Disruption | Errors | Designers with a call gap | Call gap p50 / max ms | Live streams broken | Live gap p50 / max ms | Read models behind, max events |\n|---|---|---|---|---|---|---|\n")
	for _, w := range ws {
		var callGaps, liveGaps []time.Duration
		for _, g := range gaps {
			if inside(g.at, ws) != w.name {
				continue
			}
			if g.what == "live" {
				liveGaps = append(liveGaps, g.took)
			} else {
				callGaps = append(callGaps, g.took)
			}
		}
		cg, lg := Summarize(callGaps), Summarize(liveGaps)
		lag := res.lag.Summary(w.from, w.to)
		p("| %s at %s (%s) | %d | %d | %s / %s | %d | %s / %s | %d |\n", w.name, (w.from - res.t0).Round(time.Second), r.describe(w.name), errByPhase[w.name], cg.Count, ms(cg.P50), ms(cg.Max), lg.Count, ms(lg.P50), ms(lg.Max), lag.Max)
	}
	for _, w := range append([]window{{name: "outside disruptions"}}, ws...) {
		if len(kinds[w.name]) == 0 {
			continue
		}
		title := "during " + w.name
		if w.from == 0 && w.to == 0 {
			title = "outside the disruptions"
		}
		p("\nErrors %s:\n\n", title)
		for _, k := range topKinds(kinds[w.name], 6) {
			p("- %d × %s\n", kinds[w.name][k], k)
		}
	}
	if len(res.lost) > 0 {
		p("\nLost writes (first 20):\n\n")
		for i, l := range res.lost {
			if i == 20 {
				break
			}
			p("- %s v%d %s: %s\n", l.Ack.Project, l.Ack.Version, l.Ack.Kind, l.Reason)
		}
	}

	p("\nCPU (percent of one core) and resident memory per instance, and of the balancer and the load generator on the same cores:\n\n| Instance | CPU steady | CPU whole life | Peak RSS MiB |\n|---|---|---|---|\n")
	for _, name := range append(append([]string(nil), res.instances...), res.others...) {
		st := res.procs.Usage(name, res.steadyFrom, res.steadyTo)
		all := res.procs.Usage(name, 0, time.Duration(math.MaxInt64))
		steady := fmt.Sprintf("%.0f %%", st.CPUPercent)
		if st.CPUPercent == 0 {
			steady = "–"
		}
		p("| %s | %s | %.0f %% | %.0f |\n", name, steady, all.CPUPercent, all.PeakRSSMiB)
	}
	if budget, ok := res.budget(calcRate); ok {
		p("\nWhere the machine's CPU went while the designers worked (steady window; percent of one core), and what each calculation cost it:\n\n%s", budget.Markdown(500))
	}
	p("\nWhat dominates these figures, and what comes next: \"Load test: what the runs showed\" below.\n")

	if r.c.keep {
		r.dumpRaw(errs, gaps)
	}
	text := b.String()
	fmt.Println()
	fmt.Print(text)
	if r.c.chart != "" {
		if err := writeChart(r.c.chart, res, calcNames); err != nil {
			return fmt.Errorf("chart: %w", err)
		}
		log.Printf("chart written to %s", r.c.chart)
	}
	if r.c.doc != "" {
		if err := replaceSection(r.c.doc, "## Load test (issue 15)", text); err != nil {
			return err
		}
		log.Printf("section written to %s", r.c.doc)
	}
	return nil
}

// repeatedText counts the calls sent again because the instance answered
// nothing (SendOptions.repeatable in the web client), per call.
func repeatedText(repeated map[string]int) string {
	total, each := perCall(repeated)
	if total == 0 {
		return "no call sent again after an instance answered nothing"
	}
	return fmt.Sprintf("%d calls sent again after the instance answered nothing, as the web client does for reads, calculations, edits that set values and named saves (%s)", total, each)
}

// waitedText counts the calls sent again after a 503 (the database
// unreachable), per call.
func waitedText(waited map[string]int) string {
	total, each := perCall(waited)
	if total == 0 {
		return "no call waited out a 503"
	}
	return fmt.Sprintf("%d tries answered 503 (the database unreachable) sent again after Retry-After, as the web client does (%s)", total, each)
}

// perCall sums counts and lists them by call name.
func perCall(counts map[string]int) (total int, each string) {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		total += counts[name]
		parts = append(parts, fmt.Sprintf("%d %s", counts[name], name))
	}
	return total, strings.Join(parts, ", ")
}

// lagSentence says how far the read models were behind the log, from the
// samples of the furthest one.
func lagSentence(res *results) string {
	steady := res.lag.Summary(res.steadyFrom, res.steadyTo)
	all := res.lag.Summary(0, time.Duration(math.MaxInt64))
	if all.Samples == 0 {
		return "Read models: no lag sampled."
	}
	out := fmt.Sprintf("Read models (the one furthest behind the log: events after its checkpoint, sampled every second; one that reads none of the events since moves its checkpoint once a second, so a second of events is its usual figure): steady p50 %d, max %d; whole run max %d (%s, %s into the load phase)",
		steady.P50, steady.Max, all.Max, all.MaxName, (all.MaxAt - res.t0).Round(time.Second))
	if at, ok := res.lag.CaughtUp(res.loadEnd); ok {
		out += fmt.Sprintf("; every read model at the log's head %.1f s after the load ended.", (at - res.loadEnd).Seconds())
	} else {
		out += "; not every read model at the log's head within 30 s of the load's end."
	}
	return out + eachLag(res.lag.EachSummary(res.steadyFrom, res.steadyTo))
}

// eachLag lists every read model's steady lag, so that the busy ones are
// not hidden behind one that moves its checkpoint once a second.
func eachLag(each []ModelLag) string {
	if len(each) == 0 {
		return ""
	}
	parts := make([]string, len(each))
	for i, m := range each {
		parts[i] = fmt.Sprintf("%s %d / %d", m.Name, m.P50, m.Max)
	}
	return " Each read model, steady p50 / max events behind: " + strings.Join(parts, ", ") + "."
}

func (r *rig) describe(name string) string {
	switch name {
	case "instance SIGKILL":
		if r.c.restartIn > 0 {
			return fmt.Sprintf("started again %s later", r.c.restartIn)
		}
		return "not restarted"
	}
	return fmt.Sprintf("for %s", r.c.cutFor)
}

// busyBeforeText says how busy the machine was before the run started
// anything (share: 0 to 1; negative: unknown).
func busyBeforeText(share float64) string {
	switch {
	case share < 0:
		return "How busy its cores were before the run is unknown (/proc/stat unreadable)."
	case share > busyLimit:
		return fmt.Sprintf("Before the run started anything its cores were %.0f %% busy (over %s): other work was running on them, so these figures are pessimistic.", 100*share, busySample)
	}
	return fmt.Sprintf("Before the run started anything its cores were %.0f %% busy (over %s).", 100*share, busySample)
}

// replaceSection puts text in place of the section headed heading (up to
// the next heading of the same level), or at the end of the file.
func replaceSection(path, heading, text string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc := string(b)
	i := strings.Index(doc, heading+"\n")
	if i < 0 {
		return os.WriteFile(path, []byte(strings.TrimRight(doc, "\n")+"\n\n"+text), 0o644)
	}
	rest := doc[i+len(heading):]
	end := len(doc)
	if j := strings.Index(rest, "\n## "); j >= 0 {
		end = i + len(heading) + j + 1
	}
	out := doc[:i] + text
	if end < len(doc) {
		out += "\n" + doc[end:]
	}
	return os.WriteFile(path, []byte(out), 0o644)
}

// seriesPoints drops the NaN seconds of a per-second series.
func seriesPoints(ys []float64) [][2]float64 {
	var out [][2]float64
	for i, y := range ys {
		if !math.IsNaN(y) && !math.IsInf(y, 0) {
			out = append(out, [2]float64{float64(i) + 0.5, y})
		}
	}
	return out
}

// errorKind shortens an error to what it says, without the addresses and
// ids that make each one different.
func errorKind(what string) string {
	what = strings.ReplaceAll(what, "\n", " ")
	for _, marker := range []string{"read: connection reset", "connection refused", "EOF", "No server is available", "Service Unavailable",
		"Bad Gateway", "Gateway Timeout", "timeout", "Server error", "stream broken", "bad handshake"} {
		if strings.Contains(what, marker) {
			if i := strings.Index(what, ":"); strings.HasPrefix(what, "status ") && i > 0 {
				return what[:i] + " (" + marker + ")"
			}
			return marker
		}
	}
	if len(what) > 100 {
		what = what[:100] + "…"
	}
	return what
}

// topKinds are the n most frequent keys of counts, most frequent first.
func topKinds(counts map[string]int, n int) []string {
	keys := sortedKeys(counts)
	sort.SliceStable(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	if len(keys) > n {
		keys = keys[:n]
	}
	return keys
}

// dumpRaw writes every error and gap into the kept work directory, for a
// closer look after a run with -keep.
func (r *rig) dumpRaw(errs []callError, gaps []gap) {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "%.3f\terror\t%s\t%s\n", e.at.Seconds(), e.call, strings.ReplaceAll(e.what, "\n", " "))
	}
	for _, g := range gaps {
		fmt.Fprintf(&b, "%.3f\tgap\t%s\t%.3f\n", g.at.Seconds(), g.what, g.took.Seconds())
	}
	path := filepath.Join(r.work, "raw.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		log.Printf("raw data: %v", err)
		return
	}
	log.Printf("raw errors and gaps in %s", path)
}

// balancing words the balancer's policy for the report.
func balancing(roundRobin bool, stickyFor time.Duration) string {
	if roundRobin {
		return "round robin: each call to either instance"
	}
	if stickyFor > 0 {
		return fmt.Sprintf("sticky: each designer kept on the instance its first call reached, by a cookie of the balancer's, moved at once when that instance is out, and balanced again when the cookie is %s old, so that designers spread again over an instance that came back (within a shorter run, those moved by the SIGKILL stay where they went)", stickyFor)
	}
	return "sticky: each designer kept on the instance its first call reached, by a cookie of the balancer's, and moved only when that instance is out"
}

// procsText says how each instance runs its calculations, from the line
// serve prints ("calculations run 2 at a time, on 4 Go Ps (…)").
func procsText(said string) string {
	said, _, _ = strings.Cut(said, " (")
	if said == "" {
		return ""
	}
	return " In each instance " + said + "."
}

// budget shares the machine's CPU over the steady window among the
// instances (together), the run's other processes and the shared servers;
// false when the machine was not sampled.
func (res *results) budget(calcRate float64) (Budget, bool) {
	usage := func(name string) float64 { return res.procs.Usage(name, res.steadyFrom, res.steadyTo).CPUPercent }
	machine := usage(seriesMachine)
	if machine == 0 {
		return Budget{}, false
	}
	var instances float64
	for _, name := range res.instances {
		instances += usage(name)
	}
	parts := []part{{fmt.Sprintf("the instances (%d)", countSteady(res, usage)), instances}}
	for _, name := range res.others {
		parts = append(parts, part{name, usage(name)})
	}
	for _, s := range sharedServers {
		parts = append(parts, part{s.series, usage(s.series)})
	}
	return NewBudget(parts, machine, runtime.NumCPU(), calcRate, "load generator"), true
}

// countSteady is how many instances ran in the steady window.
func countSteady(res *results, usage func(string) float64) int {
	n := 0
	for _, name := range res.instances {
		if usage(name) > 0 {
			n++
		}
	}
	return n
}
