package hydraulics

import (
	"errors"
	"math"
	"testing"
)

// Manning full bore: Q = (1/n)·(πD²/4)·(D/4)^(2/3)·√S. By hand for a 150 mm
// pipe at 1:100, n = 0.011: A = 0.017671 m², R^(2/3) = 0.0375^(2/3) =
// 0.112035, Q = 0.017671/0.011·0.112035·0.1 = 0.017998 m³/s.
func TestPipeFullBoreManning(t *testing.T) {
	t.Parallel()
	if q := PipeFullBoreManning(0.15, 0.01, 0.011); math.Abs(q-0.017998) > 2e-6 {
		t.Fatalf("Manning full bore %.6f m³/s, want 0.017998", q)
	}
	if q := PipeFullBoreManning(0.15, 0, 0.011); q != 0 {
		t.Fatalf("level pipe carries %g by Manning", q)
	}
}

// Colebrook–White full bore, V = −2√(2gDS)·log10(ks/3.7D + 2.51ν/(D√(2gDS))).
// By hand for 150 mm, 1:100, ks = 0.6 mm, ν = 1.141e-6 m²/s: √(2gDS) =
// 0.17155, the log argument 0.0011924, V = 1.0031 m/s, Q = 0.017726 m³/s.
func TestPipeFullBoreColebrook(t *testing.T) {
	t.Parallel()
	q := PipeFullBoreColebrook(0.15, 0.01, 0.0006)
	if math.Abs(q-0.017726) > 5e-6 {
		t.Fatalf("Colebrook–White full bore %.6f m³/s, want 0.017726", q)
	}
	if PipeFullBoreColebrook(0.15, 0.02, 0.0006) <= q || PipeFullBoreColebrook(0.15, 0.01, 0.003) >= q {
		t.Fatal("a steeper pipe must carry more, a rougher one less")
	}
}

func TestGratingInflowWeirThenOrifice(t *testing.T) {
	t.Parallel()
	// Weir at shallow depth, orifice when deep (HEC-22, sag inlets).
	a, p := 0.05, 1.2
	shallow := GratingInflow(a, p, 0.01)
	if want := 1.66 * p * math.Pow(0.01, 1.5); math.Abs(shallow-want) > 1e-12 {
		t.Fatalf("shallow grating inflow %g, weir %g", shallow, want)
	}
	deep := GratingInflow(a, p, 0.3)
	if want := 0.67 * a * math.Sqrt(2*Gravity*0.3); math.Abs(deep-want) > 1e-12 {
		t.Fatalf("deep grating inflow %g, orifice %g", deep, want)
	}
}

func TestGullyCapacityIsLeastOfThree(t *testing.T) {
	t.Parallel()
	g := Gully{GratingOpenArea: 0.03, GratingPerimeter: 1.0, PondingDepth: 0.03, OutletHead: 0.25, PipeSlope: 0.01, PipeN: 0.011}
	caps, err := GullyCapacities(g, []float64{75, 110, 160, 200})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, c := range caps {
		least := math.Min(c.GratingLPS, math.Min(c.OutletLPS, c.PipeLPS))
		if c.CapacityLPS != least {
			t.Fatalf("%g mm: capacity %g, least of the three %g", c.DiameterMM, c.CapacityLPS, least)
		}
		seen[c.Governing] = true
		if i > 0 && c.CapacityLPS < caps[i-1].CapacityLPS {
			t.Fatalf("capacity falls with a larger diameter: %v", caps)
		}
	}
	if !seen["pipe"] || !seen["grating"] {
		t.Fatalf("expected the pipe to govern small diameters and the grating large ones: %+v", caps)
	}
	_, best, err := PointDesign(g, []float64{75, 110, 160, 200}, 0.004)
	if err != nil || best != 110 {
		t.Fatalf("4 l/s: smallest diameter %g (err %v), want 110", best, err)
	}
	if _, _, err := PointDesign(g, []float64{75, 110}, 1); !errors.Is(err, ErrNoChannel) {
		t.Fatalf("1000 l/s: want ErrNoChannel, got %v", err)
	}
	var ie *InputError
	if _, err := GullyCapacities(Gully{}, []float64{110}); !errors.As(err, &ie) {
		t.Fatalf("empty gully: want *InputError, got %v", err)
	}
}
