package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"draindesign/api/locale"
	"draindesign/api/markdown"

	"github.com/go-chi/chi/v5"
)

// shippedTag changes with every release's catalogues, so that a browser's
// cached catalogue is not taken for the new release's.
var shippedTag = func() string {
	h := sha256.New()
	for _, c := range locale.Codes {
		b, _ := json.Marshal(locale.Shipped(c))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}()

// localeRevisions answers which revision each language's catalogue is at;
// open clients poll it and reload a language that moved.
func (s *Server) localeRevisions(w http.ResponseWriter, r *http.Request) {
	revs, err := s.translations.Revisions(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"revisions": revs, "release": shippedTag})
}

// localeCatalogue is a language's catalogue as the client's i18next loads
// it: the shipped texts with the translators' overrides over them.
func (s *Server) localeCatalogue(w http.ResponseWriter, r *http.Request) {
	lang := chi.URLParam(r, "lang")
	texts, rev, err := s.translations.Catalogue(r.Context(), lang)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	etag := fmt.Sprintf(`"%s-%s-%d"`, lang, shippedTag, rev)
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if match := r.Header.Get("If-None-Match"); match == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeJSON(w, http.StatusOK, texts)
}

func (s *Server) helpTopics(w http.ResponseWriter, r *http.Request) {
	topics, err := s.translations.HelpTopics(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, topics)
}

// helpPage is GET /static/help/{locale}/{file}.html: a topic's Markdown in
// that language as HTML, 404 when the language has no text of it (the
// client then asks for en and says so).
func (s *Server) helpPage(w http.ResponseWriter, r *http.Request) {
	file, ok := strings.CutSuffix(chi.URLParam(r, "file"), ".html")
	if !ok {
		http.NotFound(w, r)
		return
	}
	text, err := s.translations.HelpMarkdown(r.Context(), chi.URLParam(r, "locale"), file)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	html, err := markdown.HTML(text)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	// The fragment is put into the help page; opened on its own it may
	// run nothing and load nothing from elsewhere.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write([]byte(html))
}

func (s *Server) translationTexts(w http.ResponseWriter, r *http.Request) {
	texts, err := s.translations.Texts(r.Context(), actorOf(r), chi.URLParam(r, "lang"), chi.URLParam(r, "kind"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, texts)
}

type textChange struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

func (s *Server) translationSet(w http.ResponseWriter, r *http.Request) {
	var in textChange
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	rev, err := s.translations.Set(r.Context(), actorOf(r), chi.URLParam(r, "lang"), chi.URLParam(r, "kind"), in.Key, in.Text)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"revision": rev})
}

func (s *Server) translationReset(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Key string `json:"key"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	rev, err := s.translations.Reset(r.Context(), actorOf(r), chi.URLParam(r, "lang"), chi.URLParam(r, "kind"), in.Key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"revision": rev})
}

// translationImport takes a language file as exported (a flat object of
// key to text) and applies it whole or not at all.
func (s *Server) translationImport(w http.ResponseWriter, r *http.Request) {
	var texts map[string]string
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(&texts); err != nil {
		s.fail(w, r, badRequestf("The file is not a JSON object of texts: %v", bodyError(err)))
		return
	}
	n, err := s.translations.Import(r.Context(), actorOf(r), chi.URLParam(r, "lang"), chi.URLParam(r, "kind"), texts)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"changed": n})
}

// translationPreview renders a help topic's Markdown as the help page
// will, for the editor's preview.
func (s *Server) translationPreview(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Markdown string `json:"markdown"`
	}
	if err := decode(w, r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.translations.MayPreview(actorOf(r)); err != nil {
		s.fail(w, r, err)
		return
	}
	html, err := markdown.HTML(in.Markdown)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"html": html})
}

// webLinksOf is the top bar's web-links menu and partner logo for the
// signed-in user's country.
func (s *Server) webLinksOf(w http.ResponseWriter, r *http.Request) {
	links, err := s.webLinks.For(actorOf(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, links)
}

// featureSheet is a feature sheet PDF of the logged-out page.
func (s *Server) featureSheet(w http.ResponseWriter, r *http.Request) {
	f, err := s.translations.FeatureSheet(r.Context(), chi.URLParam(r, "version"), chi.URLParam(r, "language"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeFile(w, f)
}
