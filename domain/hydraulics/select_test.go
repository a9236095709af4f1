package hydraulics

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// catalogueSizes is a family of channel sizes ordered smallest to largest,
// as the catalogue would offer them (widths and depths in m).
func catalogueSizes() []ChannelSize {
	var out []ChannelSize
	for _, wd := range [][2]float64{
		{0.1, 0.08}, {0.1, 0.12}, {0.1, 0.16}, {0.15, 0.15}, {0.15, 0.2},
		{0.15, 0.25}, {0.2, 0.25}, {0.2, 0.3}, {0.3, 0.35}, {0.3, 0.45},
	} {
		out = append(out, ChannelSize{Name: fmt.Sprintf("%.0f/%.0f", 1000*wd[0], 1000*wd[1]), Shape: Rectangular{Width: wd[0]}, N: 0.011, Depth: wd[1]})
	}
	return out
}

func TestSelectSmallestPicksFirstThatDoesNotFlood(t *testing.T) {
	t.Parallel()
	sizes := catalogueSizes()
	cases := []struct {
		name string
		area float64
	}{{"small", 150}, {"medium", 1500}, {"large", 6000}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			lat, _ := UniformInflow(60, c.area, 75, 1)
			lay := Layout{Length: 60, Gradient: 0.005, TopAtHead: 10, Lateral: lat}
			sel, err := SelectSingle(lay, sizes, Options{})
			if err != nil {
				t.Fatal(err)
			}
			i := sel.Sizes[0]
			if sel.Results.Overflowed {
				t.Fatalf("selected %s overflows", sizes[i].Name)
			}
			// Linear scan as the reference.
			want := -1
			for k := range sizes {
				run, _ := lay.runWith(sizes, []float64{0}, []int{k})
				if f, _ := Floods(run, Options{}); !f {
					want = k
					break
				}
			}
			if i != want {
				t.Fatalf("binary search chose %d, linear scan %d", i, want)
			}
		})
	}
}

func TestNoChannelError(t *testing.T) {
	t.Parallel()
	lat, _ := UniformInflow(100, 90000, 200, 1) // 5000 l/s
	lay := Layout{Length: 100, Gradient: 0.005, Lateral: lat}
	_, err := SelectSingle(lay, catalogueSizes(), Options{})
	if !errors.Is(err, ErrNoChannel) {
		t.Fatalf("want ErrNoChannel, got %v", err)
	}
	if err.Error() != "No channel could be designed to fulfil the current parameters" {
		t.Fatalf("message %q", err.Error())
	}
	if _, err := SelectStepped(lay, catalogueSizes(), Options{}); !errors.Is(err, ErrNoChannel) {
		t.Fatalf("stepped: want ErrNoChannel, got %v", err)
	}
}

// A stepped design uses smaller channels upstream, never floods, and is
// never larger at the outlet than the single-size design.
func TestSelectSteppedStepsUpTowardsOutlet(t *testing.T) {
	t.Parallel()
	sizes := catalogueSizes()
	lat, _ := UniformInflow(200, 3000, 75, 1)
	lay := Layout{Length: 200, Gradient: 0.002, TopAtHead: 10, Unit: 1, Lateral: lat}
	single, err := SelectSingle(lay, sizes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sel, err := SelectStepped(lay, sizes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sel.Results.Overflowed {
		t.Fatal("stepped design overflows")
	}
	if len(sel.Sizes) < 2 {
		t.Fatalf("expected a stepped design, got sizes %v", sel.Sizes)
	}
	for k := 1; k < len(sel.Sizes); k++ {
		if sel.Sizes[k] <= sel.Sizes[k-1] {
			t.Fatalf("sizes must grow toward the outlet: %v", sel.Sizes)
		}
	}
	if last := sel.Sizes[len(sel.Sizes)-1]; last > single.Sizes[0] {
		t.Fatalf("outlet size %d larger than the single-size choice %d", last, single.Sizes[0])
	}
	for _, s := range sel.Sections {
		if r := math.Mod(s.Start, 1); r > 1e-9 && r < 1-1e-9 {
			t.Fatalf("step at %g m is not on an element boundary", s.Start)
		}
	}
	if sel.Results.TotalSystemVolume >= single.Results.TotalSystemVolume {
		t.Fatalf("stepped volume %.3f m³ not below single-size %.3f m³", sel.Results.TotalSystemVolume, single.Results.TotalSystemVolume)
	}
	// The floor steps down where the channel deepens.
	steps := 0
	for _, seg := range sel.Results.Segments[1:] {
		if seg.FloorChangeMM > 0 {
			steps++
		}
	}
	if steps == 0 {
		t.Fatal("no floor step recorded in the segments")
	}
}

func TestSelectSmallestPropagatesBuildErrors(t *testing.T) {
	t.Parallel()
	boom := errors.New("catalogue unavailable")
	_, _, err := SelectSmallest(3, func(int) (Run, error) { return Run{}, boom }, Options{})
	if !errors.Is(err, boom) {
		t.Fatalf("want the build error wrapped, got %v", err)
	}
	if _, _, err := SelectSmallest(0, nil, Options{}); err == nil {
		t.Fatal("no candidates: want an error")
	}
}
