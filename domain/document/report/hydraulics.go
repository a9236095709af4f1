package report

import (
	"math"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"
	"draindesign/domain/document/pdf"
)

// Colours of the profile, as on the results screen.
var (
	invertColour = pdf.Colour{R: 60, G: 60, B: 60}
	topColour    = pdf.Colour{R: 120, G: 120, B: 120}
	waterColour  = pdf.Colour{R: 30, G: 100, B: 200}
	floodColour  = pdf.Colour{R: 200, G: 30, B: 30}
	bandColour   = pdf.Colour{R: 255, G: 236, B: 200}
	wallColour   = pdf.Colour{R: 190, G: 190, B: 190}
)

// hydraulics is the document of run i.
func (w *writer) hydraulics(i int) {
	run := w.p.Runs[i]
	w.d.Heading(w.trd("documents.pdf.hydraulics.title", "run", run.Name))
	w.warnings(run.Results) // first, where a checking engineer looks
	w.d.KeyValues(w.specification(run))
	w.rainfallSource(run.Request.Rainfall)
	if run.Results.Point != nil {
		w.gully(run.Results.Point)
	} else {
		// The drawings get a page of their own: the specification fills
		// most of the first, and a profile must not part from its heading.
		w.d.PageBreak()
		w.storage(run) // the storage design, over the profile it sets the water of
		w.d.Subheading(w.tr("documents.results.profile"))
		w.d.Chart(w.profile(run.Results))
		w.d.Subheading(w.tr("documents.results.crossSection"))
		w.d.Figure(w.crossSection(run.Results))
		w.catchment(run.Results)
		w.inflows(run.Request)
		w.accessories(run.Request)
	}
	w.d.Subheading(w.tr("documents.results.notes"))
	if run.Notes == "" {
		w.d.Note(w.tr("documents.results.noNotes"))
	} else {
		w.d.Paragraph(run.Notes)
	}
}

// systemName is the system's catalogue name; a concrete run is described
// by its size.
func (w *writer) systemName(r *design.Results) string {
	if r.System == catalogue.ConcreteSlug {
		return w.trd("documents.pdf.concreteChannel", "width", w.num.f(r.ChannelInternalWidth, 0), "depth", w.num.f(r.OverallDepthMM, 0))
	}
	if s, err := catalogue.Default().System(r.System); err == nil {
		return w.catalogueText(catalogue.SystemKey(s.Slug), s.Name)
	}
	return r.System
}

// yesNo is the translated yes or no.
func (w *writer) yesNo(v bool) string {
	if v {
		return w.tr("documents.common.yes")
	}
	return w.tr("documents.common.no")
}

