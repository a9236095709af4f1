package catalogue

import "fmt"

// NotFoundError reports an unknown key: a system, channel, grating, loading
// class or letter, sub-product, country, article or option. An HTTP layer
// maps it to 404 (or 400 for a query parameter).
type NotFoundError struct {
	Kind string // "system", "channel", "loading", ...
	Key  string
	In   string // where it was looked for, e.g. `system "poly-100"`; may be empty
}

func (e *NotFoundError) Error() string {
	if e.In != "" {
		return fmt.Sprintf("catalogue: %s %q not found in %s", e.Kind, e.Key, e.In)
	}
	return fmt.Sprintf("catalogue: unknown %s %q", e.Kind, e.Key)
}

// RequestError reports a request the catalogue cannot answer as asked: a
// missing field, a configuration the system does not allow, a bad length.
type RequestError struct {
	Reason string
}

func (e *RequestError) Error() string { return "catalogue: " + e.Reason }

// UnavailableError reports that the catalogue holds no product for a valid
// request: no trash box for the loading and channel type, no end-cap outlet
// for the channel, no accessory at a position.
type UnavailableError struct {
	What   string
	Reason string
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("catalogue: no %s: %s", e.What, e.Reason)
}

// LengthMismatchError reports channels whose total length does not match
// the run length: Short when they fall short of it, otherwise they exceed it
// by at least a whole element.
type LengthMismatchError struct {
	ChannelsMM int
	RunMM      int
}

// Short reports whether the channels are shorter than the run.
func (e *LengthMismatchError) Short() bool { return e.ChannelsMM < e.RunMM }

// DifferenceM is the absolute mismatch in metres.
func (e *LengthMismatchError) DifferenceM() float64 {
	d := e.ChannelsMM - e.RunMM
	if d < 0 {
		d = -d
	}
	return float64(d) / 1000
}

func (e *LengthMismatchError) Error() string {
	word := "long"
	if e.Short() {
		word = "short"
	}
	return fmt.Sprintf("catalogue: the channels selected don't match the specified run length: %.3f m %s (channels %.3f m, run %.3f m)",
		e.DifferenceM(), word, float64(e.ChannelsMM)/1000, float64(e.RunMM)/1000)
}
