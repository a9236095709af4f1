package app

import (
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"draindesign/domain/account"
)

// threadsAtNice counts this process's threads whose nice value is n
// (proc(5): field 19 of each task's stat).
func threadsAtNice(t *testing.T, n int) int {
	t.Helper()
	stats, err := filepath.Glob("/proc/self/task/*/stat")
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // the thread ended
		}
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if nice, err := strconv.Atoi(fields[19-3]); err == nil && nice == n {
			count++
		}
	}
	return count
}

// With CalculationNice set, the engine runs on threads of that nice value:
// a calculation, a shared calculation, a heavy call such as a rainfall
// look-up and a save that recalculates each leave one such thread, idle
// for the next, and the process's other
// threads keep their priority. (Each case has a value of its own, which no
// other test uses.)
func TestCalculationsRunOnNicedThreads(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread priorities are set on Linux only")
	}
	second := `{"id": "b", "channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "channel_length_m": 30,
		"drainage_area_m2": 200, "rainfall": {"rainfall_mm_per_hr": 50}, "accessories": [{"type": "trash-box", "distance_m": 0}]}`
	run := map[string]any{"name": "Run 1", "channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron", "stepped": false,
		"channel_length_m": 20, "drainage_area_m2": 200, "rainfall": map[string]any{"rainfall_mm_per_hr": 50}, "ground_slope": 0.2}
	cases := []struct {
		name string
		nice int
		call func(u *user)
	}{
		{"calculate", 15, func(u *user) {
			u.must(http.StatusOK, "POST", "/api/drainage/calculate/", exampleCalc, nil)
		}},
		{"calculate shared", 16, func(u *user) {
			u.must(http.StatusOK, "POST", "/api/drainage/calculate_shared/", map[string]any{
				"main": patch(t, exampleCalc, map[string]any{"id": "a", "outflowTrashbox": "b"}), "second": patch(t, second, nil)}, nil)
		}},
		{"rainfall look-up", 14, func(u *user) { // a heavy call of its own
			u.must(http.StatusOK, "POST", "/api/rainfall/findRainStats/",
				`{"latitude": 53.80, "longitude": -1.55, "stormDuration": 30, "returnPeriod": 30, "climateFactor": 0}`, nil)
		}},
		{"save as new", 17, func(u *user) { // its run was never calculated
			u.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"details": map[string]any{"name": "Yard"}, "runs": []any{run}}}, nil)
		}},
	}
	for _, tc := range cases {
		p := start(t, Options{DataDir: t.TempDir(), CalculationNice: tc.nice})
		u := p.staff(t, "nia", account.GroupAdvanced) // the example is an advanced design
		if n := threadsAtNice(t, tc.nice); n != 0 {
			t.Fatalf("%s: %d threads at nice %d before any calculation", tc.name, n, tc.nice)
		}
		tc.call(u)
		tc.call(u)
		if n := threadsAtNice(t, tc.nice); n != 1 {
			t.Errorf("%s: %d threads at nice %d after two calls one after the other, want 1", tc.name, n, tc.nice)
		}
		if n := threadsAtNice(t, 0); n == 0 {
			t.Errorf("%s: no thread left at nice 0", tc.name)
		}
	}
}