// specification mirrors the results screen's specification table.
func (w *writer) specification(run Run) [][2]string {
	req, r, n := run.Request, run.Results, w.num
	rows := [][2]string{{w.tr("documents.spec.system"), w.systemName(r)}}
	if r.Point == nil {
		if r.SystemLoading != "" {
			rows = append(rows, [2]string{w.tr("documents.spec.loading"), r.SystemLoading})
		}
		configuration := w.tr("documents.form.singleSize")
		if r.Configuration == "stepped" {
			configuration = w.tr("documents.form.stepped")
		}
		rows = append(rows, [2]string{w.tr("documents.spec.channel"), r.LargestChannel}, [2]string{w.tr("documents.spec.configuration"), configuration})
		if g := r.Grating; g != nil {
			rows = append(rows, [2]string{w.tr("documents.spec.grating"), w.catalogueText(catalogue.GratingKey(g.Slug), g.Description)})
		}
		method := w.tr("documents.form.methodGVF")
		if r.CalculationMethod == "HRW" {
			method = w.tr("documents.form.methodHRW")
		}
		rows = append(rows,
			[2]string{w.tr("documents.spec.length"), n.u(req.ChannelLengthM, 2, "m")},
			[2]string{w.tr("documents.spec.method"), method},
			[2]string{w.tr("documents.spec.slope"), n.u(req.GroundSlope, 2, "%")},
			[2]string{w.tr("documents.spec.installedGradient"), n.u(r.InstalledGradient, 2, "%")},
		)
	}
	value, unit, decimals := w.rainfall(req.Rainfall.MMPerHr)
	rows = append(rows,
		[2]string{w.tr("documents.spec.area"), n.u(req.DrainageAreaM2, 2, "m²")},
		[2]string{w.tr("documents.spec.rainfall"), n.u(value, decimals, unit)},
		[2]string{w.tr("documents.spec.flow"), n.u(r.Flow, 2, "l/s")},
	)
	if p := r.Point; p != nil {
		return append(rows,
			[2]string{w.tr("documents.spec.pipeDiameter"), n.u(float64(p.PipeDiameterMM), 0, "mm")},
			[2]string{w.tr("documents.spec.extensionHat"), w.yesNo(p.ExtensionHat)},
			[2]string{w.tr("documents.spec.capacity"), n.u(p.CapacityLPS, 2, "l/s")},
		)
	}
	return append(rows,
		[2]string{w.tr("documents.spec.flowVelocity"), n.u(r.FlowVelocity, 2, "m/s")},
		[2]string{w.tr("documents.spec.channelDischarge"), n.u(r.ChannelDischarge, 2, "l/s")},
		[2]string{w.tr("documents.spec.maxDischarge"), n.u(r.MaxPossibleDischarge, 2, "l/s")},
		[2]string{w.tr("documents.spec.percentageFull"), n.u(r.PercentageFull, 1, "%")},
		[2]string{w.tr("documents.spec.freeboard"), n.u(r.Freeboard, 0, "mm") + " (" + n.u(r.FreeboardPercent, 1, "%") + ")"},
		[2]string{w.tr("documents.spec.volume"), n.u(r.TotalSystemVolume, 3, "m³")},
		[2]string{w.tr("documents.spec.internalWidth"), n.u(r.ChannelInternalWidth, 0, "mm")},
		[2]string{w.tr("documents.spec.invertDepth"), n.u(r.InvertDepthMM, 0, "mm")},
		[2]string{w.tr("documents.spec.overallDepth"), n.u(r.OverallDepthMM, 0, "mm")},
		[2]string{w.tr("documents.spec.flooding"), w.yesNo(r.Overflowed)},
		[2]string{w.tr("documents.spec.superCritical"), w.yesNo(r.WentSuperCritical)},
	)
}

// rainfall converts an intensity in mm/h to the project's unit, as the
// screen shows it, with the decimals that unit needs.
func (w *writer) rainfall(mmPerHour float64) (float64, string, int) {
	switch w.p.RainfallUnits {
	case "l/s/m2":
		return mmPerHour / 3600, "l/s/m²", 4
	case "l/(s*ha)":
		return mmPerHour * 10000 / 3600, "l/(s·ha)", 1
	}
	return mmPerHour, "mm/h", 1
}

// rainfallSource says where the intensity came from when the UK rainfall
// map gave it: a checking engineer must be able to repeat the look-up.
func (w *writer) rainfallSource(r design.RainfallInput) {
	if r.M5 == nil && r.Town == "" {
		return // typed in by the designer: the intensity is all there is
	}
	n := w.num
	rows := [][2]string{{w.tr("documents.pdf.rainfall.source"), w.tr("documents.pdf.rainfall.fsr")}}
	if r.Town != "" {
		rows = append(rows, [2]string{w.tr("documents.pdf.rainfall.place"), r.Town})
	}
	if r.M5 != nil {
		rows = append(rows, [2]string{w.tr("documents.pdf.rainfall.m5"), n.u(*r.M5, 1, "mm")})
	}
	if r.R != nil {
		rows = append(rows, [2]string{w.tr("documents.pdf.rainfall.r"), n.f(*r.R, 2)})
	}
	if r.ReturnPeriod > 0 {
		rows = append(rows, [2]string{w.tr("documents.pdf.rainfall.returnPeriod"), w.trd("documents.pdf.rainfall.years", "years", n.f(r.ReturnPeriod, 0))})
	}
	if r.StormDuration > 0 {
		rows = append(rows, [2]string{w.tr("documents.pdf.rainfall.duration"), n.u(r.StormDuration, 0, "min")})
	}
	if r.ClimateFactor > 0 { // a percentage uplift, as the map's climate change choice gives it
		rows = append(rows, [2]string{w.tr("documents.pdf.rainfall.climate"), "+" + n.u(r.ClimateFactor, 0, "%")})
	}
	w.d.Subheading(w.tr("documents.pdf.rainfall.title"))
	w.d.KeyValues(rows)
	if r.Override {
		w.d.Note(w.tr("documents.pdf.rainfall.override"))
	}
}

