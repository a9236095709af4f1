package web

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The help page's video tutorials live in public/static/help/videos (the
// client build copies them to dist, and the server answers them as
// /static/help/videos/). scripts/record-help-videos.mjs writes them with
// their manifest.
const videosDir = "public/static/help/videos"

type helpVideo struct {
	File     string  `json:"file"`
	Title    string  `json:"title"`
	Poster   string  `json:"poster"`
	Duration float64 `json:"duration"`
	Width    int     `json:"width"`
	Height   int     `json:"height"`
}

// webmFacts is what a WebM file says of itself.
type webmFacts struct {
	docType       string
	codec         string
	width, height int
	durationMS    float64
	blocks        int
}

// readVint reads an EBML variable-length integer at b[i:], with the
// length marker removed when mask is set (sizes) and kept for IDs.
func readVint(b []byte, i int, mask bool) (value uint64, n int, err error) {
	if i >= len(b) {
		return 0, 0, errors.New("truncated")
	}
	first := b[i]
	for n = 1; n <= 8 && first&(0x80>>(n-1)) == 0; n++ {
	}
	if n > 8 || i+n > len(b) {
		return 0, 0, fmt.Errorf("bad variable-length integer at %d", i)
	}
	value = uint64(first)
	if mask {
		value &= uint64(0xff >> n)
	}
	for k := 1; k < n; k++ {
		value = value<<8 | uint64(b[i+k])
	}
	return value, n, nil
}

// parseWebM walks the EBML tree far enough to prove a WebM video: the
// header's doc type, the track's codec and size, the duration and the
// frames in the clusters.
func parseWebM(b []byte) (webmFacts, error) {
	var f webmFacts
	if !bytes.HasPrefix(b, []byte{0x1a, 0x45, 0xdf, 0xa3}) {
		return f, errors.New("no EBML header")
	}
	containers := map[uint64]bool{0x1a45dfa3: true, 0x18538067: true, 0x1549a966: true, 0x1654ae6b: true, 0xae: true, 0xe0: true, 0x1f43b675: true}
	var walk func(start, end int) error
	walk = func(start, end int) error {
		for i := start; i < end; {
			id, idLen, err := readVint(b, i, false)
			if err != nil {
				return err
			}
			size, sizeLen, err := readVint(b, i+idLen, true)
			if err != nil {
				return err
			}
			body := i + idLen + sizeLen
			if size == (uint64(1)<<(7*sizeLen))-1 { // unknown size: to the end of the parent
				size = uint64(end - body)
			}
			if size > uint64(end-body) {
				return fmt.Errorf("element %x at %d runs past its parent", id, i)
			}
			stop := body + int(size)
			data := b[body:stop]
			switch {
			case containers[id]:
				if err := walk(body, stop); err != nil {
					return err
				}
			case id == 0x4282:
				f.docType = string(data)
			case id == 0x86:
				f.codec = string(data)
			case id == 0xb0:
				f.width = int(beUint(data))
			case id == 0xba:
				f.height = int(beUint(data))
			case id == 0x4489 && len(data) == 8:
				f.durationMS = math.Float64frombits(binary.BigEndian.Uint64(data))
			case id == 0x4489 && len(data) == 4:
				f.durationMS = float64(math.Float32frombits(binary.BigEndian.Uint32(data)))
			case id == 0xa3 || id == 0xa0:
				f.blocks++
			}
			i = stop
		}
		return nil
	}
	return f, walk(0, len(b))
}

func beUint(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// checkVideo says why a file is not a playable WebM tutorial of the manifest's size and length.
func checkVideo(b []byte, v helpVideo) error {
	f, err := parseWebM(b)
	if err != nil {
		return err
	}
	switch {
	case f.docType != "webm":
		return fmt.Errorf("doc type %q, want webm", f.docType)
	case f.codec != "V_VP8" && f.codec != "V_VP9":
		return fmt.Errorf("codec %q, want VP8 or VP9", f.codec)
	case f.width != v.Width || f.height != v.Height:
		return fmt.Errorf("%dx%d, the manifest says %dx%d", f.width, f.height, v.Width, v.Height)
	case math.Abs(f.durationMS/1000-v.Duration) > 0.5:
		return fmt.Errorf("%.1f s long, the manifest says %.1f s", f.durationMS/1000, v.Duration)
	case float64(f.blocks) < v.Duration*5:
		return fmt.Errorf("%d frames in %.1f s", f.blocks, v.Duration)
	}
	return nil
}

// Every video the manifest names is there, a real WebM of the stated size
// and length, small enough to serve, with a JPEG poster and a title in all
// eleven catalogues: a missing or broken recording fails here.
func TestHelpVideosManifest(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(videosDir, "manifest.json"))
	if err != nil {
		t.Fatalf("no manifest: %v (run `make help-videos`)", err)
	}
	var manifest struct {
		Videos []helpVideo `json:"videos"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	if len(manifest.Videos) < 2 {
		t.Fatalf("%d videos in the manifest, want the walkthroughs", len(manifest.Videos))
	}
	catalogues, err := Locales.ReadDir("locales")
	if err != nil || len(catalogues) != 11 {
		t.Fatalf("%d catalogues: %v", len(catalogues), err)
	}
	for _, v := range manifest.Videos {
		t.Run(v.File, func(t *testing.T) {
			if v.Duration <= 0 || v.Duration > 120 {
				t.Errorf("duration %.1f s", v.Duration)
			}
			b, err := os.ReadFile(filepath.Join(videosDir, v.File))
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > 2_500_000 {
				t.Errorf("%d bytes: too big to serve as a help video", len(b))
			}
			if err := checkVideo(b, v); err != nil {
				t.Error(err)
			}
			poster, err := os.ReadFile(filepath.Join(videosDir, v.Poster))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(poster, []byte{0xff, 0xd8, 0xff}) {
				t.Errorf("poster %s is not a JPEG", v.Poster)
			}
			for _, c := range catalogues {
				b, err := Locales.ReadFile("locales/" + c.Name())
				if err != nil {
					t.Fatal(err)
				}
				var texts map[string]string
				if err := json.Unmarshal(b, &texts); err != nil {
					t.Fatal(err)
				}
				if texts[v.Title] == "" {
					t.Errorf("%s has no text for %s", c.Name(), v.Title)
				}
			}
		})
	}
}

// The check refuses what is not a WebM video.
func TestCheckVideoRefuses(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(videosDir, "design-a-run.webm"))
	if err != nil {
		t.Skip("no recording yet")
	}
	facts, err := parseWebM(good)
	if err != nil {
		t.Fatal(err)
	}
	ok := helpVideo{Width: facts.width, Height: facts.height, Duration: facts.durationMS / 1000}
	if err := checkVideo(good, ok); err != nil {
		t.Fatalf("the recording itself: %v", err)
	}
	mkv := bytes.Replace(bytes.Clone(good), []byte("webm"), []byte("mkv\x00"), 1)
	for name, c := range map[string]struct {
		b []byte
		v helpVideo
	}{
		"empty":           {nil, ok},
		"a PNG":           {[]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), ok},
		"truncated":       {good[:len(good)/2], ok},
		"not webm":        {mkv, ok},
		"another size":    {good, helpVideo{Width: 1280, Height: 720, Duration: ok.Duration}},
		"another length":  {good, helpVideo{Width: ok.Width, Height: ok.Height, Duration: ok.Duration + 5}},
		"the header only": {good[:40], ok},
	} {
		if err := checkVideo(c.b, c.v); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
