package report

import (
	"slices"
)

// references are the design method's sources, as docs/hydraulics.md cites
// them. Citations stay in their original language.
var references = []string{
	"Chow, V.T. (1959). Open-channel hydraulics. McGraw-Hill, New York.",
	"Henderson, F.M. (1966). Open channel flow. Macmillan, New York.",
	"Hinds, J. (1926). Side channel spillways: hydraulic theory, economic factors, and experimental determination of losses. Trans. ASCE 89.",
	"Escarameia, M., May, R.W.P., HR Wallingford: design of linear drainage channels (the HRW method).",
	"Colebrook, C.F. (1939). Turbulent flow in pipes. J. ICE 11(4), 133–156.",
	"EN 12056-3:2000. Gravity drainage systems inside buildings — Part 3: Roof drainage, layout and calculation.",
	"FHWA (2009). Urban Drainage Design Manual, HEC-22, 3rd ed.",
	"Bos, M.G. (ed.) (1989). Discharge measurement structures, 3rd ed. ILRI Publication 20.",
}

// information: the systems used, installation notes, the method and its
// references.
func (w *writer) information() {
	w.d.Heading(w.tr("documents.pdf.information.title"))
	w.d.Subheading(w.tr("documents.pdf.information.systems"))
	w.d.KeyValues(w.systemsUsed())
	w.d.Subheading(w.tr("documents.pdf.installation.title"))
	for _, key := range []string{"documents.pdf.installation.bedding", "documents.pdf.installation.joints", "documents.pdf.installation.outlet", "documents.pdf.installation.maintenance"} {
		w.d.Paragraph("• " + w.tr(key))
	}
	w.d.Subheading(w.tr("documents.pdf.method.title"))
	w.d.Paragraph(w.tr("documents.pdf.method.text"))
	w.d.Paragraph(w.tr("documents.pdf.method.detail"))
	w.d.Subheading(w.tr("documents.pdf.references"))
	for _, ref := range references {
		w.d.Paragraph(ref)
	}
}

// systemsUsed lists each system once with the runs that use it.
func (w *writer) systemsUsed() [][2]string {
	var names []string
	runs := map[string][]string{}
	for _, run := range w.p.Runs {
		name := w.systemName(run.Results)
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		runs[name] = append(runs[name], run.Name)
	}
	rows := make([][2]string, len(names))
	for i, name := range names {
		list := ""
		for j, r := range runs[name] {
			if j > 0 {
				list += ", "
			}
			list += r
		}
		rows[i] = [2]string{name, list}
	}
	return rows
}
