package checker

import (
	"context"
	"strings"
	"testing"

	"github.com/ringcheck/mc/model"
)

// twoCounters is a toy system: two counters, each rule raising one up to 2.
// broken picks a codec defect to plant.
func twoCounters(broken string) *model.System[[]int] {
	sys := &model.System[[]int]{Spec: "counters", Procs: 2, Init: [][]int{{0, 0}},
		Rules: []model.Rule[[]int]{{Name: "inc",
			Guard: func(s *[]int, p int) bool { return (*s)[p] < 2 },
			Do:    func(s *[]int, p, _ int) bool { (*s)[p]++; return true }}},
		Copy: func(dst, src *[]int) { *dst = append((*dst)[:0], *src...) },
		Encode: func(buf []byte, s *[]int) []byte {
			return model.AppendUint(model.AppendUint(buf, uint64((*s)[0])), uint64((*s)[1]))
		},
		Decode: func(data []byte, s *[]int) error {
			d := model.NewDecoder(data)
			*s = append((*s)[:0], d.Int(), d.Int())
			return d.Finish()
		},
		Vars: func(*[]int) []model.Var { return nil },
	}
	switch broken {
	case "aliasing copy":
		sys.Copy = func(dst, src *[]int) { *dst = *src }
	case "copy drops a field":
		sys.Copy = func(dst, src *[]int) { *dst = append((*dst)[:0], (*src)[0], 0) }
	case "decode keeps a field":
		sys.Decode = func(data []byte, s *[]int) error {
			d := model.NewDecoder(data)
			x := d.Int()
			if len(*s) != 2 {
				*s = make([]int, 2)
			}
			(*s)[0] = x
			return nil
		}
	}
	return sys
}

// CheckCodec passes a sound codec on every reachable state and names the
// state where a planted defect shows.
func TestCheckCodecFindsPlantedDefects(t *testing.T) {
	states, complete, err := CheckCodec(context.Background(), twoCounters(""), 0)
	if err != nil || !complete || states != 9 {
		t.Fatalf("sound codec: %d states, complete %v, %v", states, complete, err)
	}
	if states, complete, err := CheckCodec(context.Background(), twoCounters(""), 4); err != nil || complete || states != 4 {
		t.Fatalf("limit 4: %d states, complete %v, %v", states, complete, err)
	}
	for defect, want := range map[string]string{
		"aliasing copy":        "changed the original",
		"copy drops a field":   "copied into a zero state",
		"decode keeps a field": "decoded",
	} {
		if _, _, err := CheckCodec(context.Background(), twoCounters(defect), 0); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", defect, err, want)
		}
	}
}
