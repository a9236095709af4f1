package rainfall

import "math"

// Region names the FSR rainfall region a point belongs to. The FSR gives
// separate growth (Z2) tables for England and Wales and for Scotland and
// Northern Ireland; see fsr.go for how the latter is stood in for.
type Region string

const (
	EnglandWales    Region = "England and Wales"
	Scotland        Region = "Scotland"
	NorthernIreland Region = "Northern Ireland"
)

// Valid reports whether r is one of the three regions.
func (r Region) Valid() bool {
	return r == EnglandWales || r == Scotland || r == NorthernIreland
}

type placeKind int

const (
	onLand placeKind = iota
	atSea
	abroad
)

type place struct {
	kind   placeKind
	area   *area
	region Region
}

// inRing is the even-odd ray test with longitude as x and latitude as y;
// at these sizes the distortion of treating degrees as planar is nothing
// next to the coarseness of the outline.
func inRing(ring [][2]float64, lat, lon float64) bool {
	in := false
	for i, j := 0, len(ring)-1; i < len(ring); j, i = i, i+1 {
		yi, xi := ring[i][0], ring[i][1]
		yj, xj := ring[j][0], ring[j][1]
		if (yi > lat) != (yj > lat) && lon < (xj-xi)*(lat-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// classify tells land of the United Kingdom from sea and from elsewhere.
// Land outlines are tried first, so an island of the Republic of Ireland or
// the Isle of Man is abroad even though it sits in the waters outline.
func classify(lat, lon float64) place {
	for i := range areas {
		a := &areas[i]
		if !inRing(a.ring, lat, lon) {
			continue
		}
		if !a.uk {
			return place{kind: abroad, area: a}
		}
		return place{kind: onLand, area: a, region: regionOf(a, lat, lon)}
	}
	if inRing(ukWaters, lat, lon) {
		return place{kind: atSea}
	}
	return place{kind: abroad}
}

func regionOf(a *area, lat, lon float64) Region {
	if a.region != EnglandWales {
		return a.region
	}
	if lat > scottishBorderLat(lon) {
		return Scotland
	}
	return EnglandWales
}

// scottishBorder follows the Anglo-Scottish border as latitude against
// longitude, from the Solway Firth to Berwick. Near the Cheviots, where the real
// border doubles back, it is out by up to about 10 km; it only labels the
// growth-factor region.
var scottishBorder = [][2]float64{ // {longitude, latitude}
	{-3.70, 54.62}, {-3.58, 54.70}, {-3.48, 54.80}, {-3.38, 54.90}, {-3.25, 54.95},
	{-3.10, 54.965}, {-3.03, 54.99}, {-2.97, 55.04}, {-2.86, 55.07}, {-2.80, 55.14},
	{-2.68, 55.20}, {-2.58, 55.28}, {-2.48, 55.35}, {-2.30, 55.39}, {-2.17, 55.46},
	{-2.10, 55.62}, {-2.03, 55.80},
}

func scottishBorderLat(lon float64) float64 {
	b := scottishBorder
	if lon <= b[0][0] {
		return b[0][1]
	}
	for i := 1; i < len(b); i++ {
		if lon <= b[i][0] {
			f := (lon - b[i-1][0]) / (b[i][0] - b[i-1][0])
			return b[i-1][1] + f*(b[i][1]-b[i-1][1])
		}
	}
	return b[len(b)-1][1]
}

// kmBetween is the great-circle distance on a sphere of mean Earth radius.
func kmBetween(lat1, lon1, lat2, lon2 float64) float64 {
	const r = 6371.0
	p1, p2 := lat1*math.Pi/180, lat2*math.Pi/180
	dp := p2 - p1
	dl := (lon2 - lon1) * math.Pi / 180
	h := math.Sin(dp/2)*math.Sin(dp/2) + math.Cos(p1)*math.Cos(p2)*math.Sin(dl/2)*math.Sin(dl/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}
