// Package profilecsv writes the hydraulic profile of a calculated run as a
// CSV file a spreadsheet opens as it is: one row per slice of the profile
// (distance, invert level, water level, depth, flow, velocity, Froude
// number), with the decimal and column separators of the user's locale,
// UTF-8 with a byte order mark and CRLF line ends (RFC 4180).
//
// It is not named csv so that it does not shadow encoding/csv, which it
// uses and which its callers' tests use to read the file back.
package profilecsv

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"draindesign/domain/design"
	"draindesign/domain/hydraulics"
)

// ContentType is the media type of the file, with the charset and header
// parameters RFC 4180 defines for text/csv.
const ContentType = "text/csv; charset=utf-8; header=present"

// bom is the UTF-8 byte order mark. Excel reads a CSV without it in the
// system's legacy code page, which garbles translated headers (the
// Cyrillic of bg, the accents of hu, pl, hr, si).
const bom = "\uFEFF"

// Columns are the header labels, one per column, in the file's order.
type Columns struct {
	Distance    string
	InvertLevel string
	WaterLevel  string
	Depth       string
	Flow        string
	Velocity    string
	Froude      string
}

// English is the header in English with the units of the columns.
func English() Columns {
	return Columns{
		Distance:    "Distance (m)",
		InvertLevel: "Invert level (m)",
		WaterLevel:  "Water level (m)",
		Depth:       "Depth (mm)",
		Flow:        "Flow (l/s)",
		Velocity:    "Velocity (m/s)",
		Froude:      "Froude number",
	}
}

func (c Columns) labels() []string {
	return []string{c.Distance, c.InvertLevel, c.WaterLevel, c.Depth, c.Flow, c.Velocity, c.Froude}
}

// Locale is how numbers and columns are written so that the spreadsheet
// of the user's locale splits the columns and reads the numbers: a
// spreadsheet set to a comma decimal separator takes ';' as the list
// separator, one with a point decimal takes ','.
type Locale struct {
	// Decimal is the decimal separator, '.' or ','.
	Decimal rune
	// Separator separates the columns; it must differ from Decimal.
	Separator rune
	// Columns are the header labels; the zero value gives English().
	Columns Columns
}

var (
	pointComma     = Locale{Decimal: '.', Separator: ','}
	commaSemicolon = Locale{Decimal: ',', Separator: ';'}
)

// locales maps the product's language codes to their separators. rs and si
// are the codes the product stores (account.Languages); sr and sl, their
// language codes, are taken as well.
var locales = map[string]Locale{
	"en": pointComma,
	"bg": commaSemicolon,
	"de": commaSemicolon,
	"fr": commaSemicolon,
	"hr": commaSemicolon,
	"hu": commaSemicolon,
	"it": commaSemicolon,
	"nl": commaSemicolon,
	"pl": commaSemicolon,
	"rs": commaSemicolon,
	"sr": commaSemicolon,
	"si": commaSemicolon,
	"sl": commaSemicolon,
}

// LocaleFor is the locale of a product language code (en, bg, de, fr, hr,
// hu, it, nl, pl, rs, si), with the English header. An unknown code is an
// error, for the caller to refuse as bad input.
func LocaleFor(language string) (Locale, error) {
	l, ok := locales[strings.ToLower(language)]
	if !ok {
		return Locale{}, fmt.Errorf("profile csv: unknown language %q", language)
	}
	return l, nil
}

func (l Locale) validate() error {
	if l.Decimal != '.' && l.Decimal != ',' {
		return fmt.Errorf("profile csv: decimal separator must be '.' or ',', got %q", l.Decimal)
	}
	s := l.Separator
	if s == 0 || s == '"' || s == '\r' || s == '\n' || s == utf8.RuneError || !utf8.ValidRune(s) {
		return fmt.Errorf("profile csv: invalid column separator %q", s)
	}
	if s == l.Decimal || (s >= '0' && s <= '9') || s == '-' {
		return fmt.Errorf("profile csv: column separator %q would split the numbers", s)
	}
	if l.Columns == (Columns{}) {
		return nil
	}
	for _, c := range l.Columns.labels() {
		if strings.TrimSpace(c) == "" {
			return errors.New("profile csv: every column needs a header label")
		}
	}
	return nil
}

// Row is one slice of the profile with its velocity and Froude number.
type Row struct {
	DistanceM    float64 // from the head of the run
	InvertLevelM float64 // grating top at the head is level 0
	WaterLevelM  float64 // invert level + depth
	DepthMM      float64
	FlowLS       float64
	VelocityMS   float64
	Froude       float64
}

