package design

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"draindesign/domain/catalogue"
	"draindesign/domain/rainfall"
	"draindesign/domain/storage"
)

// A run with a controlled outflow (design-tool.md sections 2 to 4) is a
// run of the high-capacity system whose outlet holds a flow-control
// orifice, the channel storing what the orifice holds back. The
// controlled discharge dialog sizes it (POST /drainage/calculate_storage/,
// package storage) and its Confirm keeps the design in the run:
// controlled_outflow, and controlled_discharge_details with the channel.
// The run's calculation then
//
//   - fixes the channel to the confirmed one (standard mode) or takes the
//     user's (advanced mode), single size, never stepped;
//   - sizes the orifice for that channel with the storage calculation, from
//     the run's inputs as they are now, so that a recalculation after an
//     input changed answers for the new inputs and unchanged inputs give
//     the dialog's numbers exactly;
//   - calculates the channel's conveyance profile with the engine as any
//     run (the outlet open, as the discharge setting says), and lists the
//     end cap with outlet that holds the orifice plate in the materials;
//   - answers the storage design in Results.Controlled, with the water
//     level of the critical storm along the run.

// ControlledDetails is the run's controlled_discharge_details: what the
// dialog's Confirm kept of its design.
type ControlledDetails struct {
	// Channel is the chosen channel's slug; ChannelName its name, which
	// runs saved before the slug was kept are resolved by.
	Channel           string  `json:"channel"`
	ChannelName       string  `json:"channel_name"`
	MaxDepthMM        float64 `json:"max_depth_mm"`
	OrificeDiameterMM float64 `json:"orifice_diameter_mm"`
}

// Controlled is the controlled-discharge design of a calculated run: the
// storage calculation's answer (storage.Result, docs/rainfall.md section
// 11) for the run's channel and inputs.
type Controlled struct {
	Channel     string `json:"channel"` // slug
	ChannelName string `json:"channel_name"`
	// ControlledOutflowLS is the outflow limit the orifice is sized for,
	// rounded to 0.1 l/s and held to the free discharge.
	ControlledOutflowLS float64 `json:"controlled_outflow_l_s"`
	FreeDischargeLS     float64 `json:"free_discharge_l_s"`
	// Restricted is false when no orifice is needed; OrificeDiameterMM is
	// then 0.
	Restricted          bool    `json:"restricted"`
	OrificeDiameterMM   float64 `json:"orifice_diameter_mm"`
	CriticalDurationMin float64 `json:"critical_duration_min"`
	CriticalRainfallMMH float64 `json:"critical_rainfall_mm_h"`
	// StorageVolumeM3 is the most water the channel holds in the critical
	// storm; StorageNeededM3 adds what spills when it floods.
	StorageVolumeM3   float64 `json:"storage_volume_m3"`
	StorageNeededM3   float64 `json:"storage_needed_m3"`
	ChannelCapacityM3 float64 `json:"channel_capacity_m3"`
	// MaxDepthMM is the highest water at the outlet, above the invert, in
	// the critical storm; MinimumFreeBoardM what is left of the channel's
	// maximum water depth above it.
	MaxDepthMM        float64 `json:"max_depth_mm"`
	MinimumFreeBoardM float64 `json:"minimum_free_board_m"`
	PeakOutflowLS     float64 `json:"peak_outflow_l_s"`
	Flooded           bool    `json:"flooded"`
	FloodVolumeM3     float64 `json:"flood_volume_m3"`
	// WaterLevel is the critical storm's highest water along the run, head
	// to outlet: the level pond behind the orifice over the run's invert.
	// It is straight between its points.
	WaterLevel []LevelPoint `json:"water_level"`
}

// LevelPoint is a point of a water level along the run: its distance from
// the head (m, as the profile's slices) and the depth above the invert (mm).
type LevelPoint struct {
	DistanceM float64 `json:"distance_m"`
	DepthMM   float64 `json:"depth_mm"`
}

// Defaults the dialog fills in for a rainfall without them
// (design-tool.md section 9).
const (
	defaultStormMin     = 30.0
	defaultReturnPeriod = 30.0
)

// controlled reports whether the run has a controlled outflow.
func (p *plan) controlled() bool { return p.kind == channelRun && p.req.ControlledOutflow > 0 }

