package hydraulics

import (
	"errors"
	"fmt"
	"math"
)

// SelectSmallest returns the first of n candidate runs, ordered from the
// smallest channel to the largest, that carries the flow without flooding,
// with its results. build(i) makes candidate i. When even the largest
// floods, the error is ErrNoChannel.
//
// The search is a binary search on the monotone property "a larger
// candidate never floods where a smaller one does not" (tested in
// property_test.go), so it calculates about log2(n) candidates; only the
// chosen one gets full results.
func SelectSmallest(n int, build func(i int) (Run, error), opts Options) (int, *Results, error) {
	if n <= 0 {
		return -1, nil, inputErr("candidates", "no candidate channels")
	}
	floods := func(i int) (bool, error) {
		run, err := build(i)
		if err != nil {
			return false, fmt.Errorf("candidate %d: %w", i, err)
		}
		f, err := floodsStrict(run, opts)
		if err != nil {
			return false, fmt.Errorf("candidate %d: %w", i, err)
		}
		return f, nil
	}
	f, err := floods(n - 1)
	if err != nil {
		return -1, nil, err
	}
	if f {
		return -1, nil, ErrNoChannel
	}
	lo, hi := -1, n-1 // lo floods (or is before the first), hi does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		f, err := floods(mid)
		if err != nil {
			return -1, nil, err
		}
		if f {
			lo = mid
		} else {
			hi = mid
		}
	}
	run, err := build(hi)
	if err != nil {
		return -1, nil, fmt.Errorf("candidate %d: %w", hi, err)
	}
	res, err := CalculateWith(run, opts)
	if err != nil {
		return -1, nil, fmt.Errorf("candidate %d: %w", hi, err)
	}
	return hi, res, nil
}

// SelectSections is SelectSmallest over candidate section lists, each
// completing base (inflows, outlet, method).
func SelectSections(base Run, candidates [][]Section, opts Options) (int, *Results, error) {
	return SelectSmallest(len(candidates), func(i int) (Run, error) {
		r := base
		r.Sections = candidates[i]
		return r, nil
	}, opts)
}

// floodMargin keeps the search's verdict on the safe side of the final
// calculation's own overflow test, which is made at the full accuracy and
// samples the profile at slightly different points: a candidate counts as
// flooding from 99.99 % full.
const floodMargin = 1e-4

// searchOptions are the numerics of the flood tests during a search: a
// looser tolerance and longer steps, whose effect on the depths (about 1e-6,
// docs/hydraulics.md) is far inside floodMargin.
func searchOptions(opts Options) Options {
	o := opts.withDefaults()
	o.Tol = math.Min(o.Tol*100, 1e-5)
	o.MaxStep = math.Min(o.MaxStep*2, 20)
	o.SkipMaxDischarge = true
	return o
}

func floodsStrict(run Run, opts Options) (bool, error) {
	opts = searchOptions(opts)
	m, err := compile(run, opts)
	if err != nil {
		return false, err
	}
	r, err := fillRatio(m)
	if err != nil {
		return false, err
	}
	return r > 1-floodMargin, nil
}

// ChannelSize is one size of a channel family offered by the catalogue for
// standard-mode selection (no built-in fall): its cross-section, roughness
// and available depth (m).
type ChannelSize struct {
	Name  string
	Shape Shape
	N     float64
	Depth float64
}

// Layout is the part of a run that does not depend on the channels chosen:
// length, installed gradient (m/m) and level of the channel top at the head,
// inflows, outlet and method. Unit is the element length (m, default 1):
// changes of size in a stepped run fall on multiples of it.
type Layout struct {
	Length    float64
	Gradient  float64
	TopAtHead float64
	Unit      float64
	Lateral   LateralInflow
	Points    []PointInflow
	Outlet    Outlet
	Method    Method
}

// Selection is a designed run: the size used on each section, head to
// outlet, the sections and the results.
type Selection struct {
	Sizes    []int
	Sections []Section
	Results  *Results
}

// runWith builds the run with size idx[k] from starts[k] to the next start
// (or the outlet). The channel tops follow the installed gradient; a deeper
// channel downstream therefore steps the floor down.
func (l Layout) runWith(sizes []ChannelSize, starts []float64, idx []int) (Run, error) {
	secs := make([]Section, 0, len(idx))
	for k, i := range idx {
		if i < 0 || i >= len(sizes) {
			return Run{}, inputErr("sizes", "size index %d out of range", i)
		}
		sz := sizes[i]
		a, b := starts[k], l.Length
		if k+1 < len(starts) {
			b = starts[k+1]
		}
		if b-a < 1e-9 {
			continue
		}
		secs = append(secs, Section{
			Name: sz.Name, Start: a, End: b, Shape: sz.Shape, N: sz.N,
			DepthStart: sz.Depth, DepthEnd: sz.Depth,
			InvertStart: l.TopAtHead - l.Gradient*a - sz.Depth,
			InvertEnd:   l.TopAtHead - l.Gradient*b - sz.Depth,
		})
	}
	return Run{Sections: secs, Lateral: l.Lateral, Points: l.Points, Outlet: l.Outlet, Method: l.Method}, nil
}

