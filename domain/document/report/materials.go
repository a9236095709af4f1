package report

import (
	"cmp"
	"slices"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"
	"draindesign/domain/document/pdf"
)

// materials: each run's list, then the project total by article number.
func (w *writer) materials() {
	w.d.Heading(w.tr("documents.pdf.materials.title"))
	for _, run := range w.p.Runs {
		w.d.Subheading(w.trd("documents.materials.title", "run", run.Name))
		w.d.Paragraph(w.tr("documents.spec.system") + ": " + w.systemName(run.Results))
		lines := materialLines(run.Results)
		if len(lines) == 0 {
			w.d.Note(w.tr("documents.materials.empty"))
			continue
		}
		w.materialTable(lines)
	}
	w.d.Subheading(w.tr("documents.pdf.materials.total"))
	total := projectTotal(w.p.Runs)
	if len(total) == 0 {
		w.d.Note(w.tr("documents.materials.empty"))
		return
	}
	w.materialTable(total)
}

// materialLines is a run's lists in the screen's order: channels and
// gratings, connectors, end caps, access covers, boxes.
func materialLines(r *design.Results) []catalogue.MaterialLine {
	var out []catalogue.MaterialLine
	for _, list := range [][]catalogue.MaterialLine{r.Channel, r.Connectors, r.Endcaps, r.AccessCover, r.Box} {
		for _, l := range list {
			if l.Count > 0 {
				out = append(out, l)
			}
		}
	}
	return out
}

// projectTotal sums the counts of every run by article number (by
// description where an article has no number), sorted by article number.
func projectTotal(runs []Run) []catalogue.MaterialLine {
	index := map[string]int{}
	var out []catalogue.MaterialLine
	for _, run := range runs {
		for _, l := range materialLines(run.Results) {
			key := l.HAN
			if key == "" {
				key = "\x00" + l.Description
			}
			if i, ok := index[key]; ok {
				out[i].Count += l.Count
				continue
			}
			index[key] = len(out)
			// The total names the article bought: a cut, a hole or an
			// orifice plate belongs to one run's line.
			text := catalogue.LineText{Key: l.Text.Key, Designation: l.Text.Designation, GratingWidthMM: l.Text.GratingWidthMM, GratingLengthMM: l.Text.GratingLengthMM}
			out = append(out, catalogue.MaterialLine{HAN: l.HAN, Description: l.Description, Count: l.Count, Text: text})
		}
	}
	slices.SortStableFunc(out, func(a, b catalogue.MaterialLine) int {
		return cmp.Or(cmp.Compare(a.HAN, b.HAN), cmp.Compare(a.Description, b.Description))
	})
	return out
}

func (w *writer) materialTable(lines []catalogue.MaterialLine) {
	cols := []pdf.Column{
		{Title: w.tr("documents.materials.han"), Width: 1.2},
		{Title: w.tr("documents.materials.description"), Width: 4},
		{Title: w.tr("documents.materials.count"), Width: 0.9, Align: pdf.Right},
	}
	rows := make([][]string, len(lines))
	for i, l := range lines {
		han := l.HAN
		if han == "" {
			han = "–"
		}
		rows[i] = []string{han, w.description(l), w.num.f(float64(l.Count), 0)}
	}
	w.d.Table(cols, rows)
}
