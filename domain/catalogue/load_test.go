package catalogue

import "testing"

func TestLoadEmbedded(t *testing.T) {
	t.Parallel()
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Systems()) == 0 {
		t.Fatal("no systems")
	}
}
