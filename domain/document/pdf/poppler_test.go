package pdf

import "draindesign/domain/document/pdf/pdftest"

// Short names for the poppler helpers the tests use throughout.
var (
	requirePoppler = pdftest.Require
	writePDF       = pdftest.Write
	pageText       = pdftest.PageText
	readInfo       = pdftest.ReadInfo
	fold           = pdftest.Fold
)