// warnings prints flooding, super-critical flow and low freeboard.
func (w *writer) warnings(r *design.Results) {
	if r.Overflowed {
		from, to := floodReach(r)
		w.d.Warning(w.trd("documents.pdf.warning.flooding", "from", w.num.f(from, 1), "to", w.num.f(to, 1)))
	}
	if r.WentSuperCritical {
		w.d.Warning(w.tr("documents.pdf.warning.superCritical"))
	}
	if w.lowFreeboard(r) && !r.Overflowed {
		m := w.p.FreeboardMargin
		least, _ := governingFreeboard(r)
		w.d.Warning(w.trd("documents.pdf.warning.lowFreeboard", "freeboard", w.num.f(least, 0)) + " " +
			w.trd("documents.pdf.warning.freeboardMargin", "mm", w.num.f(m.MinMM, 0), "percent", w.num.f(m.MinPercent, 0)))
	}
	if p := r.Point; p != nil && p.CapacityLPS < r.Flow {
		w.d.Warning(w.trd("documents.pdf.warning.gully", "flow", w.num.f(r.Flow, 2), "capacity", w.num.f(p.CapacityLPS, 2)))
	}
	w.notices(r)
}

// lowFreeboard reports whether a channel run keeps less freeboard than the
// project's margin (a gully has no freeboard).
func (w *writer) lowFreeboard(r *design.Results) bool {
	mm, percent := governingFreeboard(r)
	return r.Point == nil && w.p.FreeboardMargin.Low(mm, percent)
}

// governingFreeboard is the least freeboard of the run (mm, and % of the
// channel depth at the outlet): the calculation's, or the critical
// storm's where a controlled discharge ponds the water higher
// (web/src/design/freeboard.ts decides alike).
func governingFreeboard(r *design.Results) (mm, percent float64) {
	mm, percent = r.Freeboard, r.FreeboardPercent
	if c := r.Controlled; c != nil {
		storm := c.MinimumFreeBoardM * 1000
		if c.Flooded {
			storm = 0
		}
		if storm < mm {
			mm, percent = storm, 0
			if r.InvertDepthMM > 0 {
				percent = 100 * storm / r.InvertDepthMM
			}
		}
	}
	return mm, percent
}

// floodReach is the first and last distance where the water is above the
// channel top.
func floodReach(r *design.Results) (from, to float64) {
	from, to = math.NaN(), math.NaN()
	for _, s := range r.Segments {
		for _, sl := range s.Slices {
			if flooded(sl.InvertLevelM, sl.DepthMM, sl.TopLevelM) {
				if math.IsNaN(from) {
					from = sl.DistanceM
				}
				to = sl.DistanceM
			}
		}
	}
	return from, to
}

func flooded(invertM, depthMM, topM float64) bool {
	return invertM+depthMM/1000 > topM+1e-6
}

