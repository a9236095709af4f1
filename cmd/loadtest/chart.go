package main

import (
	"image/color"
	"os"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
	color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
}

var eventColor = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}

// writeChart draws three panels over the load phase: calculations and
// edits per second; the p99 latency per second of calculations and of
// edit → other tab; CPU per instance. Dashed red lines mark the
// disruptions.
func writeChart(path string, res *results, calcNames []string) error {
	n := res.seconds + 1
	rec := res.env.rec

	top := plot.New()
	top.Title.Text = "Load test: two instances behind haproxy"
	top.Y.Label.Text = "per second"
	if err := addLine(top, "calculations/s", rec.PerSecond(n, calcNames...), 0); err != nil {
		return err
	}
	if err := addLine(top, "edits/s", rec.PerSecond(n, "edit"), 1); err != nil {
		return err
	}

	mid := plot.New()
	mid.Y.Label.Text = "p99 latency (ms)"
	mid.Y.Scale = plot.LogScale{}
	mid.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	if err := addLine(mid, "edit → other tab", clampLog(rec.P99PerSecond(n, "edit→other tab")), 0); err != nil {
		return err
	}
	if err := addLine(mid, "calculate (all)", clampLog(rec.P99PerSecond(n, calcNames...)), 1); err != nil {
		return err
	}
	if err := addLine(mid, "save", clampLog(rec.P99PerSecond(n, "save")), 2); err != nil {
		return err
	}
	target := make([]float64, n)
	for i := range target {
		target[i] = 100
	}
	if err := addLine(mid, "100 ms (edit → other tab target)", target, 4); err != nil {
		return err
	}

	low := plot.New()
	low.Y.Label.Text = "CPU (% of a core)"
	for i, name := range res.instances {
		if err := addLine(low, name, res.procs.CPUPerSecond(name, n), i); err != nil {
			return err
		}
	}

	lag := plot.New()
	lag.Y.Label.Text = "read model behind (events)"
	lag.X.Label.Text = "seconds since the first sign-in"
	if err := addLine(lag, "furthest read model", res.lag.PerSecond(n), 3); err != nil {
		return err
	}

	plots := [][]*plot.Plot{{top}, {mid}, {low}, {lag}}
	for _, row := range plots {
		p := row[0]
		p.X.Min, p.X.Max = 0, float64(res.seconds)
		p.Legend.Top = true
		p.Add(plotter.NewGrid())
	}
	for _, row := range plots {
		markEvents(row[0], res.events)
	}
	if err := labelEvents(top, res.events); err != nil {
		return err
	}

	img := vgimg.New(vg.Points(900), vg.Points(1150))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 4, Cols: 1, PadX: vg.Millimeter, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(plots, tiles, dc)
	for j, row := range plots {
		row[0].Draw(canvases[j][0])
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func addLine(p *plot.Plot, name string, ys []float64, colour int) error {
	pts := seriesPoints(ys)
	if len(pts) == 0 {
		return nil
	}
	xys := make(plotter.XYs, len(pts))
	for i, pt := range pts {
		xys[i].X, xys[i].Y = pt[0], pt[1]
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.Color = palette[colour%len(palette)]
	l.Width = vg.Points(1.5)
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// clampLog keeps a log axis drawable: values below 0.1 ms become 0.1.
func clampLog(ys []float64) []float64 {
	for i, y := range ys {
		if y < 0.1 {
			ys[i] = 0.1
		}
	}
	return ys
}

// markEvents draws each disruption's start and end as a dashed vertical
// line across the plot's current Y range.
func markEvents(p *plot.Plot, events []event) {
	ymin, ymax := p.Y.Min, p.Y.Max
	for _, e := range events {
		if e.what == "load ends" {
			continue
		}
		x := e.at.Seconds()
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: ymin}, {X: x, Y: ymax}})
		if err != nil {
			continue
		}
		l.Color = eventColor
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
	}
}

// shortName is an event's label on the chart.
func shortName(what string) string {
	switch {
	case len(what) > 8 && what[:8] == "SIGKILL ":
		return "kill " + what[8:]
	case strings.HasPrefix(what, "load phase begins"):
		return "load begins"
	case what == "PostgreSQL cut":
		return "PG cut"
	case what == "PostgreSQL back":
		return "PG back"
	}
	return what
}

// labelEvents names the disruption lines near the top of p.
func labelEvents(p *plot.Plot, events []event) error {
	var xys plotter.XYs
	var names []string
	for i, e := range events {
		if e.what == "load ends" {
			continue
		}
		// Alternate heights so that close events stay readable.
		y := p.Y.Min + (p.Y.Max-p.Y.Min)*(0.9-0.08*float64(i%3))
		xys = append(xys, plotter.XY{X: e.at.Seconds() + 0.3, Y: y})
		names = append(names, shortName(e.what))
	}
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: names})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Color = eventColor
	}
	p.Add(l)
	return nil
}
