package liveness

import "sync"

// Parallel runs do(0), …, do(jobs−1) on at most workers goroutines, taking
// the jobs in order, and returns once all are done. The analyses of a built
// graph (CountCycles, FindLasso) may run this way, side by side: they only
// read the graph, and what they write into it (the guard's verdict, the
// memory they held) is under its lock. Each keeps its own working arrays,
// which is why the memory they hold together is counted apart
// (ParallelBytes). The caller collects the results by job, so that what it
// reports does not depend on which job finished first.
func Parallel(workers, jobs int, do func(job int)) {
	workers = max(1, min(workers, jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				do(j)
			}
		}()
	}
	for j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
}
