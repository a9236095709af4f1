package storage

import (
	"fmt"
	"math"
)

// The storage graph: stored volume against time through the critical
// storm, with the channel's capacity as a dashed line.
const (
	graphW, graphH = 640, 400
	plotLeft       = 64
	plotRight      = 20
	plotTop        = 44
	plotBottom     = 46
)

// storageGraph draws the critical storm's trace as a base64 PNG.
func storageGraph(tr routed, capacity, durationMin, mmPerHour float64, flooded bool) (string, error) {
	img := newCanvas(graphW, graphH)
	pw, ph := graphW-plotLeft-plotRight, graphH-plotTop-plotBottom
	last := tr.steps[len(tr.steps)-1]
	tMax := last.T / 60
	vMax := capacity
	for _, s := range tr.steps {
		vMax = math.Max(vMax, s.Stored+s.Spilled)
	}
	xStep := niceStep(tMax, 8)
	xEnd := math.Ceil(tMax/xStep-1e-9) * xStep
	yStep := niceStep(vMax*1.08, 6)
	yEnd := math.Ceil(vMax*1.08/yStep-1e-9) * yStep
	px := func(tMin float64) float64 { return plotLeft + tMin/xEnd*float64(pw) }
	py := func(v float64) float64 { return plotTop + float64(ph) - v/yEnd*float64(ph) }

	// Grid, ticks and tick labels.
	for i := 0; float64(i)*xStep <= xEnd+1e-9; i++ {
		t := float64(i) * xStep
		x := px(t)
		line(img, x, plotTop, x, plotTop+float64(ph), 1, 0, lightGrey)
		line(img, x, plotTop+float64(ph), x, plotTop+float64(ph)+4, 1, 0, black)
		l := tickLabel(t, xStep)
		drawText(img, int(x)-textWidth(l, 1)/2, plotTop+ph+8, l, 1, black)
	}
	for i := 0; float64(i)*yStep <= yEnd+1e-9; i++ {
		v := float64(i) * yStep
		y := py(v)
		line(img, plotLeft, y, plotLeft+float64(pw), y, 1, 0, lightGrey)
		line(img, plotLeft-4, y, plotLeft, y, 1, 0, black)
		l := tickLabel(v, yStep)
		drawText(img, plotLeft-8-textWidth(l, 1), int(y)-glyphH/2, l, 1, black)
	}
	line(img, plotLeft, plotTop, plotLeft, plotTop+float64(ph), 1, 0, black)
	line(img, plotLeft, plotTop+float64(ph), plotLeft+float64(pw), plotTop+float64(ph), 1, 0, black)

	// Capacity, then the volume over it when the channel floods, then the
	// stored volume on top.
	yc := py(capacity)
	line(img, plotLeft, yc, plotLeft+float64(pw), yc, 2, 6, red)
	capLabel := fmt.Sprintf("Channel capacity %.2f m³", capacity)
	drawText(img, plotLeft+pw-textWidth(capLabel, 1)-4, int(yc)-glyphH-5, capLabel, 1, red)
	if flooded {
		for i := 1; i < len(tr.steps); i++ {
			a, b := tr.steps[i-1], tr.steps[i]
			line(img, px(a.T/60), py(a.Stored+a.Spilled), px(b.T/60), py(b.Stored+b.Spilled), 2, 0, grey)
		}
	}
	for i := 1; i < len(tr.steps); i++ {
		a, b := tr.steps[i-1], tr.steps[i]
		line(img, px(a.T/60), py(a.Stored), px(b.T/60), py(b.Stored), 2, 0, blue)
	}

	title := fmt.Sprintf("Critical storm: %g min at %.1f mm/h", durationMin, mmPerHour)
	drawText(img, (graphW-textWidth(title, 2))/2, 8, title, 2, black)
	drawText(img, 8, plotTop-14, "Stored volume (m³)", 1, blue)
	if flooded {
		l := "Stored + flooded (m³)"
		drawText(img, plotLeft+pw-textWidth(l, 1)-4, plotTop-14, l, 1, grey)
	}
	xl := "Time (min)"
	drawText(img, plotLeft+(pw-textWidth(xl, 1))/2, graphH-16, xl, 1, black)
	return encodePNG(img)
}

// niceStep is a 1, 2 or 5 × 10ⁿ step giving at most about n intervals
// over span.
func niceStep(span float64, n int) float64 {
	if !(span > 0) {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}

// tickLabel writes v with as many decimals as the step needs.
func tickLabel(v, step float64) string {
	dec := max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
	return fmt.Sprintf("%.*f", dec, v)
}
