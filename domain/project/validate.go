package project

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of what a project holds. Each is written down with its reason in
// docs/decisions.md ("Input limits"); they keep every event small and every
// project quick to load, whatever a client sends.
const (
	MaxInputsBytes = 64 << 10 // encoded inputs of one run
	MaxInputFields = 200      // fields of one run's inputs
	MaxFieldName   = 100      // characters of an input field's name
	MaxInputDepth  = 16       // nesting of objects and lists in one field
	MaxItems       = 1000     // inflows, accessories, catchment areas or channels of a run
	MaxRuns        = 100      // runs of one project
	MaxTextLength  = 200      // characters of a detail field or a run name
	MaxNotesLength = 10000    // characters of the project's or a run's notes
)

// TooLargeError is input beyond a size limit: a run's inputs too large or
// with too many fields. It is the client's to fix, like a ValidationError,
// but says "too large" (HTTP 413) rather than "wrong".
type TooLargeError struct{ Message string }

func (e *TooLargeError) Error() string { return e.Message }

// ValidateInputs checks a run's whole inputs: their size, and the type and
// range of every field the calculation reads (EngineFields). Fields only the
// screens use travel as they are, within the size limits. A null is always
// accepted: it is how the client empties a field. It returns a
// *ValidationError naming the field at fault or a *TooLargeError.
func ValidateInputs(in Inputs) error {
	if err := checkInputsSize(in); err != nil {
		return err
	}
	return checkFields(in, sortedKeys(in))
}

// checkInputsSize bounds a run's inputs as a whole.
func checkInputsSize(in Inputs) error {
	if len(in) > MaxInputFields {
		return &TooLargeError{fmt.Sprintf("A run's inputs may have at most %d fields; these have %d", MaxInputFields, len(in))}
	}
	if n := inputsSize(in); n > MaxInputsBytes {
		return &TooLargeError{fmt.Sprintf("A run's inputs may take at most %d KB; these take %d KB", MaxInputsBytes>>10, (n+1023)>>10)}
	}
	return nil
}

// inputsSize is the length of the inputs encoded as one JSON object.
func inputsSize(in Inputs) int {
	n := 2
	for k, v := range in {
		n += len(k) + len(v) + 4 // quotes, colon, comma
	}
	return n
}

// checkFields checks the named fields of the inputs, in the given order.
func checkFields(in Inputs, keys []string) error {
	for _, k := range keys {
		if err := checkField(k, in[k]); err != nil {
			return err
		}
	}
	return nil
}

func checkField(key string, raw json.RawMessage) error {
	if key == "" || utf8.RuneCountInString(key) > MaxFieldName {
		return invalid("Input field names must have 1 to %d characters", MaxFieldName)
	}
	v, err := decodeValue(raw)
	if err != nil {
		return invalid("Field %q is not valid JSON", key)
	}
	if depth(v) > MaxInputDepth {
		return invalid("Field %q is nested more than %d levels deep", key, MaxInputDepth)
	}
	if r := ruleFor(engineRules, key); r != nil {
		return r(key, v)
	}
	return nil
}

// ruleFor finds the rule of a field as the calculation's JSON decoder
// finds the field: ignoring case (encoding/json matches struct fields
// case-insensitively, so "ConcreteChannel" is read as concreteChannel).
func ruleFor(rules map[string]rule, key string) rule {
	if r, ok := rules[key]; ok {
		return r
	}
	for name, r := range rules {
		if strings.EqualFold(name, key) {
			return r
		}
	}
	return nil
}

func decodeValue(raw json.RawMessage) (any, error) {
	if t, ok := plainScalar(raw); ok {
		return scalarValue(t), nil
	}
	return decodeValueDecoded(raw)
}

