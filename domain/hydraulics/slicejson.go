package hydraulics

import (
	"encoding/json"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
)

// Slices is the profile of a segment, head to outlet. It is what makes the
// longest answers long (a 3000 m run has 6,000 slices of seven numbers),
// so its JSON is written by hand: each number to a fixed number of
// decimals (below) through integer arithmetic, instead of the 16 to 17
// significant digits of the shortest round-trip form, which took most of
// the time of encoding such an answer (docs/performance.md). The shape is
// the same as encoding/json would give a []Slice.
type Slices []Slice

// The decimals each slice number is written with: far below what a
// drawing, a reading of the chart or any measurement can tell apart, and
// fine enough that what the client derives from them comes out as from
// the engine's own numbers (docs/decisions.md, "Profile numbers in the
// answer"). The client reads out chainage to the cm, depth to 0.1 mm,
// flow to 0.01 l/s, velocity to the cm/s and the Froude number to two
// places; it marks a slice as flooded where the invert level plus the
// depth stand more than 1 µm above the top level, so levels and depths
// are kept to 0.1 µm: their rounding together moves that difference by
// at most 0.15 µm.
const (
	distanceDecimals = 4 // m: 0.1 mm; slices lie up to 0.5 m apart
	flowDecimals     = 4 // l/s: 0.1 ml/s
	depthDecimals    = 4 // mm: 0.1 µm
	levelDecimals    = 7 // m: 0.1 µm
	velocityDecimals = 4 // m/s: 0.1 mm/s
	froudeDecimals   = 4
)

// SliceJSONBytes is about the length of an encoded slice (usually 140 to
// 170 bytes): room to make for a profile at once rather than grow into it.
const SliceJSONBytes = 160

// MarshalJSON writes the slices as AppendJSON does.
func (s Slices) MarshalJSON() ([]byte, error) {
	return s.AppendJSON(make([]byte, 0, 2+len(s)*SliceJSONBytes))
}

// AppendJSON appends the slices' JSON array to dst: null when there are
// none (as encoding/json writes a nil slice), [] when empty. A number that
// is not finite has no JSON form: it fails as encoding/json fails on it.
func (s Slices) AppendJSON(dst []byte) ([]byte, error) {
	if s == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, '[')
	for i := range s {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = s[i].appendJSON(dst); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

// MarshalJSON writes one slice as Slices does, so that a slice encodes
// alike alone or in a profile.
func (c Slice) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

func (c *Slice) appendJSON(dst []byte) ([]byte, error) {
	// The sum of finite numbers is finite unless it overflows; a NaN or
	// an infinity makes it NaN or infinite, and x-x is then NaN, not 0.
	if sum := c.DistanceM + c.FlowLS + c.DepthMM + c.InvertLevelM + c.TopLevelM + c.VelocityMS + c.Froude; sum-sum != 0 {
		if err := c.nonFinite(); err != nil {
			return nil, err
		}
	}
	dst = append(dst, `{"distance_m":`...)
	dst = appendFixed(dst, c.DistanceM, distanceDecimals)
	dst = append(dst, `,"flow_l_s":`...)
	dst = appendFixed(dst, c.FlowLS, flowDecimals)
	dst = append(dst, `,"depth_mm":`...)
	dst = appendFixed(dst, c.DepthMM, depthDecimals)
	dst = append(dst, `,"invert_level_m":`...)
	dst = appendFixed(dst, c.InvertLevelM, levelDecimals)
	dst = append(dst, `,"top_level_m":`...)
	dst = appendFixed(dst, c.TopLevelM, levelDecimals)
	dst = append(dst, `,"velocity_m_s":`...)
	dst = appendFixed(dst, c.VelocityMS, velocityDecimals)
	dst = append(dst, `,"froude":`...)
	dst = appendFixed(dst, c.Froude, froudeDecimals)
	if c.Supercritical {
		dst = append(dst, `,"supercritical":true`...)
	}
	return append(dst, '}'), nil
}

// appendFixed appends the finite v rounded to the given decimals (at most
// 7), without trailing zeros after the point nor the point of a whole
// number: the digits of n = round(|v|·10^decimals), an integer, less its
// trailing zeros and as many decimals, written backwards two at a time
// with the point put in. A value too large for n to be exact (over 2^53)
// has no fraction worth rounding and is written in the shortest form that
// reads back exactly, as encoding/json would. What rounds to zero is
// written 0, not -0.
func appendFixed(dst []byte, v float64, decimals int) []byte {
	scaled := math.Abs(v) * pow10f[decimals]
	if scaled >= 1<<53 {
		format := byte('f')
		if math.Abs(v) >= 1e21 {
			format = 'e' // as encoding/json writes such numbers
		}
		return strconv.AppendFloat(dst, v, format, -1, 64)
	}
	// Adding a half and truncating rounds as math.Round does for the
	// non-negative values here, save for ties lost to the addition's own
	// rounding, which are far below the decimals kept.
	n := uint64(scaled + 0.5)
	if n == 0 {
		return append(dst, '0')
	}
	for decimals >= 2 && n%100 == 0 {
		n /= 100 // two trailing zeros of the fraction
		decimals -= 2
	}
	if decimals > 0 && n%10 == 0 {
		n /= 10
		decimals--
	}
	size := digits(n)
	if size <= decimals {
		size = decimals + 1 // 0.x
	}
	if decimals > 0 {
		size++ // the point
	}
	if v < 0 {
		size++
	}
	at := len(dst)
	dst = slices.Grow(dst, size)[:at+size]
	b := dst[at:]
	i := len(b)
	for ; decimals >= 2; decimals -= 2 {
		r := n % 100
		n /= 100
		i -= 2
		b[i], b[i+1] = digitPairs[2*r], digitPairs[2*r+1]
	}
	if decimals == 1 {
		i -= 2
		b[i], b[i+1] = '.', byte('0'+n%10)
		n /= 10
	} else if i < len(b) {
		i--
		b[i] = '.'
	}
	for n >= 100 {
		r := n % 100
		n /= 100
		i -= 2
		b[i], b[i+1] = digitPairs[2*r], digitPairs[2*r+1]
	}
	if n >= 10 {
		b[i-2], b[i-1] = digitPairs[2*n], digitPairs[2*n+1]
	} else {
		b[i-1] = byte('0' + n)
	}
	if v < 0 {
		b[0] = '-'
	}
	return dst
}

// digits is the number of decimal digits of n > 0: about log10(2)·bits,
// less one where n is below the power of ten that suggests.
func digits(n uint64) int {
	t := bits.Len64(n) * 1233 >> 12 // 1233/4096 ≈ log10(2)
	if n < pow10u[t] {
		return t
	}
	return t + 1
}

// The scales of appendFixed's decimals, and the powers of ten for digits.
var (
	pow10f = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7}
	pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}
)

// digitPairs holds 00 to 99, two bytes each.
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// nonFinite is the error encoding/json gives for the slice's first number
// that is NaN or infinite, if any.
func (c *Slice) nonFinite() error {
	for _, v := range [...]float64{c.DistanceM, c.FlowLS, c.DepthMM, c.InvertLevelM, c.TopLevelM, c.VelocityMS, c.Froude} {
		if !finite(v) {
			return &json.UnsupportedValueError{Value: reflect.ValueOf(v), Str: strconv.FormatFloat(v, 'g', -1, 64)}
		}
	}
	return nil
}
