// Package web carries the browser client into the Go binary: the Vite build
// output (served by the HTTP server with an SPA fallback to index.html) and
// the message catalogues shared by the client (i18next) and the server (go-i18n).
package web

import (
	"embed"
	"io/fs"
)

// dist holds web/dist as produced by `npm run build`. Before a build it holds
// only the committed dist/.keep, so the module compiles from a fresh clone.
//
//go:embed all:dist
var dist embed.FS

// Locales holds locales/{lang}.json: flat objects of message key to text, with
// i18next placeholders written {{name}}.
//
//go:embed locales/*.json
var Locales embed.FS

// Help holds help/{lang}/{topic}.md: the help topics as the release ships
// them, in Markdown. English has every topic; another language has the ones
// translated so far, and the help page falls back to English for the rest.
//
//go:embed help
var Help embed.FS

// Dist returns the client build rooted at dist/, so index.html is at "index.html".
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		// fs.Sub fails only for an invalid path name, which "dist" is not.
		panic(err)
	}
	return sub
}
