package simulate

import (
	"fmt"
	"math/rand/v2"

	"github.com/ringcheck/mc/model"
)

// SchedulerAgrees follows one random run of sys, of at most steps steps,
// with the incremental scheduler, and after every step compares each
// group's weight with its guard evaluated afresh: the footprints must name
// every group a step can enable or disable.
func SchedulerAgrees[S any](sys *model.System[S], seed uint64, steps int) (taken int, err error) {
	r := newRunner(sys)
	fresh := newScheduler(sys)
	gen := rand.New(rand.NewPCG(seed, 0))
	sys.Copy(&r.cur, &sys.Init[0])
	r.sched.reset(&r.cur)
	for taken < steps {
		a, ok := r.sched.draw(gen)
		if !ok {
			return taken, nil
		}
		if !sys.Apply(&r.cur, a, &r.prev) {
			r.sched.blocked(&r.cur, a)
			continue
		}
		taken++
		r.cur, r.prev = r.prev, r.cur
		r.sched.taken(&r.cur, a)
		fresh.reset(&r.cur)
		for g, w := range fresh.w.of {
			got := r.sched.w.of[g]
			if _, open := r.sched.open[g]; open {
				got = w // a blocked group keeps its open choices until touched
			}
			if got != w {
				return taken, fmt.Errorf("after step %d (%s), group %d (rule %s, p%d) weighs %d, its guard says %d",
					taken, sys.Rules[a.Rule].Name, g, sys.Rules[g/sys.Procs].Name, g%sys.Procs, got, w)
			}
		}
	}
	return taken, nil
}
