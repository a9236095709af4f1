package api

import (
	"io/fs"
	"net/http"

	"draindesign/api/openapi"
)

// openAPIDocument is GET /api/openapi.json: the API's description, open to
// anyone, as the reference page and integrators read it.
func (s *Server) openAPIDocument(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(openapi.Document)
}

// apiDocsPage is GET /api/docs/: the reference page, a page of the web
// build (web/apidocs/index.html) that renders /api/openapi.json with its
// scripts from /assets/, so it works offline.
func (s *Server) apiDocsPage(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Client != nil {
		if _, err := fs.Stat(s.cfg.Client, apiDocsFile); err == nil {
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, s.cfg.Client, apiDocsFile)
			return
		}
	}
	s.fail(w, r, notFound("The API reference page is part of the web client build (make build); the document itself is at /api/openapi.json"))
}

const apiDocsFile = "apidocs/index.html"
