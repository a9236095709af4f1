package report

import (
	"strings"
	"testing"

	"draindesign/domain/document/pdf/pdftest"
	"draindesign/domain/project"
)

// The low-freeboard warning follows the project's margin: the 20 m
// concrete example keeps about 230 mm (over 70 % of its 300 mm depth), so
// the default margin (20 mm, 10 %) passes it and a 250 mm margin flags it,
// in the run's document and in the introduction's verdict.
func TestLowFreeboardFollowsTheProjectMargin(t *testing.T) {
	pdftest.Require(t)
	run := calculated(t, "Loading bay", concreteBody)
	if fb := run.Results.Freeboard; fb < 150 || fb > 250 {
		t.Fatalf("the example keeps %v mm of freeboard; the test needs 150 to 250", fb)
	}
	tr := translator(t, "en")
	warning := strings.SplitN(tr("documents.pdf.warning.lowFreeboard", nil), ":", 2)[0]
	verdict := tr("documents.pdf.lowFreeboard", nil)
	strict := 250.0
	for _, tc := range []struct {
		name   string
		margin project.FreeboardMargin
		low    bool
	}{
		{"default margin", project.Settings{}.FreeboardMargin(), false},
		{"250 mm margin", project.Settings{FreeboardMinMM: &strict}.FreeboardMargin(), true},
	} {
		p := sampleProject("en", run)
		p.FreeboardMargin = tc.margin
		for _, k := range []Kind{{Name: Hydraulics, Run: 1}, {Name: Introduction}} {
			out, err := PDF(p, k, tr)
			if err != nil {
				t.Fatal(err)
			}
			path := pdftest.Write(t, out)
			text := allText(t, path, pdftest.ReadInfo(t, path).Pages)
			want := warning + ":"
			if k.Name == Introduction {
				want = verdict
			}
			if got := strings.Contains(text, want); got != tc.low {
				t.Errorf("%s, %s: %q shown = %v, want %v:\n%s", tc.name, k.Name, want, got, tc.low, text)
			}
		}
	}
}