// calculateControlled designs and calculates a run with a controlled
// outflow.
func (p *plan) calculateControlled(cat *catalogue.Catalogue) (*Results, error) {
	channel, err := p.controlledChannel(cat)
	if err != nil {
		return nil, err
	}
	st, err := storage.Calculate(cat, p.storageRequest(channel))
	if err != nil {
		return nil, storageError(err)
	}
	p.storage = &st
	var d *designed
	if p.standard() {
		ch, err := cat.Channel(st.Channel)
		if err != nil {
			return nil, err
		}
		d, err = p.calculateParts(cat, []catalogue.RunPart{{Slug: ch.Slug, Count: p.elementsFor(ch)}}, catalogue.SingleSize)
		if err != nil {
			return nil, engineError(err)
		}
	} else if d, err = p.design(cat); err != nil {
		return nil, engineError(err)
	}
	if st.Note != "" {
		p.warn(NoticeStorageNote, map[string]any{"note": st.Note}, "%s", st.Note)
	}
	if st.Restricted && p.discharge != catalogue.FreeOutflow && p.discharge != catalogue.EndCapWithOutletSetting {
		p.warn(NoticeOrificeEndCap, map[string]any{"discharge": p.discharge}, "The controlled outflow leaves through an end cap with outlet holding the orifice plate; the materials list it instead of the discharge setting %q", p.discharge)
	}
	res, err := p.results(cat, d)
	if err != nil {
		return nil, engineError(err)
	}
	res.Controlled = controlledOf(st, p.lengthM, p.gradient())
	return res, nil
}

// controlledChannel is the channel the storage is sized in: in advanced
// mode the user's (one size only), in standard mode the confirmed one; ""
// lets the storage calculation choose as the dialog does, for a run
// without a confirmed design.
func (p *plan) controlledChannel(cat *catalogue.Catalogue) (string, error) {
	if !p.standard() {
		var slug string
		for _, part := range p.parts {
			if slug != "" && part.Slug != slug {
				return "", invalid("channels", "A run with controlled discharge takes one channel size: choose one channel")
			}
			slug = part.Slug
		}
		return slug, nil
	}
	d := p.req.ControlledDetails
	if d == nil {
		return "", nil
	}
	if slug := strings.TrimSpace(d.Channel); slug != "" {
		return slug, nil
	}
	name := strings.TrimSpace(d.ChannelName)
	if name == "" {
		return "", nil
	}
	chs, err := cat.SystemChannels(p.sys.Slug)
	if err != nil {
		return "", catalogueInvalid(err)
	}
	for _, c := range chs {
		if c.Name == name {
			return c.Slug, nil
		}
	}
	return "", invalid("controlled_discharge_details", "The controlled discharge channel %q is not a channel of the %s system: open the controlled discharge and confirm it again", name, p.sys.Name)
}

// storageRequest is the storage calculation of the run, with the fields
// the dialog sends (web/src/storage/storageRules.ts, storageBody): M5-60
// and r only when both are given (else the three rates make the curve),
// the default storm duration and return period where the run has none.
func (p *plan) storageRequest(channel string) storage.Request {
	r := p.req.Rainfall
	rain := storage.Rainfall{
		MMPerHour: p.rainMMH, StormMin: r.StormDuration, ReturnPeriod: r.ReturnPeriod, ClimatePct: r.ClimateFactor,
		R5: r.FiveMinuteRate, R15: r.FifteenMinuteRate, R60: r.SixtyMinuteRate,
	}
	if !(rain.StormMin > 0) {
		rain.StormMin = defaultStormMin
	}
	if !(rain.ReturnPeriod > 0) {
		rain.ReturnPeriod = defaultReturnPeriod
	}
	if r.M5 != nil && r.R != nil && *r.M5 > 0 && *r.R > 0 {
		rain.M5, rain.R, rain.Region = *r.M5, *r.R, rainfall.Region(r.Region)
	}
	return storage.Request{
		Rainfall: rain, ChannelLengthM: p.lengthM, CatchmentAreaM2: p.areaM2, Permeability: p.perm,
		ControlledOutflowLS: p.req.ControlledOutflow, GroundSlopePct: p.slopePct,
		System: p.sys.Slug, Channel: channel, Loading: p.loading, MinimumSizeMM: p.minSizeMM,
		NoImages: true,
	}
}

// MsgControlledRates refuses a controlled run whose rainfall lacks the
// rates the storm sweep needs: a typed intensity drops the map's rates, and
// only the dialog asks for them again.
const MsgControlledRates = "Controlled discharge needs the 5, 15 and 60 minute rainfall rates: open Controlled discharge, enter them and confirm again."

