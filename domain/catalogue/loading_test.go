package catalogue

import (
	"testing"
)

func TestLoadingLetters(t *testing.T) {
	t.Parallel()
	c := cat(t)
	cases := []struct {
		system, letter, class, code string
	}{
		{"big-bls", "L", "LCN20", "03"},
		{"big-bls", "M", "LCN50", "04"},
		{"big-bls", "N", "LCN70", "06"},
		{"big-bls", "o", "LCN110", "07"},
		{"fibre", "A", "A15", ""},
		{"fibre", "B", "B125", ""},
		{"fibre", "C", "C250", ""},
		{"fibre", "D", "D400", ""},
		{"fibre", "E", "E600", ""},
		{"fibre", "F", "F900", ""},
		{"super", "D", "D400", ""},
		{"poly-hicap", "d", "D400", ""},
	}
	for _, tc := range cases {
		t.Run(tc.system+"/"+tc.letter, func(t *testing.T) {
			t.Parallel()
			s, err := c.System(tc.system)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.LoadingForLetter(tc.letter)
			if err != nil || got != tc.class {
				t.Fatalf("LoadingForLetter(%q) = %q, %v; want %q", tc.letter, got, err, tc.class)
			}
			if code := s.ChannelCode(got); code != tc.code {
				t.Errorf("ChannelCode(%s) = %q, want %q", got, code, tc.code)
			}
			back, err := s.LetterFor(got)
			if err != nil || back != upper(tc.letter) {
				t.Errorf("LetterFor(%s) = %q, %v", got, back, err)
			}
		})
	}
}

func upper(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

func TestLoadingLetterUnknown(t *testing.T) {
	t.Parallel()
	c := cat(t)
	for _, tc := range []struct{ system, letter string }{
		{"big-bls", "A"}, {"big-bls", "F"}, {"poly-100", "D"}, {"super", "C"}, {"fibre", "L"}, {"fibre", ""},
	} {
		s, _ := c.System(tc.system)
		_, err := s.LoadingForLetter(tc.letter)
		nf := asNotFound(t, err)
		if nf.Kind != "loading letter" || nf.In == "" {
			t.Errorf("%s/%s: %v", tc.system, tc.letter, err)
		}
	}
}

func TestResolveLoading(t *testing.T) {
	t.Parallel()
	s, _ := cat(t).System("big-bls")
	for in, want := range map[string]string{"LCN70": "LCN70", "n": "LCN70", " lcn110 ": "LCN110"} { //nolint:gocritic // the spaces are the point: input is trimmed
		if got, err := s.ResolveLoading(in); err != nil || got != want {
			t.Errorf("ResolveLoading(%q) = %q, %v", in, got, err)
		}
	}
	_, err := s.ResolveLoading("F900")
	asNotFound(t, err)
}

func TestFamilyForLoading(t *testing.T) {
	t.Parallel()
	s, _ := cat(t).System("fibre")
	cases := []struct {
		loading, current, want string
	}{
		{"E600", "ks", "standard"}, // E 600 selects the standard family
		{"E600", "", "standard"},
		{"E600", "standard", "standard"},
		{"D400", "ks", "ks"},
		{"F900", "ks", "ks"},
		{"C250", "standard", "standard"},
		{"A15", "", "standard"},
	}
	for _, tc := range cases {
		got, err := s.FamilyFor(tc.loading, tc.current)
		if err != nil || got != tc.want {
			t.Errorf("FamilyFor(%s, %q) = %q, %v; want %q", tc.loading, tc.current, got, err, tc.want)
		}
	}
	poly, _ := cat(t).System("poly-100")
	if f, err := poly.FamilyFor("C250", ""); f != "" || err != nil {
		t.Errorf("poly-100 has no families: %q %v", f, err)
	}
}

func TestBodyHeightAdjustment(t *testing.T) {
	t.Parallel()
	c := cat(t)
	s, _ := c.System("fibre")
	cases := []struct {
		sub, loading string
		ext          int
	}{
		{"10200", "E600", 300},
		{"10200", "F900", 300},
		{"10200", "D400", 200},
		{"10200", "A15", 200},
		{"8200", "F900", 300},
		{"8200", "D400", 200},
		{"10150", "F900", 0},
		{"8300", "F900", 0},
	}
	for _, tc := range cases {
		if got := s.BodyHeightExtensionMM(tc.sub, tc.loading); got != tc.ext {
			t.Errorf("%s at %s: +%d, want +%d", tc.sub, tc.loading, got, tc.ext)
		}
	}
	ch, _ := c.Channel("fibre-standard-200-350-l")
	name, body := s.displayed(ch, "F900")
	if name != "FC 200 Standard D350 +300 L" || body != ch.BodyHeightMM+300 {
		t.Errorf("L channel shown as %q, %d", name, body)
	}
	ch, _ = c.Channel("fibre-ks-200-250")
	if name, body = s.displayed(ch, "C250"); name != "FC 200 KS D250 +200" || body != ch.BodyHeightMM+200 {
		t.Errorf("ks 200 shown as %q, %d", name, body)
	}
}
