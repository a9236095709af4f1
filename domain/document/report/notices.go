package report

import (
	"fmt"
	"strconv"
	"strings"

	"draindesign/domain/design"
)

// noticeKeys words the calculation's notices in the document language.
// Super-critical flow has its own, fuller warning (see warnings).
var noticeKeys = map[string]string{
	design.NoticeMethodNotOffered:    "documents.pdf.notice.methodNotOffered",
	design.NoticeLongRun:             "documents.pdf.notice.longRun",
	design.NoticeTheoreticalStepping: "documents.pdf.notice.theoreticalStepping",
	design.NoticeNoExtensionHat:      "documents.pdf.notice.noExtensionHat",
	design.NoticeOrificeEndCap:       "documents.pdf.notice.orificeEndCap",
}

// notices prints the calculation's other warnings. A notice this document
// has no words for prints as the calculation's English sentence rather
// than not at all: a checking engineer must see every warning.
func (w *writer) notices(r *design.Results) {
	for i, n := range r.Notices {
		if n.Code == design.NoticeSuperCritical {
			continue
		}
		key, known := noticeKeys[n.Code]
		switch {
		case known:
			w.d.Warning(w.t(key, w.noticeValues(n.Values)))
		case i < len(r.Warnings):
			w.d.Warning(r.Warnings[i])
		default:
			w.d.Warning(n.Code)
		}
	}
}

// noticeValues formats a notice's numbers in the document language,
// with no more decimals than they need (at most two).
func (w *writer) noticeValues(values map[string]any) map[string]any {
	out := make(map[string]any, len(values))
	for k, v := range values {
		switch v := v.(type) {
		case float64:
			s := strconv.FormatFloat(v, 'f', 2, 64)
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
			if w.num.comma {
				s = strings.Replace(s, ".", ",", 1)
			}
			out[k] = s
		case int:
			out[k] = strconv.Itoa(v)
		default:
			out[k] = fmt.Sprint(v)
		}
	}
	return out
}
