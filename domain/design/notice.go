package design

// Notice is a warning of a calculated run in a form a document or screen
// can word in its own language: a stable code and the values its sentence
// needs (numbers as numbers, names as text). Results.Warnings keeps the
// same warnings as English sentences for the API's existing readers.
type Notice struct {
	Code   string         `json:"code"`
	Values map[string]any `json:"values,omitempty"`
}

// Notice codes.
const (
	NoticeMethodNotOffered    = "method_not_offered"   // method, system
	NoticeLongRun             = "long_run"             // limit, over (m)
	NoticeTheoreticalStepping = "theoretical_stepping" // system
	NoticeNoExtensionHat      = "no_extension_hat"     // diameter (mm)
	NoticeSuperCritical       = "super_critical"
	NoticeStorageNote         = "storage_note"    // note: the storage calculation's own remark (English)
	NoticeOrificeEndCap       = "orifice_end_cap" // discharge: the setting the end cap replaces
)

// CatchmentPiece is one area of a run's catchment as the calculation took
// it: on the left (upper) or right (lower) side of the channel, from
// XOriginM to XOriginM+LengthM along the run (from the head), its width at
// either end, its runoff coefficient and its plan area. A uniform
// catchment is two rectangles, half the area on each side.
type CatchmentPiece struct {
	Side         string  `json:"side"` // "left" or "right"
	XOriginM     float64 `json:"x_origin_m"`
	LengthM      float64 `json:"length_m"`
	StartWidthM  float64 `json:"start_width_m"`
	EndWidthM    float64 `json:"end_width_m"`
	Permeability float64 `json:"permeability"`
	AreaM2       float64 `json:"area_m2"`
}

// Catchment sides.
const (
	SideLeft  = "left"
	SideRight = "right"
)
