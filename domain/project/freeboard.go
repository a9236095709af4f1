package project

// The freeboard below which a run is flagged, unless the project sets its
// own margin. 20 mm is about a grating's thickness of water, which a gust,
// debris or a half-blocked grating can take up; 10 % of the channel's
// depth allows for the channel being laid a little out of level
// (docs/decisions.md, "Freeboard margin").
const (
	DefaultFreeboardMinMM      = 20.0
	DefaultFreeboardMinPercent = 10.0
	maxFreeboardMinMM          = 1000.0
)

// FreeboardMargin is the least freeboard a run should keep: a run is
// flagged when its freeboard is under MinMM or under MinPercent of the
// channel's depth. Zero turns either test off.
type FreeboardMargin struct {
	MinMM      float64 `json:"min_mm"`
	MinPercent float64 `json:"min_percent"`
}

// FreeboardMargin is the project's margin, the defaults where it sets none.
func (s Settings) FreeboardMargin() FreeboardMargin {
	m := FreeboardMargin{MinMM: DefaultFreeboardMinMM, MinPercent: DefaultFreeboardMinPercent}
	if s.FreeboardMinMM != nil {
		m.MinMM = *s.FreeboardMinMM
	}
	if s.FreeboardMinPercent != nil {
		m.MinPercent = *s.FreeboardMinPercent
	}
	return m
}

// Low reports whether a freeboard (mm, and as a percentage of the
// channel's depth) is under the margin. A flooded run (negative or zero
// freeboard) is low too; callers that warn of flooding separately test
// that first.
func (m FreeboardMargin) Low(freeboardMM, freeboardPercent float64) bool {
	return freeboardMM < m.MinMM || freeboardPercent < m.MinPercent
}