// Rows are the slices of a calculated run's profile, segment after
// segment, each with the velocity and Froude number of its flow in the
// segment's cross-section. A segment has a slice at each end, so where two
// channels meet there are two rows at one distance (with the step in the
// floor between them).
//
// The engine gives each slice's distance, flow, depth and invert level;
// the velocity and Froude number are derived here from the segment's
// shape, as the engine derives them:
//
//	v  = Q / A(y)
//	Fr = v / √(g·A(y)/T(y))   (hydraulic depth A/T; Chow 1959, ch. 3)
//
// which is the square root of the engine's Q²T/(gA³), and for a rectangle
// of width B reduces to v / √(g·y). Where there is no water (A = 0) both
// are 0.
func Rows(results *design.Results) ([]Row, error) {
	if results == nil || !results.Calculated {
		return nil, errors.New("profile csv: the run is not calculated")
	}
	if results.Point != nil {
		return nil, errors.New("profile csv: a point product has no hydraulic profile")
	}
	if len(results.Segments) == 0 {
		return nil, errors.New("profile csv: the run has no profile")
	}
	var rows []Row
	for i, seg := range results.Segments {
		if seg.Shape == nil {
			return nil, fmt.Errorf("profile csv: segment %d (%s) has no cross-section: recalculate the run", i, seg.Description)
		}
		for j, s := range seg.Slices {
			y := s.DepthMM / 1000
			q := s.FlowLS / 1000
			r := Row{
				DistanceM:    s.DistanceM,
				InvertLevelM: s.InvertLevelM,
				WaterLevelM:  s.InvertLevelM + y,
				DepthMM:      s.DepthMM,
				FlowLS:       s.FlowLS,
			}
			if a, t := seg.Shape.Area(y), seg.Shape.TopWidth(y); y > 0 && a > 0 && t > 0 {
				r.VelocityMS = q / a
				r.Froude = r.VelocityMS / math.Sqrt(hydraulics.Gravity*a/t)
			}
			for _, v := range []float64{r.DistanceM, r.InvertLevelM, r.WaterLevelM, r.DepthMM, r.FlowLS, r.VelocityMS, r.Froude} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("profile csv: segment %d slice %d: value not finite", i, j)
				}
			}
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// Decimals of each column: distances and levels to the mm, depths to a
// tenth of a mm, flows to a ml/s (the flow near the head of a run is a
// fraction of a l/s), velocity to a mm/s, and the Froude number to three
// places (whether it is above or below 1 is what matters).
const (
	decLevel    = 3
	decDepth    = 1
	decFlow     = 3
	decVelocity = 3
	decFroude   = 3
)

// Profile is the CSV file of a calculated run's hydraulic profile (Rows)
// in the locale's separators: a header row, then one row per slice.
func Profile(results *design.Results, loc Locale) ([]byte, error) {
	if err := loc.validate(); err != nil {
		return nil, err
	}
	rows, err := Rows(results)
	if err != nil {
		return nil, err
	}
	cols := loc.Columns
	if cols == (Columns{}) {
		cols = English()
	}
	var buf bytes.Buffer
	buf.WriteString(bom)
	w := csv.NewWriter(&buf)
	w.Comma = loc.Separator
	w.UseCRLF = true
	if err := w.Write(cols.labels()); err != nil {
		return nil, fmt.Errorf("profile csv: header: %w", err)
	}
	num := func(v float64, dec int) string { return number(v, dec, loc.Decimal) }
	for _, r := range rows {
		rec := []string{
			num(r.DistanceM, decLevel),
			num(r.InvertLevelM, decLevel),
			num(r.WaterLevelM, decLevel),
			num(r.DepthMM, decDepth),
			num(r.FlowLS, decFlow),
			num(r.VelocityMS, decVelocity),
			num(r.Froude, decFroude),
		}
		if err := w.Write(rec); err != nil {
			return nil, fmt.Errorf("profile csv: row: %w", err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("profile csv: %w", err)
	}
	return buf.Bytes(), nil
}

// number writes v with dec decimals and the given decimal separator,
// without the "-0.000" that a tiny negative value would round to.
func number(v float64, dec int, decimal rune) string {
	p := math.Pow10(dec)
	v = math.Round(v*p) / p
	if v == 0 {
		v = 0 // drops the sign of -0
	}
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if decimal != '.' {
		s = strings.Replace(s, ".", string(decimal), 1)
	}
	return s
}
