package eventstore_test

import (
	"testing"

	"draindesign/eventstore"
	"draindesign/eventstore/memory"
)

type wrapper struct{ eventstore.Store }

func (w wrapper) Unwrap() eventstore.Store { return w.Store }

func TestBare(t *testing.T) {
	inner := memory.New()
	if got := eventstore.Bare(wrapper{wrapper{inner}}); got != eventstore.Store(inner) {
		t.Errorf("Bare of two wrappers = %T, want the inner store", got)
	}
	if got := eventstore.Bare(inner); got != eventstore.Store(inner) {
		t.Error("Bare of an unwrapped store is not itself")
	}
}
