package catalogue

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func cat(t *testing.T) *Catalogue {
	t.Helper()
	return Default()
}

func TestDefaultParsesOnce(t *testing.T) {
	t.Parallel()
	if first, second := Default(), Default(); first != second {
		t.Fatal("Default returned two catalogues")
	}
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if c == Default() {
		t.Fatal("Load should parse afresh")
	}
}

func TestArticleNumbersAndSlugsUnique(t *testing.T) {
	t.Parallel()
	c := cat(t)
	hans := map[string]int{}
	for _, ch := range c.channels {
		hans[ch.HAN]++
	}
	for _, g := range c.gratings {
		for _, v := range g.Variants {
			hans[v.HAN]++
		}
	}
	for _, e := range c.endCaps {
		hans[e.HAN]++
	}
	for _, b := range c.trashBoxes {
		hans[b.HAN]++
	}
	for _, u := range c.accessUnits {
		hans[u.HAN]++
	}
	for _, k := range c.connectors {
		hans[k.HAN]++
	}
	for _, g := range c.gullies {
		hans[g.ExtensionHat.HAN]++
		for _, o := range g.Outlets {
			hans[o.HAN]++
		}
	}
	for h, n := range hans {
		if n != 1 || len(h) != 5 {
			t.Errorf("HAN %q used %d times", h, n)
		}
	}
	if len(hans) < 200 {
		t.Errorf("only %d articles; the range looks truncated", len(hans))
	}
	slugs := map[string]bool{}
	for _, s := range c.systems {
		slugs[s.Slug] = true
	}
	for _, ch := range c.channels {
		if slugs[ch.Slug] {
			t.Errorf("slug %s repeated", ch.Slug)
		}
		slugs[ch.Slug] = true
	}
}

func TestEveryChannelHasGratingAndEndCap(t *testing.T) {
	t.Parallel()
	c := cat(t)
	for _, ch := range c.channels {
		s := c.systemBySlug[ch.System]
		if c.plainEndCap(ch) == nil {
			t.Errorf("%s: no end cap", ch.Slug)
		}
		if ch.InvertDepthUpstreamMM <= 0 || ch.MaxUpstreamWaterDepthMM() <= 0 || ch.MaxDownstreamWaterDepthMM >= ch.InvertDepthDownstreamMM {
			t.Errorf("%s: depths not positive and consistent", ch.Slug)
		}
		for _, l := range ch.LoadingClasses {
			if !s.Offers(l) {
				t.Errorf("%s: loading %s not in system", ch.Slug, l)
			}
			if s.Grated && c.gratingFor(ch, l) == nil {
				t.Errorf("%s: no grating at %s", ch.Slug, l)
			}
		}
	}
}

func TestFallSeriesMonotone(t *testing.T) {
	t.Parallel()
	c := cat(t)
	s, _ := c.System("poly-100")
	fs := s.FallSeries
	if fs == nil || len(fs.Slugs) != 20 || fs.FallPerElementMM != 5 {
		t.Fatalf("poly-100 needs a 20-element series falling 5 mm: %+v", fs)
	}
	prev := 0
	for i, slug := range fs.Slugs {
		ch, err := c.Channel(slug)
		if err != nil {
			t.Fatal(err)
		}
		if ch.LengthMM != 1000 || ch.FallMM() != 5 {
			t.Errorf("%s: length %d fall %d", slug, ch.LengthMM, ch.FallMM())
		}
		if i > 0 && ch.InvertDepthUpstreamMM != prev {
			t.Errorf("%s starts at %d, previous ends at %d", slug, ch.InvertDepthUpstreamMM, prev)
		}
		prev = ch.InvertDepthDownstreamMM
	}
	cont, _ := c.Channel(fs.Continuation)
	if cont.HasBuiltInFall() || cont.InvertDepthUpstreamMM != prev {
		t.Errorf("continuation %s must be constant at %d mm", cont.Slug, prev)
	}
}

func TestManningAndShapes(t *testing.T) {
	t.Parallel()
	c := cat(t)
	want := map[string][2]float64{"poly-100": {0.011, 0.013}, "fibre": {0.011, 0.013}, "super": {0.011, 0.013}, "big-bls": {0.011, 0.013}, "poly-hicap": {0.011, 0.013}, "steel": {0.012, 0.012}}
	kinds := map[ShapeKind]bool{}
	for _, ch := range c.channels {
		r := want[ch.System]
		if ch.ManningN < r[0] || ch.ManningN > r[1] {
			t.Errorf("%s: n %v outside %v", ch.Slug, ch.ManningN, r)
		}
		kinds[ch.Shape.Kind] = true
	}
	for _, k := range []ShapeKind{ShapeRectangular, ShapeU, ShapeSlot} {
		if !kinds[k] {
			t.Errorf("no channel with shape %s", k)
		}
	}
}

