package api

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
)

// The help videos are answered with their own media types (not the
// system's mime.types, which may call .webm audio), and a missing one is a
// 404 rather than the client's page.
func TestHelpVideosServed(t *testing.T) {
	client := fstest.MapFS{
		"index.html":                           {Data: []byte("<!doctype html>")},
		"static/help/videos/manifest.json":     {Data: []byte(`{"videos":[]}`)},
		"static/help/videos/design-a-run.webm": {Data: []byte("\x1a\x45\xdf\xa3webm")},
		"static/help/videos/design-a-run.jpg":  {Data: []byte("\xff\xd8\xff\xe0")},
	}
	h := helpVideos(client)
	for _, c := range []struct {
		path, wantType string
		wantCode       int
	}{
		{"/static/help/videos/design-a-run.webm", "video/webm", http.StatusOK},
		{"/static/help/videos/design-a-run.jpg", "image/jpeg", http.StatusOK},
		{"/static/help/videos/manifest.json", "application/json", http.StatusOK},
		{"/static/help/videos/missing.webm", "", http.StatusNotFound},
		{"/static/help/videos/", "", http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, c.path, nil))
		if rec.Code != c.wantCode {
			t.Errorf("%s: %d, want %d", c.path, rec.Code, c.wantCode)
		}
		if c.wantType != "" && rec.Header().Get("Content-Type") != c.wantType {
			t.Errorf("%s: Content-Type %q, want %q", c.path, rec.Header().Get("Content-Type"), c.wantType)
		}
	}
}
