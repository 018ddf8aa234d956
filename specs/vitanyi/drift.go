package vitanyi

// The two rules of bounded drift (package doc, "Time"). Unbounded drift
// (K = 0) keeps no counters and restricts nothing.

// running reports whether p has a clock that counts for the drift rules: it
// is awake, or it is the Elected One waiting for its sleepwell, or it is
// asleep with a wakeup waiting for it.
func running(s *State, p int) bool {
	switch s.Phase[p] {
	case Awake, Announced:
		return true
	case Asleep:
		return s.In[p].Len() > 0
	}
	return false
}

// mayTick is rule 1: p may tick only if it has completed fewer than K ticks
// since every other running processor last ticked.
func (sp *spec) mayTick(s *State, p int) bool {
	if sp.drift == 0 {
		return true
	}
	n := sp.n
	for q := 0; q < n; q++ {
		if q != p && running(s, q) && int(s.Ahead[p*n+q]) >= sp.drift {
			return false
		}
	}
	return true
}

// mayPassOver is rule 2: a tick of p may leave the message at the head of
// In[p] unread (it has not arrived yet) only if fewer than K − 1 ticks of p
// have passed it over already; the K-th tick reads it.
func (sp *spec) mayPassOver(s *State, p int) bool {
	return sp.drift == 0 || s.In[p].Len() == 0 || s.Passed[p] < sp.drift-1
}

// othersRun reports whether some processor other than p runs.
func othersRun(s *State, p int) bool {
	for q := range s.Phase {
		if q != p && running(s, q) {
			return true
		}
	}
	return false
}

// countTick books a tick of p, before its effect: p is one tick further
// ahead of every other running processor, and every other one is no longer
// ahead of p.
func (sp *spec) countTick(s *State, p int) {
	if sp.drift == 0 {
		return
	}
	n := sp.n
	for q := 0; q < n; q++ {
		if q != p && running(s, q) {
			s.Ahead[p*n+q]++
			s.Ahead[q*n+p] = 0
		}
	}
}

// settle zeroes the drift counters of every processor that does not run
// (any more, or yet), after an action: its clock no longer constrains
// anyone, and the state stays canonical.
func (sp *spec) settle(s *State) {
	if sp.drift == 0 {
		return
	}
	n := sp.n
	for p := 0; p < n; p++ {
		if running(s, p) {
			continue
		}
		s.Passed[p] = 0
		for q := 0; q < n; q++ {
			s.Ahead[p*n+q], s.Ahead[q*n+p] = 0, 0
		}
	}
}
