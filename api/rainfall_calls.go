package api

import (
	"net/http"

	"draindesign/domain/rainfall"
)

// The rainfall map calls (design-tool.md section 7). They are open to any
// signed-in user, not only to the UK region whose screens show the map:
// they answer only for points in the United Kingdom, read nothing of the
// user's and cost little, and support, translators and marketing (who can
// change country) or a foreign designer of a UK site need them too. See
// docs/rainfall.md, "The calls".

// findRainStatsBody is rainfall.Query with the position required: a missing
// latitude is not the Gulf of Guinea.
type findRainStatsBody struct {
	Latitude      *float64 `json:"latitude"`
	Longitude     *float64 `json:"longitude"`
	StormDuration float64  `json:"stormDuration"`
	ReturnPeriod  float64  `json:"returnPeriod"`
	ClimateFactor float64  `json:"climateFactor"`
}

func (s *Server) findRainStats(w http.ResponseWriter, r *http.Request) {
	var in findRainStatsBody
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if in.Latitude == nil || in.Longitude == nil {
		s.fail(w, r, badRequestf("latitude and longitude are required"))
		return
	}
	ans, err := rainfall.Default().Find(rainfall.Query{
		Latitude: *in.Latitude, Longitude: *in.Longitude,
		StormDuration: in.StormDuration, ReturnPeriod: in.ReturnPeriod, ClimateFactor: in.ClimateFactor,
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ans)
}

func (s *Server) updateRainStats(w http.ResponseWriter, r *http.Request) {
	var in rainfall.UpdateQuery
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := rainfall.Default().Update(in)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ans)
}