// profile is the hydraulic profile: levels in mm relative to the lowest
// invert, so the figures read as depths below the head's channel top.
func (w *writer) profile(r *design.Results) pdf.Chart {
	base := math.Inf(1)
	for _, s := range r.Segments {
		for _, sl := range s.Slices {
			base = math.Min(base, sl.InvertLevelM)
		}
	}
	mm := func(levelM float64) float64 { return (levelM - base) * 1000 }
	var invert, top, water, flood []pdf.Point
	var bands []pdf.Band
	for _, s := range r.Segments {
		for _, sl := range s.Slices {
			x, wl := sl.DistanceM, mm(sl.InvertLevelM)+sl.DepthMM
			invert = append(invert, pdf.Point{X: x, Y: mm(sl.InvertLevelM)})
			top = append(top, pdf.Point{X: x, Y: mm(sl.TopLevelM)})
			water = append(water, pdf.Point{X: x, Y: wl})
			floodY := math.NaN()
			if flooded(sl.InvertLevelM, sl.DepthMM, sl.TopLevelM) {
				floodY = wl
			}
			flood = append(flood, pdf.Point{X: x, Y: floodY})
			bands = extendBand(bands, x, sl.Supercritical, w.tr("documents.spec.superCritical"))
		}
		flood = append(flood, pdf.Point{X: s.EndM, Y: math.NaN()}) // no line across a segment joint
	}
	series := []pdf.Series{
		{Name: w.tr("documents.results.legendTop"), Points: top, Colour: topColour, Dash: []float64{2, 1}},
		{Name: w.tr("documents.results.legendInvert"), Points: invert, Colour: invertColour, Width: 0.5},
		{Name: w.tr("documents.results.legendWater"), Points: water, Colour: waterColour},
	}
	if r.Overflowed {
		series = append(series, pdf.Series{Name: w.tr("documents.results.legendFlooding"), Points: flood, Colour: floodColour, Width: 0.8})
	}
	return pdf.Chart{
		XLabel:       w.tr("documents.pdf.distance"),
		YLabel:       w.tr("documents.pdf.level"),
		Series:       series,
		Bands:        bands,
		Height:       75,
		DecimalComma: w.num.comma,
	}
}

// extendBand grows the last super-critical band to x, or starts one.
func extendBand(bands []pdf.Band, x float64, super bool, label string) []pdf.Band {
	if !super {
		return bands
	}
	if n := len(bands); n > 0 && bands[n-1].To >= x-0.5-1e-9 {
		bands[n-1].To = x
		return bands
	}
	return append(bands, pdf.Band{Label: label, From: x, To: x, Colour: bandColour})
}

// crossSection is a generic channel section at the outlet: the walls, the
// invert, the water at its outlet depth, with the internal width and depth.
func (w *writer) crossSection(r *design.Results) pdf.Figure {
	width, depth := r.ChannelInternalWidth, r.OverallDepthMM
	if r.InvertDepthMM > 0 {
		depth = r.InvertDepthMM
	}
	wall := math.Max(width*0.15, 15)
	water := math.Min(r.OutletDepthMM, depth)
	blue := waterColour
	grey := wallColour
	return pdf.Figure{
		Shapes: []pdf.Shape{
			{Points: []pdf.Point{{X: -wall, Y: depth}, {X: -wall, Y: -wall}, {X: width + wall, Y: -wall}, {X: width + wall, Y: depth}, {X: width, Y: depth}, {X: width, Y: 0}, {X: 0, Y: 0}, {X: 0, Y: depth}}, Closed: true, Fill: &grey, Stroke: invertColour},
			{Points: []pdf.Point{{X: 0, Y: 0}, {X: width, Y: 0}, {X: width, Y: water}, {X: 0, Y: water}}, Closed: true, Fill: &blue, Stroke: waterColour},
		},
		Labels: []pdf.Label{
			{At: pdf.Point{X: width / 2, Y: depth + wall*0.6}, Text: w.num.u(width, 0, "mm"), Align: pdf.Center},
			{At: pdf.Point{X: width + wall*1.3, Y: depth / 2}, Text: w.num.u(depth, 0, "mm")},
		},
		Height:  55,
		Caption: w.tr("documents.results.crossSectionDisclaimer"),
	}
}

