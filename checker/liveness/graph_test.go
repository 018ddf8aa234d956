package liveness

import "testing"

func TestFingerprintIndexFindsWhatItStored(t *testing.T) {
	x := newFingerprintIndex()
	for i := uint64(0); i < 100000; i++ {
		x.add(nil, i*0x9E3779B97F4A7C15, uint32(i))
	}
	for i := uint64(0); i < 100000; i++ {
		if id, ok := x.find(nil, i*0x9E3779B97F4A7C15); !ok || id != uint32(i) {
			t.Fatalf("find %d: %d %v", i, id, ok)
		}
	}
	if _, ok := x.find(nil, 12345); ok {
		t.Fatal("found a fingerprint never stored")
	}
}
