// Package openapi holds the API's description: openapi.json, an OpenAPI
// 3.1 document kept by hand beside the handlers (docs/api.md says how to
// add a call). The server serves it at /api/openapi.json; tests hold it to
// the router and to the answers the server really gives.
package openapi

import _ "embed"

// Document is openapi.json as written.
//
//go:embed openapi.json
var Document []byte
