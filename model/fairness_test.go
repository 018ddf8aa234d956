package model

import "testing"

func TestParseFairness(t *testing.T) {
	for _, s := range []string{"none", "process", "action"} {
		if f, err := ParseFairness(s); err != nil || f.String() != s {
			t.Fatalf("%s: %v %v", s, f, err)
		}
	}
	if _, err := ParseFairness("strong"); err == nil {
		t.Fatal("strong fairness accepted")
	}
}
