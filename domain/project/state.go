package project

import (
	"encoding/json"
	"strconv"
)

// RunState is where a run stands in its life (design-tool.md section 4).
type RunState string

const (
	Unconfigured RunState = "unconfigured"
	Ready        RunState = "ready"
	Calculated   RunState = "calculated"
	Changed      RunState = "changed"
)

// Readiness reads the few inputs that decide whether a run may be calculated
// for the first time: a system must be chosen, then by product type
// P: drainage area above 0; M: concrete width and depth, length and area
// above 0; any other: length and area above 0.
func Readiness(in Inputs) bool {
	typ, ok := productType(in)
	if !ok {
		return false
	}
	area := number(in, "drainage_area_m2")
	switch typ {
	case "P":
		return area > 0
	case "M":
		var c struct {
			Width float64 `json:"width"`
			Depth float64 `json:"depth"`
		}
		if raw, ok := in["concreteChannel"]; !ok || json.Unmarshal(raw, &c) != nil {
			return false
		}
		return c.Width > 0 && c.Depth > 0 && number(in, "channel_length_m") > 0 && area > 0
	default:
		return number(in, "channel_length_m") > 0 && area > 0
	}
}

// productType finds the run's product type: from the selected system, or M
// for the in-situ concrete channel group, which has no catalogue system.
func productType(in Inputs) (string, bool) {
	var sys struct {
		Slug        string `json:"slug"`
		ProductType string `json:"product_type"`
	}
	if raw, ok := in["selectedSystem"]; ok && json.Unmarshal(raw, &sys) == nil && sys.Slug != "" {
		return sys.ProductType, true
	}
	var group string
	if raw, ok := in["channel_group"]; ok && json.Unmarshal(raw, &group) == nil && group != "" {
		if group == "concrete" {
			return "M", true
		}
		return "", true
	}
	return "", false
}

// number reads a numeric input, accepting numbers sent as strings, as form
// fields often are; anything unreadable counts as 0.
func number(in Inputs, key string) float64 {
	raw, ok := in[key]
	if !ok {
		return 0
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return f
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			return v
		}
	}
	return 0
}

// stateOf derives a run's state from what has happened to it.
func stateOf(r *Run) RunState {
	switch {
	case r.calculatedOnce && !r.inputChanged:
		return Calculated
	case r.calculatedOnce:
		return Changed
	case Readiness(r.Inputs):
		return Ready
	default:
		return Unconfigured
	}
}
