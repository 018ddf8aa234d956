package spectest

import (
	"context"
	"testing"

	"github.com/ringcheck/mc/checker"
	"github.com/ringcheck/mc/model"
)

// InTransitAgreesWithView checks, on every state of sys's reachable graph
// (up to limit states), that sys.InTransit lists the messages its View
// shows (model.System.InTransit): the same channels and kinds in the same
// order, and bytes that tell two messages apart exactly when their
// renderings differ. The graph is built twice, once observing InTransit and
// once, with InTransit removed, the View's channels (checker.Graph falls
// back to them), so the states are numbered alike.
func InTransitAgreesWithView[S any](t testing.TB, sys *model.System[S], what string, limit int64) {
	t.Helper()
	if sys.InTransit == nil || sys.View == nil {
		t.Fatalf("%s: the spec has no InTransit or no View to compare", what)
	}
	listed := observeInTransit(t, sys, what, limit)
	bare := *sys
	bare.InTransit = nil
	shown := observeInTransit(t, &bare, what, limit)
	if len(listed) != len(shown) {
		t.Fatalf("%s: %d states observed with InTransit, %d with View", what, len(listed), len(shown))
	}
	byBytes, byRendering := map[string]string{}, map[string]string{}
	for id := range listed {
		a, b := listed[id], shown[id]
		if len(a) != len(b) {
			t.Fatalf("%s: state %d: InTransit lists %d messages, View shows %d", what, id, len(a), len(b))
		}
		for k := range a {
			if a[k].ch != b[k].ch || a[k].kind != b[k].kind {
				t.Fatalf("%s: state %d, message %d: InTransit says channel %d kind %q, View channel %d kind %q (%s)",
					what, id, k, a[k].ch, a[k].kind, b[k].ch, b[k].kind, b[k].msg)
			}
			if r, ok := byBytes[a[k].msg]; ok && r != b[k].msg {
				t.Fatalf("%s: one encoding %x stands for %s and %s", what, a[k].msg, r, b[k].msg)
			}
			if e, ok := byRendering[b[k].msg]; ok && e != a[k].msg {
				t.Fatalf("%s: %s has two encodings, %x and %x", what, b[k].msg, e, a[k].msg)
			}
			byBytes[a[k].msg], byRendering[b[k].msg] = b[k].msg, a[k].msg
		}
	}
	if len(byBytes) == 0 {
		t.Fatalf("%s: no message was ever in transit: nothing compared", what)
	}
}

// transitMsg is one message as InTransit visits it; msg holds its bytes.
type transitMsg struct {
	ch   int
	kind string
	msg  string
}

// observeInTransit builds sys's graph and returns, by state number, the
// messages its build observed in transit.
func observeInTransit[S any](t testing.TB, sys *model.System[S], what string, limit int64) [][]transitMsg {
	t.Helper()
	var out [][]transitMsg
	inOrder := true
	_, err := checker.Of(sys).Graph(context.Background(), checker.GraphOptions{MaxStates: limit, InTransit: true,
		Visit: func(id uint32, o checker.Observation) {
			var msgs []transitMsg
			o.InTransit(func(ch int, kind string, msg []byte) {
				msgs = append(msgs, transitMsg{ch, kind, string(msg)})
			})
			inOrder = inOrder && int(id) == len(out)
			out = append(out, msgs)
		}})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !inOrder {
		t.Fatalf("%s: the graph's states were not visited in the order of their numbers", what)
	}
	return out
}

// InTransitAgreesOnEveryVariant checks InTransitAgreesWithView for every
// variant of a spec, on a ring of 4 (ids 2,4,1,3) with each channel kind
// of chans (FIFO if none), up to 3,000 states each.
func InTransitAgreesOnEveryVariant[S any](t testing.TB, build func(model.Params) (*model.System[S], error), variants []model.Variant, chans ...model.ChanKind) {
	t.Helper()
	if len(chans) == 0 {
		chans = []model.ChanKind{model.FIFO}
	}
	for _, v := range variants {
		for _, ch := range chans {
			p := model.Params{N: 4, IDs: []int{2, 4, 1, 3}, Variant: v.Name, Chan: ch}
			InTransitAgreesWithView(t, Build(t, build, p), v.Name+" "+p.String(), 3000)
		}
	}
}
