package metrics

import "testing"

// From 50 to 250 ms, where the edits' p99 lies under load, each bucket of
// the request histogram spans at most 1.3×; below, at most 1.5× down to
// 5 ms. Coarser buckets hid which side of 100 ms an instance's p99 was on.
func TestRequestBucketsFineAroundTheEditTail(t *testing.T) {
	for i := 1; i < len(requestBuckets); i++ {
		lo, hi := requestBuckets[i-1], requestBuckets[i]
		if hi <= lo {
			t.Fatalf("buckets not increasing at %v, %v", lo, hi)
		}
		switch {
		case lo >= 0.05 && hi <= 0.25 && hi/lo > 1.3:
			t.Errorf("bucket (%v s, %v s] spans %.2f×, want at most 1.3× between 50 and 250 ms", lo, hi, hi/lo)
		case lo >= 0.005 && hi <= 0.05 && hi/lo > 1.5:
			t.Errorf("bucket (%v s, %v s] spans %.2f×, want at most 1.5× between 5 and 50 ms", lo, hi, hi/lo)
		}
	}
	if requestBuckets[0] > 0.001 || requestBuckets[len(requestBuckets)-1] < 10 {
		t.Errorf("buckets %v do not cover 1 ms to 10 s", requestBuckets)
	}
}
