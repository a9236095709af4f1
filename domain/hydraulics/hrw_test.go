package hydraulics

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// HRW against GVF over the HRW method's range (500 m, 3.3 %): the
// approximation must stay on the safe side of the full solution (not more
// than 1 % lower) and within 30 % of it. The table is logged for
// docs/hydraulics.md (go test -run TestHRWAgainstGVF -v).
func TestHRWAgainstGVF(t *testing.T) {
	t.Parallel()
	var tab strings.Builder
	tab.WriteString("| L m | S0 % | B mm | n | Q l/s | GVF max mm | HRW max mm | HRW − GVF |\n|---|---|---|---|---|---|---|---|\n")
	worstLow, worstHigh, n := 0.0, 0.0, 0
	for _, l := range []float64{10, 30, 100, 200, 500} {
		for _, s0 := range []float64{0, 0.002, 0.005, 0.01, 0.02, 0.033} {
			for _, b := range []float64{0.1, 0.2, 0.3} {
				for _, nn := range []float64{0.011, 0.014} {
					for _, qf := range []float64{0.3, 1} {
						q := 0.02 * b / 0.1 * qf
						run := rectRun(b, l, s0, 5, nn, q/l, nil)
						g := mustCalc(t, run, Options{SkipMaxDischarge: true})
						run.Method = HRW
						h := mustCalc(t, run, Options{SkipMaxDischarge: true})
						if g.WentSuperCritical || h.WentSuperCritical {
							continue // HRW assumes subcritical flow
						}
						e := (h.MaxDepthMM - g.MaxDepthMM) / g.MaxDepthMM
						worstLow, worstHigh = math.Min(worstLow, e), math.Max(worstHigh, e)
						n++
						if b == 0.2 && nn == 0.011 && qf == 1 {
							fmt.Fprintf(&tab, "| %g | %.1f | %.0f | %.3f | %.0f | %.1f | %.1f | %+.1f %% |\n", l, 100*s0, 1000*b, nn, 1000*q, g.MaxDepthMM, h.MaxDepthMM, 100*e)
						}
					}
				}
			}
		}
	}
	t.Logf("%d subcritical cases: HRW − GVF from %+.1f %% to %+.1f %%\n%s", n, 100*worstLow, 100*worstHigh, tab.String())
	if n < 150 {
		t.Fatalf("only %d subcritical cases compared", n)
	}
	if worstLow < -0.01 || worstHigh > 0.30 {
		t.Fatalf("HRW − GVF spans %+.1f %% to %+.1f %%: outside [−1 %%, +30 %%]", 100*worstLow, 100*worstHigh)
	}
}

func TestHRWLimits(t *testing.T) {
	t.Parallel()
	long := rectRun(0.2, 501, 0, 0.5, 0.011, 1e-5, nil)
	long.Method = HRW
	if _, err := Calculate(long); err == nil || !strings.Contains(err.Error(), "500") {
		t.Fatalf("HRW over 500 m: want a length error, got %v", err)
	}
	steep := rectRun(0.2, 100, 0.034, 0.5, 0.011, 1e-5, nil)
	steep.Method = HRW
	if _, err := Calculate(steep); err == nil || !strings.Contains(err.Error(), "3.3") {
		t.Fatalf("HRW at 3.4 %%: want a slope error, got %v", err)
	}
	steep.Method = GVF
	if _, err := Calculate(steep); err != nil {
		t.Fatalf("GVF at 3.4 %% is valid: %v", err)
	}
}
