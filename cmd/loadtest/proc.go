package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's times; 100 on
// every Linux architecture this runs on.
const clockTicks = 100

// ParseRSSKiB reads VmRSS (kB) from the text of /proc/<pid>/status.
func ParseRSSKiB(status string) (int64, error) {
	sc := bufio.NewScanner(strings.NewReader(status))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "VmRSS:") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, "VmRSS:"))
		if len(f) == 0 {
			break
		}
		return strconv.ParseInt(f[0], 10, 64)
	}
	return 0, fmt.Errorf("no VmRSS line")
}

// procSample is one reading of a process.
type procSample struct {
	at       time.Duration
	cpuTicks int64
	rssKiB   int64
}

// ProcWatch samples processes' CPU time and resident memory every second.
type ProcWatch struct {
	mu      sync.Mutex
	start   time.Time
	samples map[string][]procSample
}

func NewProcWatch(start time.Time) *ProcWatch {
	return &ProcWatch{start: start, samples: map[string][]procSample{}}
}

// Sample reads pid under name once; a process that is gone is skipped.
func (w *ProcWatch) Sample(name string, pid int) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return
	}
	st, err := ParseProcStat(string(stat))
	if err != nil {
		return
	}
	rss, err := ParseRSSKiB(string(status))
	if err != nil {
		return
	}
	w.add(name, st.ticks, rss)
}

// add records a reading of series name taken now.
func (w *ProcWatch) add(name string, ticks, rssKiB int64) {
	w.mu.Lock()
	w.samples[name] = append(w.samples[name], procSample{at: time.Since(w.start), cpuTicks: ticks, rssKiB: rssKiB})
	w.mu.Unlock()
}

// Usage is a process's mean CPU (percent of one core) and peak resident
// memory (MiB) over [from, to).
type Usage struct {
	CPUPercent float64
	PeakRSSMiB float64
}

// Usage over the window; zero when fewer than two samples fall in it.
func (w *ProcWatch) Usage(name string, from, to time.Duration) Usage {
	w.mu.Lock()
	defer w.mu.Unlock()
	return usageOf(w.samples[name], from, to)
}

func usageOf(samples []procSample, from, to time.Duration) Usage {
	var first, last *procSample
	var u Usage
	for i := range samples {
		s := &samples[i]
		if s.at < from || s.at >= to {
			continue
		}
		if first == nil {
			first = s
		}
		last = s
		u.PeakRSSMiB = max(u.PeakRSSMiB, float64(s.rssKiB)/1024)
	}
	if first == nil || last == first {
		return u
	}
	secs := (last.at - first.at).Seconds()
	u.CPUPercent = float64(last.cpuTicks-first.cpuTicks) / clockTicks / secs * 100
	return u
}

// CPUPerSecond is the CPU percent of name per second of the run (NaN
// where it was not sampled on both sides).
func (w *ProcWatch) CPUPerSecond(name string, n int) []float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]float64, n)
	for i := range out {
		out[i] = nan()
	}
	s := w.samples[name]
	for i := 1; i < len(s); i++ {
		sec := int(s[i].at / time.Second)
		if sec < n && s[i].cpuTicks >= s[i-1].cpuTicks {
			out[sec] = float64(s[i].cpuTicks-s[i-1].cpuTicks) / clockTicks / (s[i].at - s[i-1].at).Seconds() * 100
		}
	}
	return out
}

// ParseBusyIdle reads the first line of /proc/stat ("cpu  user nice
// system idle iowait irq softirq steal ..."): the ticks all cores spent
// busy and idle (idle and iowait) since boot.
func ParseBusyIdle(stat string) (busy, idle int64, err error) {
	line, _, _ := strings.Cut(stat, "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0, fmt.Errorf("unexpected /proc/stat line %q", line)
	}
	for i, s := range f[1:] {
		if i >= 8 { // guest times are counted in user and nice already
			break
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/stat field %d: %w", i+1, err)
		}
		if i == 3 || i == 4 {
			idle += v
		} else {
			busy += v
		}
	}
	return busy, idle, nil
}

// BusyShare is the share of all cores busy over d (0 to 1), from
// /proc/stat: what the machine was doing before the run started anything
// of its own. Load averages cannot tell: they trail the last minutes.
func BusyShare(d time.Duration) (float64, error) {
	read := func() (int64, int64, error) {
		b, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0, 0, err
		}
		return ParseBusyIdle(string(b))
	}
	b0, i0, err := read()
	if err != nil {
		return 0, err
	}
	time.Sleep(d)
	b1, i1, err := read()
	if err != nil {
		return 0, err
	}
	if total := (b1 - b0) + (i1 - i0); total > 0 {
		return float64(b1-b0) / float64(total), nil
	}
	return 0, nil
}
