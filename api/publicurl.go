package api

import (
	"fmt"
	"net/url"
	"strings"
)

// parsePublicURL checks the configured public address and returns it
// without a trailing slash. It is required: mailed links are built only
// from it, since the request's Host header is the client's to choose and a
// reset link built from it could point at another site.
func parsePublicURL(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("the public URL (PUBLIC_URL) is required: mailed links are built only from it")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("the public URL (PUBLIC_URL) %q must be an http or https address such as https://drains.example.com", s)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}
