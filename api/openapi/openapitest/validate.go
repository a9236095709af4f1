// Package openapitest checks HTTP exchanges against the API's OpenAPI
// document with kin-openapi. Only tests import it, so the validator stays
// out of the server binary.
package openapitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"draindesign/api/exchangelog"
	"draindesign/api/openapi"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Exchange is one request and its answer as the client saw them (or as
// the server recorded them, in the e2e runs).
type Exchange = exchangelog.Exchange

// Validator holds the loaded document and its router.
type Validator struct {
	Doc    *openapi3.T
	router routers.Router
}

func init() {
	// Documents are files: the body is checked for presence and type only.
	for _, ct := range []string{"application/pdf", "application/rtf", "text/csv", "text/html"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
}

// Load reads and validates the embedded document.
func Load() (*Validator, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.Document)
	if err != nil {
		return nil, fmt.Errorf("load openapi.json: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi.json is not a valid OpenAPI document: %w", err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route openapi.json: %w", err)
	}
	return &Validator{Doc: doc, router: router}, nil
}

// Check holds one exchange to the document. The answer must be documented
// for its status (status, headers, body schema). The request is checked
// only when the server accepted it (2xx): a refused request may be wrong
// on purpose (tests send bad input), but a request the server accepts
// must be one the document accepts too, credentials included.
func (v *Validator) Check(e Exchange) error {
	u, err := url.Parse(e.URL)
	if err != nil {
		return err
	}
	u.Scheme, u.Host = "http", "localhost"
	req, err := http.NewRequest(e.Method, u.String(), bytes.NewReader(e.Request))
	if err != nil {
		return err
	}
	if e.RequestType != "" {
		req.Header.Set("Content-Type", e.RequestType)
	}
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("%s: not in the document: %w", e, err)
	}
	ctx := context.Background()
	opts := &openapi3filter.Options{
		IncludeResponseStatus: true,
		MultiError:            true,
		AuthenticationFunc: func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
			switch in.SecuritySchemeName {
			case "session":
				if e.Cookie {
					return nil
				}
			case "bearer":
				if e.Bearer {
					return nil
				}
			}
			return errors.New("no " + in.SecuritySchemeName + " credentials")
		},
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if e.Status >= 200 && e.Status < 300 {
		if e.RequestSkipped || (len(e.Request) == 0 && route.Operation.RequestBody != nil) {
			// Calls that read no body (logout, refresh) document none; a
			// body-less request to a call that reads one is the test's
			// shorthand for "{}", which the server answers alike.
			in.Options.ExcludeRequestBody = true
		}
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			return fmt.Errorf("%s: the request does not match the document: %w", e, err)
		}
	}
	outOpts := *opts
	// A body left out of the record (a file, or one too large to keep)
	// is not checked; its status and headers are.
	outOpts.ExcludeResponseBody = e.AnswerSkipped
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: e.Status, Header: e.Header, Options: &outOpts}
	out.SetBodyBytes(e.Answer)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("%s: the answer does not match the document: %w", e, err)
	}
	return nil
}

// Operation names the documented operation an exchange is for, as
// "METHOD /path/{param}", or its own method and path when the document has
// none: mismatches of one call with different ids are then counted together.
func (v *Validator) Operation(e Exchange) string {
	path := strings.SplitN(e.URL, "?", 2)[0]
	req, err := http.NewRequest(e.Method, "http://localhost"+path, nil)
	if err != nil {
		return e.Method + " " + path
	}
	route, _, err := v.router.FindRoute(req)
	if err != nil {
		return e.Method + " " + path
	}
	return e.Method + " " + route.Path
}

// Operations lists "METHOD /path" for every operation in the document.
func (v *Validator) Operations() []string {
	var out []string
	for path, item := range v.Doc.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, strings.ToUpper(method)+" "+path)
		}
	}
	slices.Sort(out)
	return out
}

// Bearer lists "METHOD /path" for the operations whose security admits a
// bearer token.
func (v *Validator) Bearer() []string {
	var out []string
	for path, item := range v.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.Security == nil {
				continue
			}
			for _, req := range *op.Security {
				if _, ok := req["bearer"]; ok {
					out = append(out, strings.ToUpper(method)+" "+path)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// ReadAll drains a body for recording and gives back a reader of the same
// bytes.
func ReadAll(rc io.ReadCloser) ([]byte, io.ReadCloser, error) {
	if rc == nil {
		return nil, nil, nil
	}
	b, err := io.ReadAll(rc)
	_ = rc.Close()
	return b, io.NopCloser(bytes.NewReader(b)), err
}
