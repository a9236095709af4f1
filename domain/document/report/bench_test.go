package report

import (
	"fmt"
	"testing"
)

// BenchmarkAllFiveRuns makes the "all" PDF of a five-run project; the
// target is under 300 ms (docs/performance.md). The runs are calculated
// once, outside the timing: the server's recalculation is benchmarked in
// domain/design.
func BenchmarkAllFiveRuns(b *testing.B) {
	bodies := []string{concreteBody, polymerBody, concreteBody, polymerBody, floodingBody}
	runs := make([]Run, len(bodies))
	for i, body := range bodies {
		runs[i] = calculated(b, fmt.Sprintf("Run %d", i+1), body)
	}
	p := sampleProject("de", runs...)
	tr := translator(b, "de")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PDF(p, Kind{Name: All}, tr); err != nil {
			b.Fatal(err)
		}
	}
}