// storageFields are the run's names of the storage call's fields.
var storageFields = map[string]string{
	"catchment_area_m2": "drainage_area_m2",
	"channel":           "controlled_discharge_details",
	"minimum_size_mm":   "minimumSize",
}

// storageError turns the storage calculation's refusals into the
// design's, naming the run's field.
func storageError(err error) error {
	var ie *storage.InputError
	if !errors.As(err, &ie) {
		return err
	}
	field := ie.Field
	switch field {
	case "rainfall.fiveMinuteRate", "rainfall.fifteenMinuteRate", "rainfall.sixtyMinuteRate":
		return invalid(field, MsgControlledRates)
	}
	if f, ok := storageFields[field]; ok {
		field = f
	}
	return invalid(field, "Controlled discharge: %s %s", ie.Field, ie.Reason)
}

// controlledOf is the run's controlled result: the storage answer and the
// critical storm's level pond over a run of lengthM at gradient (m/m).
func controlledOf(st storage.Result, lengthM, gradient float64) *Controlled {
	return &Controlled{
		Channel: st.Channel, ChannelName: st.ChannelName,
		ControlledOutflowLS: st.ControlledOutflowLS, FreeDischargeLS: st.FreeDischargeLS,
		Restricted: st.Restricted, OrificeDiameterMM: st.OrificeDiameterMM,
		CriticalDurationMin: st.CriticalDurationMin, CriticalRainfallMMH: st.CriticalRainfallMMH,
		StorageVolumeM3: st.MaxStoredM3, StorageNeededM3: st.StorageNeededM3, ChannelCapacityM3: st.ChannelCapacityM3,
		MaxDepthMM: st.MaxDepthMM, MinimumFreeBoardM: st.MinimumFreeBoardM, PeakOutflowLS: st.PeakOutflowLS,
		Flooded: st.Flooded, FloodVolumeM3: st.FloodVolumeM3,
		WaterLevel: pondLevel(st.MaxWaterDepthM, lengthM, gradient),
	}
}

// pondLevel is a level pond h m deep at the outlet of a run of lengthM
// falling at gradient (m/m) toward it: x m from the head it stands
// h − gradient·(lengthM − x) above the invert, and it ends where that is
// 0. Its points are the head, the pond's end when it lies within the run,
// and the outlet.
func pondLevel(h, lengthM, gradient float64) []LevelPoint {
	depth := func(x float64) float64 { return round(math.Max(0, 1000*(h-gradient*(lengthM-x))), 1) }
	pts := []LevelPoint{{DistanceM: 0, DepthMM: depth(0)}}
	if gradient > 0 {
		if dry := lengthM - h/gradient; dry > 0 && dry < lengthM {
			pts = append(pts, LevelPoint{DistanceM: round(dry, 3), DepthMM: 0})
		}
	}
	return append(pts, LevelPoint{DistanceM: lengthM, DepthMM: depth(lengthM)})
}

// controlledOutlet puts the flow control in the materials: the end cap
// with outlet that holds the orifice plate (the catalogue has no article
// for the plate itself, docs/decisions.md "Controlled discharge in the
// run"), the chosen one when its outlet takes the plate, else the one with
// the smallest outlet that does.
func (p *plan) controlledOutlet(cat *catalogue.Catalogue, last catalogue.Element, req *catalogue.MaterialRequest) error {
	st := p.storage
	if st == nil || !st.Restricted {
		return nil
	}
	opts, err := cat.EndCapsWithOutlet(last.Slug)
	if err != nil || len(opts) == 0 {
		return failed(MsgNoEndCapOutlets, fmt.Errorf("controlled discharge: no end cap with outlet for %s: %w", last.Name, err))
	}
	pick := opts[len(opts)-1]
	for _, o := range opts {
		if float64(o.OutletDiameterMM) >= st.OrificeDiameterMM {
			pick = o
			break
		}
	}
	for _, o := range opts {
		if p.discharge == catalogue.EndCapWithOutletSetting && o.ID == p.endCapID && float64(o.OutletDiameterMM) >= st.OrificeDiameterMM {
			pick = o
		}
	}
	req.Discharge, req.EndCapID, req.OrificeDiameterMM, req.TrashBoxDischargeLPS = catalogue.EndCapWithOutletSetting, pick.ID, st.OrificeDiameterMM, 0
	return nil
}
