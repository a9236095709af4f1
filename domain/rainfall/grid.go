package rainfall

import (
	"fmt"
	"math"
	"strings"
)

// The British National Grid is a transverse Mercator projection of the
// OSGB36 datum on the Airy 1830 ellipsoid; map clicks arrive in WGS84. The
// formulas are those of the Ordnance Survey's "A guide to coordinate systems
// in Great Britain" (annexes B and C, and section 6.6 for the Helmert shift).
// The seven-parameter Helmert transformation is good to a few metres, which
// is far finer than the kilometre cells and the rainfall field need; OSTN15
// would buy centimetres at the cost of a 15 MB grid.

type ellipsoid struct{ a, b float64 }

func (e ellipsoid) e2() float64 { return (e.a*e.a - e.b*e.b) / (e.a * e.a) }

var (
	airy1830 = ellipsoid{a: 6377563.396, b: 6356256.909}
	wgs84    = ellipsoid{a: 6378137.000, b: 6356752.314245}
)

// National Grid projection constants (OS guide, table A.1).
const (
	gridF0   = 0.9996012717
	gridLat0 = 49.0 * math.Pi / 180
	gridLon0 = -2.0 * math.Pi / 180
	gridE0   = 400000.0
	gridN0   = -100000.0
)

// helmert holds a seven-parameter shift: translations in metres, scale in
// parts per million, rotations in seconds of arc.
type helmert struct{ tx, ty, tz, s, rx, ry, rz float64 }

// wgs84ToOSGB36 is the OS guide's table 6 (ETRS89 to OSGB36; WGS84 and
// ETRS89 differ by well under a metre in Britain, below this shift's error).
var wgs84ToOSGB36 = helmert{tx: -446.448, ty: 125.157, tz: -542.060, s: 20.4894, rx: -0.1502, ry: -0.2470, rz: -0.8421}

// inverse negates the parameters; for rotations this small the error of
// doing so is millimetres.
func (h helmert) inverse() helmert {
	return helmert{-h.tx, -h.ty, -h.tz, -h.s, -h.rx, -h.ry, -h.rz}
}

func (h helmert) apply(x, y, z float64) (float64, float64, float64) {
	const sec = math.Pi / (180 * 3600)
	s1 := 1 + h.s*1e-6
	rx, ry, rz := h.rx*sec, h.ry*sec, h.rz*sec
	return h.tx + s1*x - rz*y + ry*z,
		h.ty + rz*x + s1*y - rx*z,
		h.tz - ry*x + rx*y + s1*z
}

func toCartesian(lat, lon float64, el ellipsoid) (float64, float64, float64) {
	e2 := el.e2()
	sin := math.Sin(lat)
	nu := el.a / math.Sqrt(1-e2*sin*sin)
	return nu * math.Cos(lat) * math.Cos(lon),
		nu * math.Cos(lat) * math.Sin(lon),
		(1 - e2) * nu * sin
}

func fromCartesian(x, y, z float64, el ellipsoid) (lat, lon float64) {
	e2 := el.e2()
	p := math.Hypot(x, y)
	lat = math.Atan2(z, p*(1-e2))
	for range 10 {
		sin := math.Sin(lat)
		nu := el.a / math.Sqrt(1-e2*sin*sin)
		next := math.Atan2(z+e2*nu*sin, p)
		if math.Abs(next-lat) < 1e-12 {
			lat = next
			break
		}
		lat = next
	}
	return lat, math.Atan2(y, x)
}

// meridianArc is M of the OS guide, the northing of a latitude on the
// central meridian before false origin and scale.
func meridianArc(lat float64) float64 {
	a, b := airy1830.a, airy1830.b
	n := (a - b) / (a + b)
	n2, n3 := n*n, n*n*n
	dl, sl := lat-gridLat0, lat+gridLat0
	return b * gridF0 * ((1+n+5.0/4*n2+5.0/4*n3)*dl -
		(3*n+3*n2+21.0/8*n3)*math.Sin(dl)*math.Cos(sl) +
		(15.0/8*n2+15.0/8*n3)*math.Sin(2*dl)*math.Cos(2*sl) -
		35.0/24*n3*math.Sin(3*dl)*math.Cos(3*sl))
}

// projectOSGB36 maps OSGB36 latitude and longitude (radians) to grid
// easting and northing (OS guide, annex C.1).
func projectOSGB36(lat, lon float64) (e, n float64) {
	a, e2 := airy1830.a, airy1830.e2()
	sin, cos := math.Sin(lat), math.Cos(lat)
	tan := math.Tan(lat)
	t2, t4 := tan*tan, tan*tan*tan*tan
	nu := a * gridF0 / math.Sqrt(1-e2*sin*sin)
	rho := a * gridF0 * (1 - e2) / math.Pow(1-e2*sin*sin, 1.5)
	eta2 := nu/rho - 1

	I := meridianArc(lat) + gridN0
	II := nu / 2 * sin * cos
	III := nu / 24 * sin * cos * cos * cos * (5 - t2 + 9*eta2)
	IIIA := nu / 720 * sin * math.Pow(cos, 5) * (61 - 58*t2 + t4)
	IV := nu * cos
	V := nu / 6 * cos * cos * cos * (nu/rho - t2)
	VI := nu / 120 * math.Pow(cos, 5) * (5 - 18*t2 + t4 + 14*eta2 - 58*t2*eta2)

	dl := lon - gridLon0
	n = I + II*dl*dl + III*math.Pow(dl, 4) + IIIA*math.Pow(dl, 6)
	e = gridE0 + IV*dl + V*dl*dl*dl + VI*math.Pow(dl, 5)
	return e, n
}

