// Package fonts holds the DejaVu Sans fonts the documents embed: the PDF
// (package pdf) embeds them in the file, and the drawings rasterised for
// the RTF (package raster) are lettered with them, so both print the same
// type on every machine and cover Cyrillic and accented Latin, which no
// standard font of either format does. README.md says where the files
// come from; LICENSE is their licence.
package fonts

import _ "embed" // the font files

// The TrueType files. They are shared, not copied: treat them as
// read-only.
var (
	//go:embed DejaVuSans.ttf
	Sans []byte
	//go:embed DejaVuSans-Bold.ttf
	SansBold []byte
	//go:embed DejaVuSansCondensed.ttf
	Condensed []byte
	//go:embed DejaVuSansCondensed-Bold.ttf
	CondensedBold []byte
)
