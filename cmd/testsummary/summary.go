package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// skip is a skipped test and the reason its output gave.
type skip struct {
	pkg, test, reason string
}

type summary struct {
	failed  bool
	skipped []skip
}

// summarize copies the run's essentials to w as they arrive and lists the
// skipped tests at the end. A line that is not JSON (a build error, which
// go test prints as text) is passed through and counts as a failure.
func summarize(r io.Reader, w io.Writer) (summary, error) {
	var s summary
	output := map[string][]string{} // package/test -> its output lines
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			fmt.Fprintln(w, string(line))
			s.failed = s.failed || strings.Contains(string(line), "FAIL") || strings.Contains(string(line), "error")
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "output":
			output[key] = append(output[key], e.Output)
		case "skip":
			if e.Test != "" {
				s.skipped = append(s.skipped, skip{e.Package, e.Test, reason(output[key])})
			} else {
				fmt.Fprintf(w, "?   \t%s\t[no test files]\n", e.Package)
			}
			delete(output, key)
		case "pass":
			if e.Test == "" {
				fmt.Fprintf(w, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
			}
			delete(output, key)
		case "fail":
			s.failed = true
			if e.Test != "" {
				fmt.Fprint(w, strings.Join(output[key], ""))
			} else {
				fmt.Fprint(w, strings.Join(output[key], ""))
				fmt.Fprintf(w, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
			}
			delete(output, key)
		}
	}
	if err := sc.Err(); err != nil {
		return s, fmt.Errorf("read go test -json: %w", err)
	}
	writeSkips(w, s.skipped)
	return s, nil
}

// reason is the skip message among a test's output lines: the line go test
// prints under "--- SKIP", without its file:line prefix.
func reason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		if _, after, ok := strings.Cut(l, ".go:"); ok {
			if _, msg, ok := strings.Cut(after, ": "); ok {
				return msg
			}
		}
		return l
	}
	return "no reason given"
}

func writeSkips(w io.Writer, skips []skip) {
	if len(skips) == 0 {
		fmt.Fprintln(w, "\nNo test skipped.")
		return
	}
	sort.Slice(skips, func(i, j int) bool {
		return skips[i].pkg+skips[i].test < skips[j].pkg+skips[j].test
	})
	fmt.Fprintf(w, "\n%d tests skipped (CI=true makes the service suites fail instead):\n", len(skips))
	for _, s := range skips {
		fmt.Fprintf(w, "  SKIP %s %s: %s\n", s.pkg, s.test, s.reason)
	}
}