// unprojectOSGB36 is the inverse of projectOSGB36 (OS guide, annex C.2).
func unprojectOSGB36(e, n float64) (lat, lon float64) {
	a, e2 := airy1830.a, airy1830.e2()
	lat = gridLat0
	m := 0.0
	for range 100 {
		lat += (n - gridN0 - m) / (a * gridF0)
		m = meridianArc(lat)
		if math.Abs(n-gridN0-m) < 1e-5 {
			break
		}
	}
	sin := math.Sin(lat)
	tan := math.Tan(lat)
	t2, t4, t6 := tan*tan, math.Pow(tan, 4), math.Pow(tan, 6)
	sec := 1 / math.Cos(lat)
	nu := a * gridF0 / math.Sqrt(1-e2*sin*sin)
	rho := a * gridF0 * (1 - e2) / math.Pow(1-e2*sin*sin, 1.5)
	eta2 := nu/rho - 1

	VII := tan / (2 * rho * nu)
	VIII := tan / (24 * rho * math.Pow(nu, 3)) * (5 + 3*t2 + eta2 - 9*t2*eta2)
	IX := tan / (720 * rho * math.Pow(nu, 5)) * (61 + 90*t2 + 45*t4)
	X := sec / nu
	XI := sec / (6 * math.Pow(nu, 3)) * (nu/rho + 2*t2)
	XII := sec / (120 * math.Pow(nu, 5)) * (5 + 28*t2 + 24*t4)
	XIIA := sec / (5040 * math.Pow(nu, 7)) * (61 + 662*t2 + 1320*t4 + 720*t6)

	de := e - gridE0
	lat = lat - VII*de*de + VIII*math.Pow(de, 4) - IX*math.Pow(de, 6)
	lon = gridLon0 + X*de - XI*math.Pow(de, 3) + XII*math.Pow(de, 5) - XIIA*math.Pow(de, 7)
	return lat, lon
}

// LatLonToGrid converts WGS84 latitude and longitude (degrees) to British
// National Grid easting and northing (metres), good to a few metres.
func LatLonToGrid(lat, lon float64) (easting, northing float64) {
	x, y, z := toCartesian(lat*math.Pi/180, lon*math.Pi/180, wgs84)
	x, y, z = wgs84ToOSGB36.apply(x, y, z)
	la, lo := fromCartesian(x, y, z, airy1830)
	return projectOSGB36(la, lo)
}

// GridToLatLon converts British National Grid easting and northing (metres)
// to WGS84 latitude and longitude (degrees), good to a few metres.
func GridToLatLon(easting, northing float64) (lat, lon float64) {
	la, lo := unprojectOSGB36(easting, northing)
	x, y, z := toCartesian(la, lo, airy1830)
	x, y, z = wgs84ToOSGB36.inverse().apply(x, y, z)
	la, lo = fromCartesian(x, y, z, wgs84)
	return la * 180 / math.Pi, lo * 180 / math.Pi
}

// The grid's 100 km squares are named by two letters, each from a 5 x 5
// block of the alphabet without I; the first picks the 500 km square, the
// second the 100 km square within it.
const gridSpan = 700000 // eastings 0 to 700 km, northings 0 to 1300 km

// GridRef names the 1 km square holding a grid position, e.g. "SE3587"
// (letters, two digits of easting, two of northing). It fails off the
// lettered grid (negative, or beyond 700 km east or 1300 km north).
func GridRef(easting, northing float64) (string, error) {
	if !(easting >= 0 && easting < gridSpan && northing >= 0 && northing < 1300000) {
		return "", fmt.Errorf("rainfall: grid position %.0f, %.0f is off the British National Grid", easting, northing)
	}
	e100 := int(easting / 100000)
	n100 := int(northing / 100000)
	l1 := (19 - n100) - (19-n100)%5 + (e100+10)/5
	l2 := (19-n100)*5%25 + e100%5
	if l1 > 7 {
		l1++
	}
	if l2 > 7 {
		l2++
	}
	ekm := int(easting) % 100000 / 1000
	nkm := int(northing) % 100000 / 1000
	return fmt.Sprintf("%c%c%02d%02d", 'A'+l1, 'A'+l2, ekm, nkm), nil
}

// ParseGridRef reads a 1 km reference written by GridRef (case and spaces
// do not matter) and returns the south-west corner of the square.
func ParseGridRef(ref string) (easting, northing float64, err error) {
	s := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(ref), " ", ""))
	bad := fmt.Errorf("rainfall: %q is not a 1 km grid reference such as SE3587", ref)
	if len(s) != 6 {
		return 0, 0, bad
	}
	l1, l2 := int(s[0])-'A', int(s[1])-'A'
	if l1 < 0 || l1 > 25 || l2 < 0 || l2 > 25 || l1 == 8 || l2 == 8 {
		return 0, 0, bad
	}
	if l1 > 7 {
		l1--
	}
	if l2 > 7 {
		l2--
	}
	e100 := ((l1-2)%5+5)%5*5 + l2%5
	n100 := (19 - l1/5*5) - l2/5
	var ekm, nkm int
	for i, c := range s[2:] {
		if c < '0' || c > '9' {
			return 0, 0, bad
		}
		if i < 2 {
			ekm = ekm*10 + int(c-'0')
		} else {
			nkm = nkm*10 + int(c-'0')
		}
	}
	easting = float64(e100*100000 + ekm*1000)
	northing = float64(n100*100000 + nkm*1000)
	if easting < 0 || easting >= gridSpan || northing < 0 || northing >= 1300000 {
		return 0, 0, bad
	}
	return easting, northing, nil
}
