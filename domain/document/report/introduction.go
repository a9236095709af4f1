package report

import (
	"draindesign/domain/design"
	"draindesign/domain/document/pdf"
)

// introduction: project details, the runs at a glance, the method, the
// disclaimer.
func (w *writer) introduction() {
	w.d.Heading(w.tr("documents.pdf.introduction.title"))
	w.d.KeyValues(w.details())
	w.d.Subheading(w.tr("documents.pdf.runs"))
	w.runsTable()
	w.d.Subheading(w.tr("documents.pdf.method.title"))
	w.d.Paragraph(w.tr("documents.pdf.method.text"))
	w.d.Subheading(w.tr("documents.pdf.disclaimer.title"))
	w.d.Note(w.tr("documents.pdf.disclaimer.text"))
}

// details lists the project's details, leaving out the empty ones.
func (w *writer) details() [][2]string {
	d := w.p.Details
	var rows [][2]string
	for _, f := range []struct{ key, value string }{
		{"documents.details.name", d.Name}, {"documents.details.location", d.Location}, {"documents.details.reference", d.Reference},
		{"documents.details.date", d.Date}, {"documents.details.company", d.Company}, {"documents.details.designer", d.Designer},
		{"documents.details.telephone", d.Telephone}, {"documents.details.email", d.Email},
	} {
		if f.value != "" {
			rows = append(rows, [2]string{w.tr(f.key), f.value})
		}
	}
	return rows
}

// runsTable is one line per run: system, length, flow, the result.
func (w *writer) runsTable() {
	cols := []pdf.Column{
		{Title: w.tr("documents.pdf.run"), Width: 1.4},
		{Title: w.tr("documents.spec.system"), Width: 3},
		{Title: w.tr("documents.materials.length") + " (m)", Align: pdf.Right},
		{Title: w.tr("documents.pdf.flow") + " (l/s)", Align: pdf.Right},
		{Title: w.tr("documents.pdf.maxDepth") + " (mm)", Width: 1.1, Align: pdf.Right},
		{Title: w.tr("documents.spec.freeboard") + " (mm)", Width: 1.1, Align: pdf.Right},
		{Title: w.tr("documents.pdf.result"), Width: 1.2},
	}
	rows := make([][]string, 0, len(w.p.Runs))
	for _, run := range w.p.Runs {
		r, n := run.Results, w.num
		length, depth, freeboard := n.f(run.Request.ChannelLengthM, 2), n.f(r.MaxDepthMM, 0), n.f(r.Freeboard, 0)
		if r.Point != nil {
			length, depth, freeboard = "–", "–", "–"
		}
		rows = append(rows, []string{run.Name, w.systemName(r), length, n.f(r.Flow, 2), depth, freeboard, w.verdict(r)})
	}
	w.d.Table(cols, rows)
}

// verdict is a run's result in a word or two.
func (w *writer) verdict(r *design.Results) string {
	switch {
	case r.Overflowed:
		return w.tr("documents.spec.flooding")
	case r.Point != nil && r.Point.CapacityLPS < r.Flow:
		return w.tr("documents.pdf.insufficient")
	case w.lowFreeboard(r):
		return w.tr("documents.pdf.lowFreeboard")
	}
	return w.tr("documents.pdf.ok")
}