// decodeValueDecoded is decodeValue through the decoder, for any value.
func decodeValueDecoded(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func depth(v any) int {
	d := 0
	switch v := v.(type) {
	case map[string]any:
		for _, m := range v {
			d = max(d, depth(m))
		}
		return d + 1
	case []any:
		for _, m := range v {
			d = max(d, depth(m))
		}
		return d + 1
	}
	return 0
}

func sortedKeys(in Inputs) []string { return slices.Sorted(maps.Keys(in)) }

// EngineFields are the run fields the calculation reads (design.Request
// without its identity fields), each with a type and range rule.
func EngineFields() []string { return slices.Sorted(maps.Keys(engineRules)) }

// A rule checks one decoded JSON value (numbers as json.Number) found at
// path.
type rule func(path string, v any) error

// Value sets of the enumerated fields (design-tool.md section 3). The design
// package's tests check them against the catalogue and the calculation.
var (
	calculationMethods = []string{"GVF", "HRW", "Manning"}
	catchmentShapes    = []string{"", "uniform", "irregular"}
	slopeSettings      = []string{"", "slope", "elevation"}
	dischargeSettings  = []string{"", "free-outflow", "outflow-in-trashbox", "end-cap-with-outlet", "modification-last-element"}
	drillingPositions  = []string{"", "bottom", "leftWall", "rightWall"}
	accessoryTypes     = []string{"", "trash-box", "access-box", "access-cover", "end-cap", "end-cap-with-outlet", "concrete-chamber", "connection-plate", "no-automatic"}
	inflowConnections  = []string{"", "direct-pipe", "access-box", "concrete-channel"}
	// Loading classes, and the letters the look-up calls use for them.
	loadingClasses = []string{"A15", "B125", "C250", "D400", "E600", "F900", "LCN20", "LCN50", "LCN70", "LCN110",
		"A", "B", "C", "D", "E", "F", "L", "M", "N", "O"}
	// Surfaces are the permeability options by name and category; custom
	// goes with a permeability_value.
	surfaces = []string{"concrete pavement", "concretepavement", "resin surface", "resinsurface",
		"block pavers - cement joints", "bpcement", "asphalt", "block pavers - sand filled", "bpsand",
		"gravel", "façade", "facade", "soft landscape", "softlandscape", "custom"}
)

// The rules of the engine's fields. Ranges are storage bounds, never tighter
// than what the design form lets a designer type and then warns about: the
// calculation keeps its own, narrower limits and explains them.
var engineRules = func() map[string]rule {
	const (
		maxLengthM = 10000    // channel length, distances along it
		maxAreaM2  = 1e9      // drainage and catchment areas
		maxRainMMH = 10000    // rainfall intensity
		maxFlowLPS = 100000   // point inflows, controlled outflow, trash box discharges
		maxSizeMM  = 10000    // channel, concrete, pipe and drilling sizes
		maxElev    = 100000   // elevations, either side of the datum
		maxSlope   = 100000   // % either way
		maxCount   = 20000    // channel elements of one kind
		maxCutMM   = 10000000 // a cutting's distance: the whole run
		maxDrillMM = 1000000  // a drilling's distance from the end
		maxWidthM  = 100000   // catchment area widths
		idLength   = 100
	)
	cutting := object(map[string]rule{
		"distance_in_mm": numberIn(0, maxCutMM, "mm"),
		"angle_deg":      numberIn(0, 90, "°"),
		"cut_from_left":  boolean,
	})
	drilling := object(map[string]rule{
		"position":         oneOf(drillingPositions),
		"hole_distance_mm": numberIn(0, maxDrillMM, "mm"),
		"hole_diameter_mm": numberIn(0, maxSizeMM, "mm"),
	})
	count := whole(0, maxCount)
	channels := channelCounts(count)
	area := object(map[string]rule{
		"xOrigin":            numberIn(0, maxLengthM, "m"),
		"length_m":           numberIn(0, maxLengthM, "m"),
		"start_width_m":      numberIn(0, maxWidthM, "m"),
		"end_width_m":        numberIn(0, maxWidthM, "m"),
		"permeability":       numberOrName(numberIn(0, 1, ""), oneOfFold(surfaces)),
		"permeability_value": numberIn(0, 1, ""),
	})
	return map[string]rule{
		"advanced":           boolean,
		"calculation_method": oneOfFold(calculationMethods),
		"channel_group":      text(idLength),
		"selectedSystem":     object(map[string]rule{"slug": text(idLength), "product_type": text(8)}),
		"loading":            oneOfFold(loadingClasses),
		"grating":            id(idLength, math.Inf(-1), math.Inf(1)),
		"concreteChannel": object(map[string]rule{
			"width":     whole(0, maxSizeMM),
			"depth":     whole(0, maxSizeMM),
			"roughness": numberIn(0, 0.2, ""),
		}),
		"channel_length_m":  numberIn(0, maxLengthM, "m"),
		"drainage_area_m2":  numberIn(0, maxAreaM2, "m²"),
		"catchment_area_m2": numberIn(0, maxAreaM2, "m²"),
		"catchmentShape":    oneOf(catchmentShapes),
		"leftAreas":         list(MaxItems, area),
		"rightAreas":        list(MaxItems, area),
		"permeability":      numberIn(0, 1, ""),
		"rainfall": object(map[string]rule{
			"rainfall_mm_per_hr": numberIn(0, maxRainMMH, "mm/h"),
			// Where the map's intensity came from, printed on the documents.
			"town":                  text(MaxTextLength),
			"M5":                    numberIn(0, 500, "mm"),
			"r":                     numberIn(0, 1, ""),
			"return_period":         numberIn(0, 10000, "years"),
			"climate_change_factor": numberIn(0, 100, "%"), // a percentage uplift
			"storm_duration":        numberIn(0, 10080, "min"),
			"override":              boolean,
			// The map's 5, 15 and 60 minute rates and FSR region, which a
			// controlled-discharge run sweeps its storms with.
			"fiveMinuteRate":    numberIn(0, maxRainMMH, "mm/h"),
			"fifteenMinuteRate": numberIn(0, maxRainMMH, "mm/h"),
			"sixtyMinuteRate":   numberIn(0, maxRainMMH, "mm/h"),
			"region":            text(idLength),
		}),
		"slopeSetting":     oneOf(slopeSettings),
		"ground_slope":     numberIn(-maxSlope, maxSlope, "%"),
		"upperElevation":   numberIn(-maxElev, maxElev, "m"),
		"lowerElevation":   numberIn(-maxElev, maxElev, "m"),
		"stepped":          boolean,
		"built_in_fall":    boolean,
		"minimumSize":      numberIn(0, maxSizeMM, "mm"),
		"dischargeSetting": oneOf(dischargeSettings),
		"outflowTrashbox":  id(idLength, 0, maxFlowLPS),
		"outflowEndcap":    id(idLength, math.Inf(-1), math.Inf(1)),
		"drilling":         drilling,
		"headCutting":      cutting,
		"dischargeCutting": cutting,
		"channels":         channels,
		"advanced_design": object(map[string]rule{
			"channels":          channels,
			"head_cutting":      cutting,
			"discharge_cutting": cutting,
			"headCutting":       cutting,
			"dischargeCutting":  cutting,
			"drilling":          drilling,
		}),
		"inflows": list(MaxItems, object(map[string]rule{
			"id":            id(idLength, math.Inf(-1), math.Inf(1)),
			"distance_m":    numberIn(0, maxLengthM, "m"),
			"source":        id(idLength, math.Inf(-1), math.Inf(1)),
			"flow_lps":      numberIn(0, maxFlowLPS, "l/s"),
			"connection":    oneOf(inflowConnections),
			"toBeConfirmed": boolean,
		})),
		"accessories": list(MaxItems, object(map[string]rule{
			"id":            id(idLength, math.Inf(-1), math.Inf(1)),
			"distance_m":    numberIn(0, maxLengthM, "m"),
			"type":          oneOf(accessoryTypes),
			"toBeConfirmed": boolean,
			"diameter_mm":   numberIn(0, maxSizeMM, "mm"),
			"product":       id(idLength, 0, maxFlowLPS),
		})),
		"controlled_outflow": numberIn(0, maxFlowLPS, "l/s"),
		// The controlled discharge dialog's confirmed design: its channel
		// (slug, or name) is the run's.
		"controlled_discharge_details": object(map[string]rule{
			"channel":             text(idLength),
			"channel_name":        text(idLength),
			"max_depth_mm":        numberIn(0, maxSizeMM, "mm"),
			"orifice_diameter_mm": numberIn(0, maxSizeMM, "mm"),
		}),
		"pipe_diameter_mm":   numberIn(0, maxSizeMM, "mm"),
		"has_body_extension": boolean,
		"water_inflow":       numberIn(0, maxFlowLPS, "l/s"),
		"pipe_slope":         numberIn(0, 100, "%"),
	}
}()

func typeErr(path, want string, v any) error {
	return invalid("Field %q must be %s, not %s", path, want, kindOf(v))
}

func kindOf(v any) string {
	switch v.(type) {
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "true or false"
	case map[string]any:
		return "a JSON object"
	case []any:
		return "a list"
	}
	return "null"
}

// finite reads a JSON number; numbers beyond float64 are not finite.
func finite(n json.Number) (float64, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

func numberIn(lo, hi float64, unit string) rule {
	return func(path string, v any) error {
		if v == nil {
			return nil
		}
		n, ok := v.(json.Number)
		if !ok {
			return typeErr(path, "a number", v)
		}
		f, ok := finite(n)
		if !ok {
			return invalid("Field %q must be a finite number", path)
		}
		if f < lo || f > hi {
			u := ""
			if unit != "" {
				u = " " + unit
			}
			return invalid("Field %q must be between %s and %s%s, not %s", path, fmtNum(lo), fmtNum(hi), u, fmtNum(f))
		}
		return nil
	}
}

func whole(lo, hi float64) rule {
	inRange := numberIn(lo, hi, "")
	return func(path string, v any) error {
		if err := inRange(path, v); err != nil || v == nil {
			return err
		}
		if f, _ := finite(v.(json.Number)); f != math.Trunc(f) {
			return invalid("Field %q must be a whole number", path)
		}
		return nil
	}
}

func boolean(path string, v any) error {
	if _, ok := v.(bool); ok || v == nil {
		return nil
	}
	return typeErr(path, "true or false", v)
}

func text(maxLen int) rule {
	return func(path string, v any) error {
		if v == nil {
			return nil
		}
		s, ok := v.(string)
		if !ok {
			return typeErr(path, "a string", v)
		}
		if utf8.RuneCountInString(s) > maxLen {
			return invalid("Field %q must have at most %d characters", path, maxLen)
		}
		return nil
	}
}

// id is an identifier sent as a string or a number (design.ID); a number
// must lie in [lo, hi].
func id(maxLen int, lo, hi float64) rule {
	str, num := text(maxLen), numberIn(lo, hi, "")
	return func(path string, v any) error {
		if _, ok := v.(json.Number); ok {
			return num(path, v)
		}
		if _, ok := v.(string); ok || v == nil {
			return str(path, v)
		}
		return typeErr(path, "a string or a number", v)
	}
}

func oneOf(values []string) rule { return enum(values, false) }

// oneOfFold ignores case and surrounding space, as the calculation does.
func oneOfFold(values []string) rule { return enum(values, true) }

func enum(values []string, fold bool) rule {
	var shown []string
	for _, v := range values {
		if v != "" {
			shown = append(shown, v)
		}
	}
	return func(path string, v any) error {
		if v == nil {
			return nil
		}
		s, ok := v.(string)
		if !ok {
			return typeErr(path, "a string", v)
		}
		if fold {
			s = strings.TrimSpace(s)
		}
		for _, want := range values {
			if s == want || (fold && strings.EqualFold(s, want)) {
				return nil
			}
		}
		if fold && s == "" {
			return nil
		}
		if len(s) > 40 {
			s = string([]rune(s)[:min(40, utf8.RuneCountInString(s))]) + "…"
		}
		return invalid("Field %q must be one of %s, not %q", path, strings.Join(shown, ", "), s)
	}
}

// object checks the named members of a JSON object (found as ruleFor
// finds them); others pass as they are.
func object(members map[string]rule) rule {
	return func(path string, v any) error {
		if v == nil {
			return nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return typeErr(path, "a JSON object", v)
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if r := ruleFor(members, k); r != nil {
				if err := r(path+"."+k, m[k]); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

func list(maxLen int, item rule) rule {
	return func(path string, v any) error {
		if v == nil {
			return nil
		}
		l, ok := v.([]any)
		if !ok {
			return typeErr(path, "a list", v)
		}
		if len(l) > maxLen {
			return invalid("Field %q may hold at most %d items", path, maxLen)
		}
		for i, it := range l {
			if err := item(fmt.Sprintf("%s[%d]", path, i), it); err != nil {
				return err
			}
		}
		return nil
	}
}

func numberOrName(num, name rule) rule {
	return func(path string, v any) error {
		switch v.(type) {
		case nil:
			return nil
		case json.Number:
			return num(path, v)
		case string:
			return name(path, v)
		}
		return typeErr(path, "a number or a surface name", v)
	}
}

// channelCounts is design.ChannelCounts: a list of {slug, count} (count
// may be called number or used) or an object of slug to count.
func channelCounts(count rule) rule {
	items := list(MaxItems, object(map[string]rule{"slug": text(100), "count": count, "number": count, "used": count}))
	return func(path string, v any) error {
		switch v := v.(type) {
		case nil:
			return nil
		case []any:
			return items(path, v)
		case map[string]any:
			if len(v) > MaxItems {
				return invalid("Field %q may hold at most %d channels", path, MaxItems)
			}
			for _, slug := range slices.Sorted(maps.Keys(v)) {
				if err := count(path+"."+slug, v[slug]); err != nil {
					return err
				}
			}
			return nil
		}
		return typeErr(path, "a list or a JSON object", v)
	}
}

// Rainfall units as stored (domain/account settings).
var rainfallUnits = []string{"mm/h", "l/s/m2", "l/(s*ha)"}

// checkText bounds a free text typed by the user.
func checkText(what, s string, maxLen int) error {
	if utf8.RuneCountInString(s) > maxLen {
		return invalid("%s may have at most %d characters", what, maxLen)
	}
	return nil
}

// checkDetails checks the project's details, settings and notes as a save
// or a details change sends them.
func checkDetails(d Details, s Settings, notes string) error {
	fields := []struct{ what, v string }{
		{"The project name", d.Name}, {"The location", d.Location}, {"The reference", d.Reference},
		{"The date", d.Date}, {"The company", d.Company}, {"The designer", d.Designer},
		{"The telephone", d.Telephone}, {"The e-mail address", d.Email},
	}
	for _, f := range fields {
		if err := checkText(f.what, f.v, MaxTextLength); err != nil {
			return err
		}
	}
	if err := checkText("The project notes", notes, MaxNotesLength); err != nil {
		return err
	}
	if s.RainfallUnits != "" && !slices.Contains(rainfallUnits, s.RainfallUnits) {
		return invalid("The rainfall units must be one of %s", strings.Join(rainfallUnits, ", "))
	}
	if r := s.DefaultRainfall; r != nil && !(*r >= 0 && *r <= 10000) {
		return invalid("The default rainfall must be between 0 and 10000 mm/h")
	}
	if v := s.FreeboardMinMM; v != nil && !(*v >= 0 && *v <= maxFreeboardMinMM) {
		return invalid("The freeboard margin must be between 0 and %g mm", maxFreeboardMinMM)
	}
	if v := s.FreeboardMinPercent; v != nil && !(*v >= 0 && *v <= 100) {
		return invalid("The freeboard margin must be between 0 and 100 %% of the channel depth")
	}
	return nil
}

// checkRunName checks a run name, already trimmed.
func checkRunName(name string) error {
	if name == "" {
		return invalid("A run needs a name")
	}
	return checkText("A run name", name, MaxTextLength)
}
