package api

import (
	"encoding/json"
	"net/http"
	"time"

	"draindesign/domain/catalogue"
	"draindesign/domain/rainfall"
	"draindesign/domain/storage"
	"draindesign/metrics"
)

// storageBody is POST /drainage/calculate_storage/: the run's rainfall
// object and the fields of the controlled discharge dialog
// (design-tool.md sections 2, 3 and 7). The optional fields narrow the
// channel as the run does; docs/rainfall.md describes them all.
type storageBody struct {
	Rainfall          storageRainfall `json:"rainfall"`
	ChannelLengthM    float64         `json:"channel_length_m"`
	CatchmentAreaM2   float64         `json:"catchment_area_m2"`
	Permeability      *float64        `json:"permeability"` // absent: 1, the run's default
	ControlledOutflow float64         `json:"controlled_outflow"`
	ChannelGroup      string          `json:"channel_group"`
	Channel           string          `json:"channel"` // a channel picked by hand
	Loading           string          `json:"loading"`
	GroundSlope       float64         `json:"ground_slope"`
	MinimumSize       float64         `json:"minimumSize"` // mm
}

// storageRainfall is the run's rainfall object. The map's bookkeeping
// (location, town, the table, the override flag) comes along with the
// run and is accepted without being read.
type storageRainfall struct {
	MMPerHour    float64 `json:"rainfall_mm_per_hr"`
	StormMin     float64 `json:"storm_duration"`
	ReturnPeriod float64 `json:"return_period"`
	Climate      float64 `json:"climate_change_factor"`
	M5           float64 `json:"M5"`
	R            float64 `json:"r"`
	R5           float64 `json:"fiveMinuteRate"`
	R15          float64 `json:"fifteenMinuteRate"`
	R60          float64 `json:"sixtyMinuteRate"`
	Region       string  `json:"region"`

	LocationID     json.RawMessage `json:"location_id"`
	LocationIndex  json.RawMessage `json:"location_index"`
	LocationIndex2 json.RawMessage `json:"LocationIndex"`
	Town           json.RawMessage `json:"town"`
	Override       json.RawMessage `json:"override"`
	Intensities    json.RawMessage `json:"intensities"`
}

func (s *Server) calculateStorage(w http.ResponseWriter, r *http.Request) {
	var in storageBody
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	perm := 1.0
	if in.Permeability != nil {
		perm = *in.Permeability
	}
	if in.MinimumSize != float64(int(in.MinimumSize)) {
		s.fail(w, r, &storage.InputError{Field: "minimumSize", Reason: "must be a whole number of mm"})
		return
	}
	started := time.Now()
	res, err := storage.Calculate(catalogue.Default(), storage.Request{
		Rainfall: storage.Rainfall{
			MMPerHour: in.Rainfall.MMPerHour, StormMin: in.Rainfall.StormMin,
			M5: in.Rainfall.M5, R: in.Rainfall.R, ReturnPeriod: in.Rainfall.ReturnPeriod, ClimatePct: in.Rainfall.Climate,
			Region: rainfall.Region(in.Rainfall.Region),
			R5:     in.Rainfall.R5, R15: in.Rainfall.R15, R60: in.Rainfall.R60,
		},
		ChannelLengthM: in.ChannelLengthM, CatchmentAreaM2: in.CatchmentAreaM2, Permeability: perm,
		ControlledOutflowLS: in.ControlledOutflow, GroundSlopePct: in.GroundSlope,
		System: in.ChannelGroup, Channel: in.Channel, Loading: in.Loading, MinimumSizeMM: int(in.MinimumSize),
		Country: currentUser(r).Country,
	})
	metrics.Calculation("storage", time.Since(started), err)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