// mutate returns the embedded data with one JSON file changed.
func mutate(t *testing.T, file string, change func(v []map[string]any)) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(dataFS, "data", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(dataFS, p)
		if err != nil {
			return err
		}
		if p == file {
			var v []map[string]any
			if err := json.Unmarshal(b, &v); err != nil {
				return err
			}
			change(v)
			if b, err = json.Marshal(v); err != nil {
				return err
			}
		}
		m[p] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func bySlug(v []map[string]any, slug string) map[string]any {
	for _, x := range v {
		if x["slug"] == slug || x["han"] == slug {
			return x
		}
	}
	panic("no " + slug)
}

func TestValidationRejectsBrokenData(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file, want string
		change           func(v []map[string]any)
	}{
		{"duplicate HAN", "data/channels/poly-100.json", "already used",
			func(v []map[string]any) { v[1]["han"] = v[0]["han"] }},
		{"duplicate slug", "data/channels/steel.json", "slug invalid or repeated",
			func(v []map[string]any) { v[1]["slug"] = v[0]["slug"] }},
		{"fall series not monotone", "data/channels/poly-100.json", "previous ends at",
			func(v []map[string]any) {
				ch := bySlug(v, "poly-100-07")
				ch["invert_depth_upstream_mm"], ch["invert_depth_downstream_mm"] = 140.0, 145.0
			}},
		{"negative depth", "data/channels/fibre.json", "invert depths must be positive",
			func(v []map[string]any) { v[0]["invert_depth_upstream_mm"] = -5.0 }},
		{"unknown loading on grating", "data/gratings.json", "loading E600 not offered",
			func(v []map[string]any) { bySlug(v, "fibre-ks-slot")["loading_classes"] = []any{"D400", "E600"} }},
		{"channel loading without grating", "data/gratings.json", "no grating for loading F900",
			func(v []map[string]any) { bySlug(v, "super-slot-iron")["loading_classes"] = []any{"D400", "E600"} }},
		{"super 400 trash box of 0.5 m", "data/trashboxes.json", "the system needs 1000 mm",
			func(v []map[string]any) { bySlug(v, "30741")["length_mm"] = 500.0 }},
		{"unknown excluded country", "data/systems.json", "excluded country",
			func(v []map[string]any) { bySlug(v, "steel")["excluded_countries"] = []any{"XX"} }},
		{"L channel not named L", "data/channels/super.json", "named ... L",
			func(v []map[string]any) { bySlug(v, "super-400-650-l")["name"] = "Super 400 D650" }},
		{"big-bls code mismatch", "data/channels/big-bls.json", "needs \"06\"",
			func(v []map[string]any) { bySlug(v, "big-bls-200-06-350")["code"] = "07" }},
		{"outlet cap deeper than channel rule", "data/endcaps.json", "minimum invert depth above its diameter",
			func(v []map[string]any) { bySlug(v, "10603")["min_invert_depth_mm"] = 100.0 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := load(mutate(t, tc.file, tc.change))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want error containing %q, got %v", tc.want, err)
			}
		})
	}
}

func TestUnknownFieldRejected(t *testing.T) {
	t.Parallel()
	_, err := load(mutate(t, "data/systems.json", func(v []map[string]any) { v[0]["can_stepp"] = true }))
	if err == nil || !strings.Contains(err.Error(), "can_stepp") {
		t.Fatalf("want unknown field error, got %v", err)
	}
}

func asNotFound(t *testing.T, err error) *NotFoundError {
	t.Helper()
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("want *NotFoundError, got %T %v", err, err)
	}
	return nf
}

func asRequest(t *testing.T, err error) *RequestError {
	t.Helper()
	var re *RequestError
	if !errors.As(err, &re) {
		t.Fatalf("want *RequestError, got %T %v", err, err)
	}
	return re
}

func asUnavailable(t *testing.T, err error) *UnavailableError {
	t.Helper()
	var ue *UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("want *UnavailableError, got %T %v", err, err)
	}
	return ue
}
