package markdown

import (
	"strings"
	"testing"
)

func TestHTML(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src   string
		has, hasNot []string
	}{
		{"heading and list", "# Design method\n\n- one\n- two\n", []string{"<h1>Design method</h1>", "<li>one</li>"}, nil},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |\n", []string{"<table>", "<td>1</td>"}, nil},
		{"raw html left out", "Hi <script>alert(1)</script> <img src=x onerror=alert(1)>", []string{"raw HTML omitted"}, []string{"<script", "onerror"}},
		{"javascript link dropped", "[click](javascript:alert(1))", []string{"<a href=\"\">click</a>"}, []string{"javascript:"}},
		{"ordinary link kept", "[docs](https://example.com/a)", []string{`<a href="https://example.com/a">docs</a>`}, nil},
	} {
		got, err := HTML(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range tc.has {
			if !strings.Contains(got, s) {
				t.Errorf("%s: %q lacks %q", tc.name, got, s)
			}
		}
		for _, s := range tc.hasNot {
			if strings.Contains(got, s) {
				t.Errorf("%s: %q has %q", tc.name, got, s)
			}
		}
	}
}