func (l Layout) check(sizes []ChannelSize) error {
	if len(sizes) == 0 {
		return inputErr("sizes", "no channel sizes to choose from")
	}
	if !(l.Length > 0) || !finite(l.Length) {
		return inputErr("channel length", "must be positive, got %g", l.Length)
	}
	if !finite(l.Gradient) || !finite(l.TopAtHead) {
		return inputErr("slope", "must be finite")
	}
	return nil
}

// SelectSingle designs a single-size run: the smallest size that does not
// flood.
func SelectSingle(l Layout, sizes []ChannelSize, opts Options) (*Selection, error) {
	if err := l.check(sizes); err != nil {
		return nil, err
	}
	i, res, err := SelectSmallest(len(sizes), func(i int) (Run, error) {
		return l.runWith(sizes, []float64{0}, []int{i})
	}, opts)
	if err != nil {
		return nil, err
	}
	run, _ := l.runWith(sizes, []float64{0}, []int{i})
	return &Selection{Sizes: []int{i}, Sections: run.Sections, Results: res}, nil
}

// SelectStepped designs a stepped run: progressively larger channels toward
// the outlet, each as small as it can be. It first finds the smallest size
// that carries the whole run (binary search), then, size by size downwards,
// the longest head stretch that the next smaller size can take over without
// flooding (binary search over element positions). Both searches rest on
// the monotone property "deeper never floods where shallower does not", so
// the cost is about log2(sizes) + sizes·log2(length/unit) flood tests.
// Every accepted configuration was tested, so the result never floods.
func SelectStepped(l Layout, sizes []ChannelSize, opts Options) (*Selection, error) {
	if err := l.check(sizes); err != nil {
		return nil, err
	}
	unit := l.Unit
	if !(unit > 0) {
		unit = 1
	}
	k, _, err := SelectSmallest(len(sizes), func(i int) (Run, error) {
		return l.runWith(sizes, []float64{0}, []int{i})
	}, Options{MaxStep: opts.MaxStep, Tol: opts.Tol, SkipMaxDischarge: true})
	if err != nil {
		return nil, err
	}
	starts, idx := []float64{0}, []int{k}
	floods := func(st []float64, ix []int) (bool, error) {
		run, err := l.runWith(sizes, st, ix)
		if err != nil {
			return false, err
		}
		return floodsStrict(run, opts)
	}
	xCur := l.Length // the current smallest size covers [0, xCur)
	for j := k - 1; j >= 0; j-- {
		nMax := int(math.Floor(xCur/unit + 1e-9))
		with := func(i int) ([]float64, []int) {
			x := math.Min(float64(i)*unit, xCur)
			st := append([]float64{0, x}, starts[1:]...)
			ix := append([]int{j}, idx...)
			return st, ix
		}
		// i = 0 is the current design, which fits.
		lo, err := LargestFitting(nMax, func(i int) (bool, error) { return floods(with(i)) })
		if err != nil {
			return nil, err
		}
		if lo == 0 {
			break // not even one element of a smaller size fits at the head
		}
		starts, idx = with(lo)
		xCur = math.Min(float64(lo)*unit, xCur)
	}
	run, err := l.runWith(sizes, starts, idx)
	if err != nil {
		return nil, err
	}
	res, err := CalculateWith(run, opts)
	if err != nil {
		return nil, err
	}
	if res.Overflowed {
		return nil, errors.Join(ErrNoChannel, fmt.Errorf("hydraulics: stepped design overflowed in the final check"))
	}
	sel := &Selection{Sections: run.Sections, Results: res}
	for k := range idx {
		a, b := starts[k], l.Length
		if k+1 < len(starts) {
			b = starts[k+1]
		}
		if b-a >= 1e-9 {
			sel.Sizes = append(sel.Sizes, idx[k])
		}
	}
	return sel, nil
}

// LargestFitting is the largest i in [0, n] for which floods(i) is false,
// given that floods(0) is false and flooding, once it starts, persists as i
// grows: a binary search, as stepping a run toward its head needs.
func LargestFitting(n int, floods func(i int) (bool, error)) (int, error) {
	lo, hi := 0, n+1 // lo fits, hi floods
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		f, err := floods(mid)
		if err != nil {
			return 0, err
		}
		if f {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo, nil
}