// gully is a point product's capacity check: every outlet's capacity and
// what governs it.
func (w *writer) gully(p *design.PointResult) {
	w.d.Subheading(w.tr("documents.pdf.gully.title"))
	cols := []pdf.Column{
		{Title: w.tr("documents.spec.pipeDiameter"), Align: pdf.Right},
		{Title: w.tr("documents.pdf.gully.grating"), Align: pdf.Right},
		{Title: w.tr("documents.pdf.gully.outlet"), Align: pdf.Right},
		{Title: w.tr("documents.pdf.gully.pipe"), Align: pdf.Right},
		{Title: w.tr("documents.spec.capacity"), Align: pdf.Right},
		{Title: w.tr("documents.pdf.gully.governing")},
	}
	rows := make([][]string, 0, len(p.Capacities))
	for _, c := range p.Capacities {
		rows = append(rows, []string{w.num.u(c.DiameterMM, 0, "mm"), w.num.u(c.GratingLPS, 2, "l/s"), w.num.u(c.OutletLPS, 2, "l/s"), w.num.u(c.PipeLPS, 2, "l/s"), w.num.u(c.CapacityLPS, 2, "l/s"), w.governing(c.Governing)})
	}
	w.d.Table(cols, rows)
}

// governing names the part that limits a gully's capacity: the engine's
// "grating", "outlet" or "pipe".
func (w *writer) governing(part string) string {
	switch part {
	case "grating", "outlet", "pipe":
		return w.tr("documents.pdf.gully." + part)
	}
	return part
}

// inflows lists the point inflows the run takes besides its catchment's
// rain, as the profile's distances count them: from the head. Inflows
// still to be confirmed are left out, as the calculation leaves them out.
func (w *writer) inflows(req *design.Request) {
	var rows [][]string
	for _, in := range req.Inflows {
		if in.ToBeConfirmed {
			continue
		}
		flow := "–" // fed by another run of a shared calculation
		if in.FlowLPS > 0 {
			flow = w.num.f(in.FlowLPS, 2)
		}
		rows = append(rows, []string{w.num.f(in.DistanceM, 2), flow})
	}
	if len(rows) == 0 {
		return
	}
	w.d.Subheading(w.tr("documents.pdf.inflows"))
	w.d.Table([]pdf.Column{
		{Title: w.tr("documents.pdf.distance"), Align: pdf.Right},
		{Title: w.tr("documents.pdf.flow") + " (l/s)", Align: pdf.Right},
	}, rows)
}

// accessoryKeys names the accessory types a run can take.
var accessoryKeys = map[string]string{
	catalogue.AccessoryTrashBox:         "documents.pdf.accessory.trashBox",
	catalogue.AccessoryAccessBox:        "documents.pdf.accessory.accessBox",
	catalogue.AccessoryAccessCover:      "documents.pdf.accessory.accessCover",
	catalogue.AccessoryEndCap:           "documents.pdf.accessory.endCap",
	catalogue.AccessoryEndCapWithOutlet: "documents.pdf.accessory.endCapWithOutlet",
	catalogue.AccessoryConcreteChamber:  "documents.pdf.accessory.concreteChamber",
	catalogue.AccessoryConnectionPlate:  "documents.pdf.accessory.connectionPlate",
}

// accessories lists the accessories placed along the run, measured from
// the discharge end as the design screen places them; those still to be
// confirmed are left out, as the calculation leaves them out. Their
// articles are in the materials list.
func (w *writer) accessories(req *design.Request) {
	var rows [][]string
	for _, a := range req.Accessories {
		if a.ToBeConfirmed {
			continue
		}
		name := a.Type
		if key, ok := accessoryKeys[a.Type]; ok {
			name = w.tr(key)
		}
		rows = append(rows, []string{w.num.f(a.DistanceM, 2), name})
	}
	if len(rows) == 0 {
		return
	}
	w.d.Subheading(w.tr("documents.pdf.accessories"))
	w.d.Table([]pdf.Column{
		{Title: w.tr("documents.pdf.fromDischarge"), Align: pdf.Right},
		{Title: w.tr("documents.pdf.accessoryType"), Width: 2},
	}, rows)
}
