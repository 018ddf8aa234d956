package checker

import "github.com/ringcheck/mc/checker/internal/diskio"

// stopOnEnvironment turns a fault of the machine in res.Err into a stop:
// the run is incomplete for that reason (diskio.Environmental).
func (e *bfs[S]) stopOnEnvironment(res *Result) {
	if res.Err != nil && diskio.Environmental(res.Err) {
		e.halt("I/O error: " + res.Err.Error())
		res.Err = nil
	}
}
