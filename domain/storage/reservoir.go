package storage

// reservoir is the channel run as a store: a level pond in the body, its
// depth h measured at the outlet, where the invert is lowest. The run is
// laid to the ground slope at constant depth, so a point x upstream of the
// outlet holds h - slope·x; on a level run the stored volume is L·A(h).
// Taking the water as level is right for the slow flow behind a flow
// control; it is the ponded volume, not the conveyance profile of an open
// outlet, which the hydraulic engine computes.
type reservoir struct {
	sec     Section
	lengthM float64
	slope   float64 // m/m, ≥ 0
	// cum[i] = ∫₀^(i·dy) A(y) dy, for a sloped run:
	// V(h) = (F(h) - F(h - slope·L)) / slope.
	cum []float64
	dy  float64
}

// levelFall is the fall over the run below which it is treated as level:
// a tenth of a millimetre changes no stored volume that matters and avoids
// dividing two nearly equal integrals by a tiny slope. Below it the run is
// taken at its mean depth, h − slope·L/2.
const levelFall = 1e-4

const cumSteps = 4000

func newReservoir(sec Section, lengthM, slope float64) *reservoir {
	r := &reservoir{sec: sec, lengthM: lengthM, slope: slope}
	if slope*lengthM < levelFall {
		return r
	}
	r.dy = sec.FullDepthM / cumSteps
	r.cum = make([]float64, cumSteps+1)
	// Trapezoids, the same rule integral uses inside a cell, so that V(h)
	// is continuous and monotone across the nodes; with 4000 cells the
	// rule's error is below 1e-8 of the volume.
	for i := 1; i <= cumSteps; i++ {
		a, b := float64(i-1)*r.dy, float64(i)*r.dy
		r.cum[i] = r.cum[i-1] + r.dy*(sec.Area(a)+sec.Area(b))/2
	}
	return r
}

func (r *reservoir) level() bool { return r.cum == nil }

// integral is F(y) = ∫₀^y A: the table's node below y plus the trapezoid
// to y (past the full depth, from the last node).
func (r *reservoir) integral(y float64) float64 {
	if y <= 0 {
		return 0
	}
	f := y / r.dy
	i := min(int(f), cumSteps)
	y0 := float64(i) * r.dy
	return r.cum[i] + (y-y0)*(r.sec.Area(y0)+r.sec.Area(y))/2
}

// volume stored at outlet depth h, m³.
func (r *reservoir) volume(h float64) float64 {
	if h <= 0 {
		return 0
	}
	if r.level() {
		return r.lengthM * r.sec.Area(h-r.slope*r.lengthM/2)
	}
	return (r.integral(h) - r.integral(h-r.slope*r.lengthM)) / r.slope
}

// dVolume is dV/dh, m².
func (r *reservoir) dVolume(h float64) float64 {
	if h < 0 {
		return 0
	}
	if r.level() {
		return r.lengthM * r.sec.TopWidth(h-r.slope*r.lengthM/2)
	}
	return (r.sec.Area(h) - r.sec.Area(h-r.slope*r.lengthM)) / r.slope
}

func (r *reservoir) fullDepth() float64 { return r.sec.FullDepthM }

// capacity is the volume when the outlet end is full: on a sloped run the
// downstream end overflows first, so this is less than L·A(full).
func (r *reservoir) capacity() float64 { return r.volume(r.sec.FullDepthM) }
