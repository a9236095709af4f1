// Package markdown turns the help topics' Markdown into the HTML the help
// page shows. Translators write the Markdown, so the HTML must be safe to
// put into the page: goldmark without its unsafe option leaves out raw HTML
// and drops links to javascript:, vbscript:, file: and data: (other than
// images), and nothing else reaches the output.
package markdown

import (
	"bytes"
	"fmt"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))

// HTML renders src.
func HTML(src string) (string, error) {
	var buf bytes.Buffer
	if err := md.Convert([]byte(src), &buf); err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return buf.String(), nil
}
