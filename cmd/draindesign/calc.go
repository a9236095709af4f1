package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"
)

// stdin is where `calc -` reads; tests replace it.
var stdin io.Reader = os.Stdin

// calc reads the body of POST /api/drainage/calculate/ from a file or
// standard input and prints the answer the call gives, through the same
// code, as indented JSON.
func calc(args []string, out io.Writer) error {
	if len(args) > 1 {
		return errors.New("usage: draindesign calc [FILE|-]")
	}
	var body []byte
	var err error
	if len(args) == 0 || args[0] == "-" {
		body, err = io.ReadAll(stdin)
	} else {
		body, err = os.ReadFile(args[0])
	}
	if err != nil {
		return fmt.Errorf("calc: %w", err)
	}
	req, err := design.DecodeRequest(body)
	if err != nil {
		return err
	}
	ans, err := design.Calculate(catalogue.Default(), req)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(ans)
}
